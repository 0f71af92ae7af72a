import { readFileSync } from "node:fs";
import { and, desc, eq, sql as drizzleSql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealershipWorld, type DealershipWorld } from "../../../tests/helpers/dealership-world";
import { createTestApp, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { parseDomainEvent, type DomainEvent } from "../../shared/events";
import { activityEntrySchema, EVENT_ACTIVITY, noteSchema, type ActivityEntry } from "../../shared/activity";
import { makeLead } from "../db/factories-leads";
import { leadActivity } from "../db/schema/activity";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { notifications } from "../db/schema/notifications";
import { planNotification } from "../notifications/notification-plan";
import { deliveryFor } from "../realtime/audience";
import { realtimeMessageOf } from "../realtime/messages";

// A lead's story over HTTP (issue 26, decision 218): every change's entry lands once on its own lead, in the change's
// transaction; notes and calls; visibility by role and dealership; mentions; hostile input.

const TZ = "America/Toronto";
let t: TestApp;
let ours: string;
let people: DealershipWorld["people"];
let as: DealershipWorld["as"];

async function timeline(who: Agent, leadId: string, query = ""): Promise<ActivityEntry[]> {
  const response = await who.get(`/api/leads/${leadId}/activity${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return activityEntrySchema.array().parse(response.json());
}

const typesOf = (entries: ActivityEntry[]) => entries.map((e) => e.type).reverse();

async function note(who: Agent, leadId: string, body: Record<string, unknown>) {
  const response = await who.post(`/api/leads/${leadId}/notes`, body);
  expect(response.statusCode, response.body).toBe(201);
  return noteSchema.parse(response.json());
}

async function newLead(who: Agent, body: Record<string, unknown> = {}): Promise<string> {
  const response = await who.post(`/api/dealerships/${ours}/leads`, { firstName: "Maximiliano", lastName: "Fernández-Castellanos", email: `c${Math.random()}@example.com`, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

beforeAll(async () => {
  t = await createTestApp();
  ({ ours, people, as } = await makeDealershipWorld(t, { name: "Northside", timezone: TZ }));
});
afterAll(() => t.close());

describe("the activity of a lead", () => {
  it("gets one entry per change, on its own lead, newest first, with the actor", async () => {
    const lead = await newLead(as.frontDesk);
    const other = await newLead(as.frontDesk);
    expect((await as.sales.post(`/api/leads/${lead}/claim`)).statusCode).toBe(200);
    expect((await as.sales.patch(`/api/leads/${lead}`, { description: "Wants a red wagon" })).statusCode).toBe(200);
    expect((await as.sales.patch(`/api/leads/${lead}/status`, { status: "contacted" })).statusCode).toBe(200);
    const added = await note(as.sales, lead, { body: "Called twice.\nPrefers e-mail." });
    expect((await as.sales.patch(`/api/notes/${added.id}`, { body: "Prefers e-mail." })).statusCode).toBe(200);
    expect((await as.sales.delete(`/api/notes/${added.id}`)).statusCode).toBe(200);
    expect((await as.sales.post(`/api/leads/${lead}/calls`, { outcome: "voicemail", notes: "Left a message" })).statusCode).toBe(201);
    const nextWeek = new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10);
    const appointment = await as.sales.post(`/api/dealerships/${ours}/appointments`, {
      title: "Walkaround", firstName: "Maximiliano", lastName: "Fernández-Castellanos", email: "m@example.com", phone: "416-555-0142", date: nextWeek, time: "10:30", leadId: lead,
    });
    expect(appointment.statusCode, appointment.body).toBe(201);
    expect((await as.sales.patch(`/api/appointments/${appointment.json().id}/status`, { status: "completed" })).statusCode).toBe(200);
    const booking = await as.sales.post("/api/test-drives", {
      dealershipId: ours, clientType: "existing", leadId: lead, vehicleType: "manual", vehicleDriven: "2024 Subaru Outback Wilderness", stockNumber: "S-1", status: "scheduled", testDriveDate: nextWeek, testDriveTime: "11:00",
    });
    expect(booking.statusCode, booking.body).toBe(201);
    expect((await as.sales.patch(`/api/test-drives/${booking.json().id}/status`, { status: "cancelled" })).statusCode).toBe(200);
    const out = await as.sales.post("/api/test-drives", { dealershipId: ours, clientType: "existing", leadId: lead, vehicleType: "manual", vehicleDriven: "2023 Mazda CX-5", stockNumber: "M-2" });
    expect(out.statusCode, out.body).toBe(201);
    expect((await as.sales.patch(`/api/test-drives/${out.json().id}/status`, { status: "completed" })).statusCode).toBe(200);

    const entries = await timeline(as.sales, lead);
    expect(typesOf(entries)).toEqual([
      "lead.created",
      "lead.claimed",
      "lead.updated",
      "lead.status_changed",
      "note.added",
      "note.edited",
      "note.deleted",
      "call.logged",
      "appointment.scheduled",
      "appointment.status_changed",
      "test_drive.booked",
      "test_drive.status_changed",
      "test_drive.out",
      expect.stringMatching(/^test_drive\.(returned|status_changed)$/),
      ...(entries.length === 15 ? [expect.stringMatching(/^test_drive\.(returned|status_changed)$/)] : []),
    ]);
    expect(entries.at(-1)!.actor).toEqual({ id: people.frontDesk.id, firstName: "Fran", lastName: "Desk" });
    expect(entries.find((e) => e.type === "lead.claimed")!.actor?.id).toBe(people.sales.id);
    expect(entries.find((e) => e.type === "lead.status_changed")!.data).toMatchObject({ from: "claimed", to: "contacted" });
    expect(entries.find((e) => e.type === "lead.updated")!.data).toEqual({ changes: { description: { before: null, after: "Wants a red wagon" } } });
    expect(entries.find((e) => e.type === "lead.created")!.data).toMatchObject({ source: "walk-in" });
    // The other lead has only its own creation.
    expect(typesOf(await timeline(as.frontDesk, other))).toEqual(["lead.created"]);
    // Every event about a lead is on the timeline exactly once.
    const events = await t.db.select({ id: domainEvents.id, type: domainEvents.type }).from(domainEvents);
    const rows = await t.db.select({ eventId: leadActivity.eventId, leadId: leadActivity.leadId }).from(leadActivity);
    for (const event of events.filter((e) => e.type in EVENT_ACTIVITY)) {
      expect(rows.filter((r) => r.eventId === event.id), event.type).toHaveLength(1);
    }
  });

  it("shows an edit's before and after, and a note's text with its line breaks", async () => {
    const lead = await newLead(as.management);
    const added = await note(as.management, lead, { body: "First line\r\nSecond line" });
    expect(added.body).toBe("First line\nSecond line");
    await as.management.patch(`/api/notes/${added.id}`, { body: "Changed" });
    const [edited, first] = await timeline(as.management, lead);
    expect(edited).toMatchObject({ type: "note.edited", data: { noteId: added.id, body: "Changed", previousBody: "First line\nSecond line" } });
    expect(first).toMatchObject({ type: "note.added", data: { body: "First line\nSecond line" } });
  });

  it("pages newest first with a Link header and filters", async () => {
    const lead = await newLead(as.management);
    for (let i = 0; i < 5; i++) await note(as.management, lead, { body: `Note ${i}` });
    await as.management.post(`/api/leads/${lead}/calls`, { outcome: "reached" });
    const first = await as.management.get(`/api/leads/${lead}/activity?limit=4`);
    const link = first.headers.link as string;
    expect(link).toMatch(/^<\/api\/leads\/.+\/activity\?cursor=.+>; rel="next"$/);
    const second = await as.management.get(link.slice(1, link.indexOf(">")));
    const all = [...first.json(), ...second.json()] as ActivityEntry[];
    expect(second.headers.link).toBeUndefined();
    expect(all.map((e) => e.summary)).toEqual(["Call: Reached", "Added a note", "Added a note", "Added a note", "Added a note", "Added a note", expect.stringMatching(/^Lead created/)]);
    expect(typesOf(await timeline(as.management, lead, "?filter=calls"))).toEqual(["call.logged"]);
    expect(await timeline(as.management, lead, "?filter=notes")).toHaveLength(5);
    expect((await as.management.get(`/api/leads/${lead}/activity?cursor=bm90IGEgY3Vyc29y`)).json()).toMatchObject({ fields: { cursor: expect.any(String) } });
    expect((await as.management.get(`/api/leads/${lead}/activity?filter=everything`)).statusCode).toBe(400);
    for (const query of ["limit=abc", "limit=0", "limit=101", "limit=1e3"]) {
      const response = await as.management.get(`/api/leads/${lead}/activity?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().fields, query).toHaveProperty("limit");
    }
    const forged = Buffer.from(JSON.stringify(["not a date", "1"])).toString("base64url");
    expect((await as.management.get(`/api/leads/${lead}/activity?cursor=${forged}`)).json()).toMatchObject({ fields: { cursor: expect.any(String) } });
    // An id that names nothing is not found; a NUL is refused by the input guard before any route (decision 037).
    for (const [id, status] of [["x".repeat(80), 404], ["..%2F..%2Fetc", 404], ["%00", 400]] as const) {
      expect((await as.management.get(`/api/leads/${id}/activity`)).statusCode, id).toBe(status);
      expect((await as.management.post(`/api/leads/${id}/notes`, { body: "Hi" })).statusCode, id).toBe(status);
      expect((await as.management.patch(`/api/notes/${id}`, { body: "Hi" })).statusCode, id).toBe(status);
    }
  });

  it("is read by whoever may open the lead, and is not found for anyone else", async () => {
    const pool = (await makeLead(t.db, { dealershipId: ours })).id;
    const colleagues = (await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales2.id })).id;
    const codes = async (leadId: string) =>
      Object.fromEntries(await Promise.all(Object.entries(as).map(async ([who, agent]) => [who, (await agent.get(`/api/leads/${leadId}/activity`)).statusCode])));
    expect(await codes(pool)).toEqual({ sales: 200, sales2: 200, frontDesk: 200, management: 200, outsider: 404 });
    expect(await codes(colleagues)).toEqual({ sales: 404, sales2: 200, frontDesk: 200, management: 200, outsider: 404 });
    for (const [who, expected] of [["sales", 404], ["outsider", 404], ["sales2", 201]] as const) {
      expect((await as[who].post(`/api/leads/${colleagues}/notes`, { body: "Hi" })).statusCode, who).toBe(expected);
      expect((await as[who].post(`/api/leads/${colleagues}/calls`, { outcome: "reached" })).statusCode, who).toBe(expected);
    }
  });

  it("carries both histories after a merge, the merged-away lead's entries saying so", async () => {
    const kept = await newLead(as.frontDesk, { firstName: "Anneliese" });
    const merged = await newLead(as.frontDesk, { firstName: "Annelise" });
    await note(as.frontDesk, kept, { body: "Kept's note" });
    await note(as.frontDesk, merged, { body: "Merged's note" });
    const response = await as.frontDesk.post(`/api/leads/${kept}/merge`, { mergeLeadId: merged, choices: {} });
    expect(response.statusCode, response.body).toBe(200);
    const entries = await timeline(as.frontDesk, kept);
    expect(typesOf(entries)).toEqual(["lead.created", "lead.created", "note.added", "note.added", "lead.merged"]);
    const moved = entries.filter((e) => (e.data as { mergedFrom?: { id: string } }).mergedFrom?.id === merged);
    expect(moved.map((e) => e.type).sort()).toEqual(["lead.created", "note.added"]);
    expect(moved.find((e) => e.type === "note.added")!.summary).toContain("from Annelise Fernández-Castellanos, merged");
    expect(entries[0]).toMatchObject({ type: "lead.merged", data: { merged: { id: merged, firstName: "Annelise" } } });
  });

  it("gives a CSV import's leads each their lead.imported entry", async () => {
    const csv = "first name,last name,email\nAda,Lovelace,ada@example.com\nGrace,Hopper,grace@example.com\n";
    const response = await as.management.request({ method: "POST", url: `/api/dealerships/${ours}/leads/import`, payload: csv, headers: { "content-type": "text/csv" } });
    expect(response.statusCode, response.body).toBeLessThan(300);
    const [ada] = await t.db.select({ id: leads.id }).from(leads).where(and(eq(leads.email, "ada@example.com"), eq(leads.dealershipId, ours)));
    expect(typesOf(await timeline(as.management, ada!.id))).toEqual(["lead.imported"]);
  });
});

