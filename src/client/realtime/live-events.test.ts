import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { ServerMessageType } from "../../shared/realtime-messages";
import { areaOf, HeldWhileHidden, isControlMessage, liveToast, mergedLeadRedirect, parseLiveMessage, type LiveMessage } from "./live-events";
import { refreshFor } from "./LiveUpdates";
import { reconnectDelay, socketUrl } from "./socket";

// Real-time messages (part 2 §3, §4): what each refreshes, which toast it shows, and when it stays quiet.

const loadedAt = Date.parse("2026-11-24T15:00:00Z");
const later = loadedAt + 60_000;
const at = { now: later, appLoadedAt: loadedAt, writingRecently: false };
const event = (type: ServerMessageType, data: LiveMessage["data"] = {}): LiveMessage => ({ type, data: { timestamp: new Date(later).toISOString(), ...data } });

describe("live toasts", () => {
  it("use the spec's titles and texts", () => {
    expect(liveToast(event("lead_created", { firstName: "Ada", lastName: "Lovelace" }), at)).toEqual({ title: "New Lead", description: "New lead: Ada Lovelace" });
    expect(liveToast(event("lead_claimed", { firstName: "Ada", lastName: "Lovelace" }), at)).toEqual({ title: "Lead Claimed", description: "Lead claimed: Ada Lovelace" });
    expect(liveToast(event("lead_status_changed", { status: "contacted" }), at)).toEqual({ title: "Lead Updated", description: "Lead status changed to Contacted" });
  });

  it("stay quiet during the first 30 s after the app loaded", () => {
    const message = event("lead_created", { firstName: "Ada", lastName: "L", timestamp: new Date(loadedAt + 29_000).toISOString() });
    expect(liveToast(message, { ...at, now: loadedAt + 29_999 })).toBeNull();
    expect(liveToast({ ...message, data: { ...message.data, timestamp: new Date(loadedAt + 30_000).toISOString() } }, { ...at, now: loadedAt + 30_000 })).not.toBeNull();
  });

  it("stay quiet for an event older than 10 s (one delivered late, after a reconnect)", () => {
    const sent = (ms: number) => event("lead_created", { firstName: "A", lastName: "B", timestamp: new Date(later - ms).toISOString() });
    expect(liveToast(sent(10_000), at)).not.toBeNull();
    expect(liveToast(sent(10_001), at)).toBeNull();
  });

  it("never show for appointment events, nor for test drives or unknown types", () => {
    expect(liveToast(event("appointment_created", { title: "Visit" }), at)).toBeNull();
    expect(liveToast(event("appointment_status_changed", { status: "completed" }), at)).toBeNull();
    expect(liveToast(event("test_drive_updated", { firstName: "A", lastName: "B" }), at)).toBeNull();
    expect(liveToast(event("lead_deleted", { firstName: "A", lastName: "B" }), at)).toBeNull();
    // parseLiveMessage refuses a type the server does not send; should one get through, it shows nothing.
    expect(liveToast(event("something_else" as ServerMessageType), at)).toBeNull();
  });
});

describe("live toasts this tab keeps to itself (decision 116)", () => {
  it("not for the echo of its own change, which would replace the change's own confirmation", () => {
    expect(liveToast(event("lead_claimed", { firstName: "A", lastName: "B" }), { ...at, writingRecently: true })).toBeNull();
  });

  it("not for a client whose name the server withheld from someone who may not see them", () => {
    expect(liveToast(event("lead_claimed", { firstName: "", lastName: "" }), at)).toBeNull();
    expect(liveToast(event("lead_status_changed", { status: "closed" }), at)).toEqual({ title: "Lead Updated", description: "Lead status changed to Closed" });
  });
});

