import { describe, expect, it } from "vitest";
import type { DomainEvent, LeadSnapshot } from "../../shared/events";
import { deliveryFor } from "./audience";
import { realtimeMessageOf, withoutClient } from "./messages";

// Who hears a merge on the socket, and what (decision 157), without a socket: the rule and the message are pure.

const lead = (over: Partial<LeadSnapshot> = {}): LeadSnapshot => ({
  id: "kept-1",
  firstName: "Dana",
  lastName: "Twin",
  email: null,
  phone: "9055552001",
  description: null,
  status: "new",
  claimedBy: null,
  ...over,
});

const merge = (kept: Partial<LeadSnapshot>, merged: Partial<LeadSnapshot> = {}): DomainEvent => ({
  type: "lead.merged",
  dealershipId: "d1",
  actorId: "desk-1",
  payload: { lead: lead(kept), merged: lead({ id: "gone-1", firstName: "Danielle", ...merged }), movedAppointments: 0, movedTestDrives: 0 },
});

const rep = (userId: string) => ({ userId, role: "sales" as const });

describe("a merge on the socket", () => {
  it("goes whole to front desk and management, whoever's client the kept lead is", () => {
    for (const role of ["frontDesk", "management"] as const) {
      expect(deliveryFor(merge({ status: "contacted", claimedBy: "rep-b" }), { userId: "x", role })).toBe("whole");
      expect(deliveryFor(merge({}), { userId: "x", role })).toBe("whole");
    }
  });

  it("goes whole to a rep who may open the kept lead: in the pool, or their own client", () => {
    expect(deliveryFor(merge({ status: "new" }), rep("rep-a"))).toBe("whole");
    expect(deliveryFor(merge({ status: "contacted", claimedBy: "rep-a" }), rep("rep-a"))).toBe("whole");
  });

  it("goes nameless to a rep for whom the kept lead is a colleague's client, even when the merged-away lead was theirs", () => {
    expect(deliveryFor(merge({ status: "contacted", claimedBy: "rep-b" }), rep("rep-a"))).toBe("nameless");
    expect(deliveryFor(merge({ status: "claimed", claimedBy: "rep-b" }, { status: "claimed", claimedBy: "rep-a" }), rep("rep-a"))).toBe("nameless");
  });

  it("says which lead was kept and which went into it; the nameless copy names neither the client nor either lead", () => {
    const at = new Date("2026-11-24T15:00:00Z");
    const message = realtimeMessageOf(merge({ status: "contacted", claimedBy: "rep-b" }), at)!;
    expect(message).toEqual({
      type: "lead_merged",
      data: { firstName: "Dana", lastName: "Twin", status: "contacted", title: "", timestamp: at.toISOString(), leadId: "kept-1", mergedLeadId: "gone-1" },
    });
    expect(withoutClient(message)).toEqual({
      type: "lead_merged",
      data: { firstName: "", lastName: "", status: "contacted", title: "", timestamp: at.toISOString() },
    });
  });
});