describe("notes", () => {
  it("lets authors edit and delete their own; management may delete any", async () => {
    const lead = await newLead(as.frontDesk);
    const mine = await note(as.frontDesk, lead, { body: "Desk's note" });
    expect(mine.author).toEqual({ id: people.frontDesk.id, firstName: "Fran", lastName: "Desk" });
    expect((await as.management.patch(`/api/notes/${mine.id}`, { body: "No" })).statusCode).toBe(403);
    expect((await as.sales.delete(`/api/notes/${mine.id}`)).statusCode).toBe(403);
    expect((await as.outsider.delete(`/api/notes/${mine.id}`)).statusCode).toBe(404);
    expect((await as.management.delete(`/api/notes/${mine.id}`)).json()).toEqual({ id: mine.id });
    expect((await as.management.delete(`/api/notes/${mine.id}`)).statusCode).toBe(404);
    expect((await as.frontDesk.patch(`/api/notes/nope`, { body: "x" })).statusCode).toBe(404);
  });

  it("notifies a mentioned member once, and refuses someone outside the dealership", async () => {
    const lead = await newLead(as.frontDesk);
    const mentioned = await note(as.frontDesk, lead, { body: "@Morgan Manager please call back", mentions: [people.management.id, people.management.id] });
    expect(mentioned.mentions).toEqual([{ id: people.management.id, firstName: "Morgan", lastName: "Manager" }]);
    await t.app.events.flush();
    await t.app.events.flush();
    const bell = await t.db.select().from(notifications).where(and(eq(notifications.type, "note_mention"), eq(notifications.userId, people.management.id)));
    expect(bell).toHaveLength(1);
    expect(bell[0]!.message).toContain("please call back");
    // Push follows the same plan as the bell (push-on-event.ts): the one member, once.
    const [event] = await t.db.select().from(domainEvents).where(eq(domainEvents.type, "note.added")).orderBy(desc(domainEvents.id)).limit(1);
    const plan = await planNotification(t.db, parseDomainEvent(event!));
    expect(plan?.recipientIds).toEqual([people.management.id]);
    const refused = await as.frontDesk.post(`/api/leads/${lead}/notes`, { body: "Hi", mentions: [people.outsider.id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ fields: { mentions: expect.any(String) } });
  });

  it("keeps every one of many notes written at once on one lead", async () => {
    const lead = await newLead(as.management);
    const writers = [as.management, as.frontDesk, as.sales, as.sales2];
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => writers[i % 4]!.post(`/api/leads/${lead}/notes`, { body: `Note ${i}` })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(201));
    expect(await timeline(as.management, lead, "?filter=notes&limit=50")).toHaveLength(12);
  });

  it("answers 400 naming the field for hostile input, and saves nothing", async () => {
    const lead = await newLead(as.management);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "body"],
      [{ body: "" }, "body"],
      [{ body: "   \n " }, "body"],
      [{ body: "x".repeat(5001) }, "body"],
      [{ body: "nul \u0000 byte" }, "body"],
      [{ body: "bell \u0007" }, "body"],
      [{ body: 42 }, "body"],
      [{ body: ["a"] }, "body"],
      [{ body: "ok", mentions: "everyone" }, "mentions"],
      [{ body: "ok", mentions: [""] }, "mentions.0"],
      [{ body: "ok", mentions: ["x".repeat(65)] }, "mentions.0"],
      [{ body: "ok", mentions: ["'; drop table leads; --"] }, "mentions"],
      [{ body: "ok", extra: 1 }, "body"],
    ];
    for (const [body, field] of cases) {
      const response = await as.management.post(`/api/leads/${lead}/notes`, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      const fields = response.json().fields ?? {};
      expect(Object.keys(fields).join(",") + " " + response.json().message, JSON.stringify(body).slice(0, 60)).toMatch(field === "body" && "extra" in body ? /./ : new RegExp(field.replace(".", "\\.")));
    }
    expect((await as.management.post(`/api/leads/${lead}/notes`, { body: "x".repeat(5000) })).statusCode).toBe(201);
    const added = await note(as.management, lead, { body: "<script>alert(1)</script> 🚗 ½" });
    expect(added.body).toBe("<script>alert(1)</script> 🚗 ½");
    expect((await as.management.patch(`/api/notes/${added.id}`, { body: "" })).json()).toMatchObject({ fields: { body: expect.any(String) } });
    for (const body of [{}, { outcome: "hung_up" }, { outcome: "reached", notes: "\u0000" }, { outcome: "reached", notes: "x".repeat(2001) }, { outcome: ["reached"] }]) {
      const response = await as.management.post(`/api/leads/${lead}/calls`, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(Object.keys(response.json().fields ?? {})[0]).toMatch(/^(outcome|notes)$/);
    }
    expect(typesOf(await timeline(as.management, lead))).toEqual(["lead.created", "note.added", "note.added"]);
  });
});