describe("a merge (decision 157)", () => {
  const merged = (data: LiveMessage["data"] = {}) =>
    event("lead_merged", { firstName: "Dana", lastName: "Twin", status: "claimed", leadId: "kept-1", mergedLeadId: "gone-1", ...data });

  it("has its own toast, quiet like the others, and none for a nameless copy", () => {
    expect(liveToast(merged(), at)).toEqual({ title: "Leads Merged", description: "Leads merged: Dana Twin" });
    expect(liveToast(merged(), { ...at, writingRecently: true })).toBeNull();
    expect(liveToast(merged(), { ...at, now: loadedAt + 1000 })).toBeNull();
    expect(liveToast(event("lead_merged", { firstName: "", lastName: "", status: "claimed" }), at)).toBeNull();
  });

  it("moves a tab on the merged-away lead's page to the kept lead, and says why", () => {
    expect(mergedLeadRedirect(merged(), "/leads/detail/gone-1")).toEqual({
      to: "/leads/detail/kept-1",
      toast: { title: "Lead Merged", description: "This lead was merged into Dana Twin." },
    });
    expect(mergedLeadRedirect(merged(), "/leads/detail/gone-1/")?.to).toBe("/leads/detail/kept-1");
  });

  it("leaves every other page where it is, and a nameless copy (no ids) moves nobody", () => {
    expect(mergedLeadRedirect(merged(), "/leads/detail/kept-1")).toBeNull();
    expect(mergedLeadRedirect(merged(), "/leads/detail/gone-10")).toBeNull();
    expect(mergedLeadRedirect(merged(), "/leads/new")).toBeNull();
    expect(mergedLeadRedirect(event("lead_merged", { firstName: "", lastName: "" }), "/leads/detail/gone-1")).toBeNull();
    expect(mergedLeadRedirect(event("lead_deleted", { leadId: "kept-1", mergedLeadId: "gone-1" }), "/leads/detail/gone-1")).toBeNull();
  });
});

describe("a hidden tab (decision 156)", () => {
  it("holds events until it is shown again, so nothing it refreshes keeps an idle session alive; then hands them back in order", () => {
    let hidden = false;
    const held = new HeldWhileHidden(() => hidden);
    expect(held.offer(event("lead_created"))).toBe(true);
    hidden = true;
    const claimed = event("lead_claimed");
    const merged = event("lead_merged", { leadId: "k", mergedLeadId: "g" });
    expect(held.offer(claimed)).toBe(false);
    expect(held.offer(merged)).toBe(false);
    hidden = false;
    expect(held.take()).toEqual([claimed, merged]);
    expect(held.take()).toEqual([]);
  });

  it("keeps one event per kind (a merge per merged-away lead), so a tab hidden for days holds a handful", () => {
    const held = new HeldWhileHidden(() => true);
    for (let i = 0; i < 1000; i++) held.offer(event("lead_created", { lastName: `L${i}` }));
    held.offer(event("lead_merged", { leadId: "k", mergedLeadId: "g1" }));
    held.offer(event("lead_merged", { leadId: "k", mergedLeadId: "g2" }));
    held.offer(event("appointment_created"));
    const kept = held.take();
    expect(kept.map((m) => `${m.type}${m.data.mergedLeadId ?? ""}`)).toEqual(["lead_created", "lead_mergedg1", "lead_mergedg2", "appointment_created"]);
    expect(kept[0]!.data.lastName).toBe("L999");
  });
});

describe("reading a socket message", () => {
  it("accepts {type, data} and refuses anything else", () => {
    expect(parseLiveMessage('{"type":"lead_created","data":{"firstName":"A"}}')).toEqual({ type: "lead_created", data: { firstName: "A" } });
    expect(parseLiveMessage('{"type":"lead_created"}')).toEqual({ type: "lead_created", data: {} });
    expect(() => parseLiveMessage("not json")).toThrow();
    expect(() => parseLiveMessage('{"data":{}}')).toThrow();
    // Only the types the server sends (src/shared/realtime-messages.ts): anything else is no message of ours.
    expect(() => parseLiveMessage('{"type":"lead_exploded","data":{}}')).toThrow();
    expect(() => parseLiveMessage("null")).toThrow();
    expect(isControlMessage(parseLiveMessage('{"type":"authenticated","data":{"dealershipId":"d"}}'))).toBe(true);
    expect(isControlMessage(parseLiveMessage('{"type":"lead_created","data":{}}'))).toBe(false);
  });
});

describe("what an event refreshes", () => {
  const D = "dealer-1";
  const keys = {
    newLeads: ["/api/dealerships", D, "leads", "type=new"],
    myLeads: ["/api/dealerships", D, "leads", "type=my"],
    metrics: ["/api/dealerships", D, "metrics"],
    lead: ["/api/leads", "lead-1"],
    appointments: ["/api/dealerships", D, "appointments", "date=2026-11-24"],
    agenda: ["/api/dealerships", D, "agenda", "date=2026-11-24", "scope=all"],
    vehicles: ["/api/dealerships", D, "vehicles"],
    drives: ["/api/dealerships", D, "test-drives"],
    notifications: ["/api/dealerships", D, "notifications"],
    count: ["/api/dealerships", D, "notifications", "count"],
    members: ["/api/dealerships", D, "users"],
  } as const;

  function staleAfter(type: ServerMessageType): string[] {
    const client = new QueryClient();
    for (const key of Object.values(keys)) client.setQueryData([...key], { x: 1 });
    refreshFor(client, D, { type, data: {} });
    return Object.entries(keys)
      .filter(([, key]) => client.getQueryState([...key])?.isInvalidated)
      .map(([name]) => name)
      .sort();
  }

  it("a lead event: the leads lists, the metrics, open leads, and the notifications with their count", () => {
    expect(staleAfter("lead_created")).toEqual(["count", "lead", "metrics", "myLeads", "newLeads", "notifications"]);
  });

  it("an appointment event: the appointments (and the metrics they count), the day's agenda, and the notifications", () => {
    expect(staleAfter("appointment_created")).toEqual(["agenda", "appointments", "count", "metrics", "notifications"]);
  });

  it("a test-drive event: the inventory and drives, and the day's agenda, so those screens follow live", () => {
    expect(staleAfter("test_drive_updated")).toEqual(["agenda", "count", "drives", "metrics", "notifications", "vehicles"]);
  });

  it("a merge: the same as a lead event, except the merged-away lead, which is gone", () => {
    const client = new QueryClient();
    const gone = ["/api/leads", "gone-1"];
    for (const key of [...Object.values(keys), gone]) client.setQueryData([...key], { x: 1 });
    refreshFor(client, D, { type: "lead_merged", data: { leadId: "lead-1", mergedLeadId: "gone-1" } });
    expect(client.getQueryState(gone)?.isInvalidated).toBe(false);
    for (const key of [keys.lead, keys.newLeads, keys.myLeads, keys.metrics, keys.count]) expect(client.getQueryState([...key])?.isInvalidated).toBe(true);
    expect(staleAfter("lead_merged")).toEqual(staleAfter("lead_created"));
  });

  it("anything else: only the notifications", () => {
    const unknown = "team_member_removed" as ServerMessageType;
    expect(areaOf(unknown)).toBeNull();
    expect(staleAfter(unknown)).toEqual(["count", "notifications"]);
  });
});

describe("the socket", () => {
  it("waits 3 s before reconnecting, doubling up to 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 20].map(reconnectDelay)).toEqual([3000, 6000, 12000, 24000, 30000, 30000, 30000]);
  });

  it("connects to /ws on this host, secure when the page is", () => {
    expect(socketUrl({ protocol: "http:", host: "localhost:5000" })).toBe("ws://localhost:5000/ws");
    expect(socketUrl({ protocol: "https:", host: "crm.example.com" })).toBe("wss://crm.example.com/ws");
  });
});