describe("calls", () => {
  it("logs the outcome and counts as the first answer for speed to lead", async () => {
    const lead = await newLead(as.frontDesk);
    const response = await as.sales.post(`/api/leads/${lead}/calls`, { outcome: "no_answer", notes: "Rang 6 times" });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ outcome: "no_answer", notes: "Rang 6 times" });
    const [row] = await t.db.select().from(leads).where(eq(leads.id, lead));
    expect(row).toMatchObject({ firstResponseKind: "call", firstResponseBy: people.sales.id });
    const [entry] = await timeline(as.sales, lead);
    expect(entry).toMatchObject({ type: "call.logged", summary: "Call: No answer", data: { outcome: "no_answer", notes: "Rang 6 times" }, actor: { id: people.sales.id } });
    await as.management.post(`/api/leads/${lead}/calls`, { outcome: "reached" });
    const [again] = await t.db.select().from(leads).where(eq(leads.id, lead));
    expect(again!.firstResponseBy).toBe(people.sales.id);
  });
});

describe("a note or call on the socket", () => {
  const lead = { id: "l1", firstName: "Dana", lastName: "Twin", email: null, phone: null, description: null, status: "claimed" as const, claimedBy: "rep-1" };
  const event: DomainEvent = { type: "note.added", dealershipId: "d1", actorId: "desk-1", payload: { lead, note: { id: "n1", body: "Hi", authorId: "desk-1", mentions: [] } } };

  it("reaches whoever may open the lead, with the lead's id, and nobody else", () => {
    expect(deliveryFor(event, { userId: "rep-1", role: "sales" })).toBe("whole");
    expect(deliveryFor(event, { userId: "desk-2", role: "frontDesk" })).toBe("whole");
    expect(deliveryFor(event, { userId: "rep-2", role: "sales" })).toBe("none");
    const call: DomainEvent = { type: "call.logged", dealershipId: "d1", actorId: "rep-1", payload: { lead: { ...lead, status: "new", claimedBy: null }, call: { id: "c1", outcome: "reached", notes: null } } };
    expect(deliveryFor(call, { userId: "rep-2", role: "sales" })).toBe("whole");
    expect(realtimeMessageOf(event, new Date("2026-01-01T00:00:00Z"))).toMatchObject({ type: "lead_activity", data: { leadId: "l1", title: "note.added" } });
  });
});

describe("the migration's backfill", () => {
  it("gives a lead that had no story its lead.created entry at its creation time", async () => {
    // A lead made straight in the table, as every lead before migration 0024 was: no entry yet.
    const old = await makeLead(t.db, { dealershipId: ours, firstName: "Olga", lastName: "Before" });
    expect(await timeline(as.management, old.id)).toEqual([]);
    const sql = readFileSync(new URL("../../../drizzle/0024_lead-activity.sql", import.meta.url), "utf8");
    const backfill = sql.slice(sql.indexOf("INSERT INTO \"lead_activity\""));
    await t.db.execute(drizzleSql.raw(backfill.replace(/FROM "leads";\s*$/, `FROM "leads" WHERE "id" = '${old.id}';`)));
    const [entry] = await timeline(as.management, old.id);
    expect(entry).toMatchObject({ type: "lead.created", at: old.createdAt.toISOString(), actor: null, data: { source: "walk-in" } });
  });
});
