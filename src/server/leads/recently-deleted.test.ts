import { and, eq, or, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealershipWorld, type DealershipWorld } from "../../../tests/helpers/dealership-world";
import { createTestApp, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { activityEntrySchema } from "../../shared/activity";
import { deletedLeadSchema, restoreResultSchema } from "../../shared/schemas/deleted-leads";
import { makeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { makeTestDrive, makeVehicle } from "../db/factories-test-drives";
import { leadActivity, leadCalls, leadNotes } from "../db/schema/activity";
import { appointments } from "../db/schema/appointments";
import { leadEmails, leadReplyAddresses } from "../db/schema/customer-mail";
import { dealershipUsers } from "../db/schema/dealerships";
import { deletedLeads } from "../db/schema/deleted-leads";
import { domainEvents } from "../db/schema/events";
import { leadDuplicates, leadMerges } from "../db/schema/lead-duplicates";
import { leads } from "../db/schema/leads";
import { tasks } from "../db/schema/tasks";
import { testDrives, vehicles } from "../db/schema/test-drives";
import { vehiclesOfInterest } from "../db/schema/vehicles-of-interest";
import { purgeDeletedLeads, startPurgeDeletedLeadsJob } from "./deleted-archive";

// Recently deleted (issue 30, decision 214): a deleted or merged-away lead comes back with everything it had, once,
// as one event; only management restores; the archive goes after 30 days.

const TZ = "America/Toronto";
let t: TestApp;
let ours: string;
let theirs: string;
let people: DealershipWorld["people"];
let as: DealershipWorld["as"];

beforeAll(async () => {
  t = await createTestApp();
  ({ ours, theirs, people, as } = await makeDealershipWorld(t, { name: "Northside", timezone: TZ }));
});
afterAll(() => t.close());

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

let vinSerial = 0;
/** A VIN-shaped string nobody else in this file uses (the interests are stored as intake normalised them). */
const someVin = () => `KM8JCCD1XSU${String(++vinSerial).padStart(6, "0")}`;

/**
 * A worked client with a bit of everything: claimed, edited, a note, a call, a task, an appointment, a drive, a
 * duplicate, and two vehicles of interest (as ADF intake records them): one in the inventory, one not yet.
 */
async function workedClient(email = `client-${Math.random().toString(36).slice(2)}@example.com`): Promise<string> {
  const created = await as.frontDesk.post(`/api/dealerships/${ours}/leads`, { firstName: "Maximiliano", lastName: "Fernández-Castellanos", email, phone: "514-555-0199" });
  expect(created.statusCode, created.body).toBe(201);
  const id = (created.json() as { id: string }).id;
  expect((await as.sales.post(`/api/leads/${id}/claim`)).statusCode).toBe(200);
  expect((await as.sales.patch(`/api/leads/${id}/status`, { status: "contacted" })).statusCode).toBe(200);
  expect((await as.sales.post(`/api/leads/${id}/notes`, { body: "Wants the 2025 Hyundai Tucson Preferred in blue" })).statusCode).toBe(201);
  expect((await as.sales.post(`/api/leads/${id}/calls`, { outcome: "reached", notes: "Call back Friday" })).statusCode).toBe(201);
  expect((await as.sales.post(`/api/leads/${id}/tasks`, { type: "call", dueAt: `${tomorrow()}T10:00` })).statusCode).toBe(201);
  const mail = await as.sales.post(`/api/leads/${id}/emails`, { subject: "Your Tucson quote", body: "Hello Maximiliano, the quote is attached." });
  expect(mail.statusCode, mail.body).toBe(201);
  await makeAppointment(t.db, { dealershipId: ours, userId: people.sales.id, date: tomorrow(), leadId: id });
  await makeTestDrive(t.db, { dealershipId: ours, leadId: id, takenOutBy: people.sales.id, takenOutAt: new Date(Date.now() - 7_200_000), returnedAt: new Date(Date.now() - 3_600_000) });
  const inStock = await makeVehicle(t.db, { dealershipId: ours, vin: someVin(), make: "Hyundai", model: "Tucson" });
  await t.db.insert(vehiclesOfInterest).values([
    { dealershipId: ours, leadId: id, interest: "buy", vin: inStock.vin, vehicleId: inStock.id },
    { dealershipId: ours, leadId: id, interest: "lease", vin: someVin(), stockNumber: "T-2025-PREF" },
  ]);
  await t.app.events.flush();
  return id;
}

/** Every row the lead has, by kind, as ids (so a restore is compared row for row, not only counted). */
async function holdings(leadId: string) {
  const idsOf = async (rows: Promise<Array<{ id: string | number }>>) => (await rows).map((r) => String(r.id)).sort();
  return {
    lead: (await t.db.select({ id: leads.id }).from(leads).where(eq(leads.id, leadId))).length,
    activity: await idsOf(t.db.select({ id: leadActivity.id }).from(leadActivity).where(eq(leadActivity.leadId, leadId))),
    notes: await idsOf(t.db.select({ id: leadNotes.id }).from(leadNotes).where(eq(leadNotes.leadId, leadId))),
    calls: await idsOf(t.db.select({ id: leadCalls.id }).from(leadCalls).where(eq(leadCalls.leadId, leadId))),
    tasks: await idsOf(t.db.select({ id: tasks.id }).from(tasks).where(eq(tasks.leadId, leadId))),
    emails: await idsOf(t.db.select({ id: leadEmails.id }).from(leadEmails).where(eq(leadEmails.leadId, leadId))),
    replyAddresses: await idsOf(t.db.select({ id: leadReplyAddresses.token }).from(leadReplyAddresses).where(eq(leadReplyAddresses.leadId, leadId))),
    appointments: await idsOf(t.db.select({ id: appointments.id }).from(appointments).where(eq(appointments.leadId, leadId))),
    testDrives: await idsOf(t.db.select({ id: testDrives.id }).from(testDrives).where(eq(testDrives.leadId, leadId))),
    vehiclesOfInterest: (
      await t.db
        .select({ id: vehiclesOfInterest.id, vin: vehiclesOfInterest.vin, stock: vehiclesOfInterest.stockNumber, vehicleId: vehiclesOfInterest.vehicleId })
        .from(vehiclesOfInterest)
        .where(eq(vehiclesOfInterest.leadId, leadId))
    ).sort((a, b) => a.id.localeCompare(b.id)),
    duplicates: (await t.db.select().from(leadDuplicates).where(or(eq(leadDuplicates.leadId, leadId), eq(leadDuplicates.duplicateOfId, leadId)))).length,
  };
}

async function restoredEvents(leadId: string): Promise<number> {
  const rows = await t.db
    .select({ id: domainEvents.id })
    .from(domainEvents)
    .where(and(eq(domainEvents.type, "lead.restored"), sql`${domainEvents.payload}->'lead'->>'id' = ${leadId}`));
  return rows.length;
}

async function deletedList(who: Agent) {
  const response = await who.get(`/api/dealerships/${ours}/deleted-leads`);
  expect(response.statusCode, response.body).toBe(200);
  return deletedLeadSchema.array().parse(response.json());
}

describe("deleting and restoring a lead", () => {
  it("brings back the lead with its appointments, test drives, notes, calls, tasks, timeline and duplicate link", async () => {
    const email = `twice-${Math.random().toString(36).slice(2)}@example.com`;
    const id = await workedClient(email);
    const twin = await workedClient(email); // linked as a possible duplicate of the first
    const before = await holdings(id);
    expect(before).toMatchObject({ lead: 1, notes: [expect.any(String)], calls: [expect.any(String)], emails: [expect.any(String)], replyAddresses: [expect.any(String)], duplicates: 1 });
    expect(before.tasks.length).toBeGreaterThanOrEqual(1);
    expect(before.appointments).toHaveLength(1);
    expect(before.testDrives).toHaveLength(1);
    expect(before.activity.length).toBeGreaterThanOrEqual(5);
    expect(before.vehiclesOfInterest).toHaveLength(2);

    // The spec's delete, by the rep whose client it is: the answer is the spec's.
    const deleted = await as.sales.delete(`/api/leads/${id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ message: "Lead deleted successfully" });
    expect(await holdings(id)).toEqual({ lead: 0, activity: [], notes: [], calls: [], tasks: [], emails: [], replyAddresses: [], appointments: [], testDrives: [], vehiclesOfInterest: [], duplicates: 0 });
    // Gone for every screen: the lead, the lists, search.
    expect((await as.management.get(`/api/leads/${id}`)).statusCode).toBe(404);
    const list = await as.management.get(`/api/dealerships/${ours}/leads?q=${encodeURIComponent(email)}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(JSON.stringify(list.json())).not.toContain(id);

    const listed = (await deletedList(as.management)).find((l) => l.id === id);
    expect(listed).toMatchObject({ firstName: "Maximiliano", lastName: "Fernández-Castellanos", status: "contacted", mergedInto: null, deletedBy: { id: people.sales.id } });
    expect(Date.parse(listed!.restorableUntil) - Date.parse(listed!.deletedAt)).toBe(30 * 86_400_000);

    const restored = await as.management.post(`/api/leads/${id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    const result = restoreResultSchema.parse(restored.json());
    expect(result.lead).toMatchObject({ id, status: "contacted", claimedBy: people.sales.id, email });
    expect(result.restored).toEqual({ appointments: 1, testDrives: 1, tasks: before.tasks.length, notes: 1, calls: 1, emails: 1, entries: before.activity.length });
    await t.app.events.flush();

    const after = await holdings(id);
    // Everything it had, row for row, and one entry more: the restore's own.
    expect({ ...after, activity: after.activity.filter((a) => before.activity.includes(a)) }).toEqual(before);
    expect(after.activity).toHaveLength(before.activity.length + 1);
    expect(await restoredEvents(id)).toBe(1);
    const timeline = activityEntrySchema.array().parse((await as.sales.get(`/api/leads/${id}/activity`)).json());
    expect(timeline[0]).toMatchObject({ type: "lead.restored", actor: { id: people.management.id }, summary: "Restored from Recently deleted" });
    // The rep has their client back; the twin is still its possible duplicate; it left the list.
    expect((await as.sales.get(`/api/leads/${id}`)).statusCode).toBe(200);
    expect((await as.frontDesk.get(`/api/leads/${twin}/duplicates`)).json()).toEqual([expect.objectContaining({ id })]);
    expect((await deletedList(as.management)).some((l) => l.id === id)).toBe(false);
    // Restored once: a second restore finds nothing.
    expect((await as.management.post(`/api/leads/${id}/restore`)).statusCode).toBe(404);
  });

  it("is for management only: sales and front desk 403, another dealership and unknown ids 404", async () => {
    const id = await workedClient();
    expect((await as.management.delete(`/api/leads/${id}`)).statusCode).toBe(200);
    for (const who of [as.sales, as.frontDesk]) {
      const refused = await who.post(`/api/leads/${id}/restore`);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toEqual({ message: "Only management can see and restore deleted leads" });
      expect((await who.get(`/api/dealerships/${ours}/deleted-leads`)).statusCode).toBe(403);
    }
    expect((await as.outsider.post(`/api/leads/${id}/restore`)).statusCode).toBe(404);
    expect((await as.outsider.get(`/api/dealerships/${ours}/deleted-leads`)).statusCode).toBe(403);
    // The outsider's own list does not have it either.
    expect(JSON.stringify((await as.outsider.get(`/api/dealerships/${theirs}/deleted-leads`)).json())).not.toContain(id);
    expect((await as.management.post(`/api/leads/${"x".repeat(21)}/restore`)).statusCode).toBe(404);
    expect((await as.management.post(`/api/leads/${id}/restore`)).statusCode).toBe(200);
    expect(await restoredEvents(id)).toBe(1);
  });

  it("brings back a vehicle of interest whose inventory vehicle was removed meanwhile, unlinked, with its VIN", async () => {
    const id = await workedClient();
    const [linked] = (await holdings(id)).vehiclesOfInterest.filter((v) => v.vehicleId);
    expect((await as.management.delete(`/api/leads/${id}`)).statusCode).toBe(200);
    await t.db.delete(vehicles).where(eq(vehicles.id, linked!.vehicleId!));
    const restored = await as.management.post(`/api/leads/${id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await holdings(id)).vehiclesOfInterest).toContainEqual({ ...linked, vehicleId: null });
  });

  it("gives a rep who has left no client back: the lead returns to New Leads", async () => {
    const leaver = await makeUser(t.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
    const created = await as.frontDesk.post(`/api/dealerships/${ours}/leads`, { firstName: "Ana", lastName: "Ng", assignedTo: leaver.id });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    expect((await as.frontDesk.patch(`/api/leads/${id}/status`, { status: "qualified" })).statusCode).toBe(200);
    expect((await as.management.delete(`/api/leads/${id}`)).statusCode).toBe(200);
    await t.db.update(dealershipUsers).set({ active: false }).where(eq(dealershipUsers.userId, leaver.id));
    const restored = restoreResultSchema.parse((await as.management.post(`/api/leads/${id}/restore`)).json());
    expect(restored.lead).toMatchObject({ status: "new", claimedBy: null, claimedAt: null });
  });
});

describe("restoring a merged-away lead", () => {
  it("comes back as its own lead with its own appointments, notes, tasks and timeline; the kept lead keeps its own", async () => {
    const email = `merge-${Math.random().toString(36).slice(2)}@example.com`;
    const kept = await workedClient(email);
    const merged = await workedClient(email);
    const keptBefore = await holdings(kept);
    const mergedBefore = await holdings(merged);
    const merge = await as.frontDesk.post(`/api/leads/${kept}/merge`, { mergeLeadId: merged, choices: {} });
    expect(merge.statusCode, merge.body).toBe(200);
    await t.app.events.flush();
    expect((await holdings(kept)).notes).toHaveLength(2);
    expect((await holdings(kept)).vehiclesOfInterest).toHaveLength(4);

    const listed = (await deletedList(as.management)).find((l) => l.id === merged);
    expect(listed).toMatchObject({ mergedInto: { id: kept, firstName: "Maximiliano" }, deletedBy: { id: people.frontDesk.id } });

    const restored = await as.management.post(`/api/leads/${merged}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    await t.app.events.flush();
    const back = await holdings(merged);
    expect({ ...back, activity: back.activity.filter((a) => mergedBefore.activity.includes(a)) }).toEqual(mergedBefore);
    const keptNow = await holdings(kept);
    // The kept lead: what it had, plus the merge's own entry (and its edit, if any), none of the other lead's.
    expect({ ...keptNow, activity: keptNow.activity.filter((a) => keptBefore.activity.includes(a)) }).toEqual(keptBefore);
    expect(keptNow.activity.some((a) => mergedBefore.activity.includes(a))).toBe(false);
    const entries = await t.db.select({ mergedFrom: leadActivity.mergedFrom }).from(leadActivity).where(eq(leadActivity.leadId, merged));
    expect(entries.every((e) => e.mergedFrom === null)).toBe(true);
    // The record of the merge goes (so the two can be merged again); the restore's entry tells it.
    expect(await t.db.select().from(leadMerges).where(eq(leadMerges.mergedLeadId, merged))).toEqual([]);
    const timeline = activityEntrySchema.array().parse((await as.management.get(`/api/leads/${merged}/activity`)).json());
    expect(timeline[0]).toMatchObject({ type: "lead.restored", summary: "Restored: taken back out of Maximiliano Fernández-Castellanos" });
    const again = await as.frontDesk.post(`/api/leads/${kept}/merge`, { mergeLeadId: merged, choices: {} });
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe("after 30 days", () => {
  it("a deleted lead is no longer listed nor restorable, and the purge drops it (not a younger one)", async () => {
    const old = await workedClient();
    const young = await workedClient();
    for (const id of [old, young]) expect((await as.management.delete(`/api/leads/${id}`)).statusCode).toBe(200);
    await t.db.update(deletedLeads).set({ deletedAt: sql`now() - interval '30 days 1 minute'` }).where(eq(deletedLeads.leadId, old));
    await t.db.update(deletedLeads).set({ deletedAt: sql`now() - interval '29 days 23 hours'` }).where(eq(deletedLeads.leadId, young));
    const listed = (await deletedList(as.management)).map((l) => l.id);
    expect(listed).toContain(young);
    expect(listed).not.toContain(old);
    expect((await as.management.post(`/api/leads/${old}/restore`)).statusCode).toBe(404);

    expect(await purgeDeletedLeads(t.db)).toBe(1);
    expect(await t.db.select({ id: deletedLeads.leadId }).from(deletedLeads).where(eq(deletedLeads.leadId, old))).toEqual([]);
    expect((await as.management.post(`/api/leads/${young}/restore`)).statusCode).toBe(200);
  });

  it("the purge is a pg-boss schedule kept in the database, and its job purges", async () => {
    const id = await workedClient();
    expect((await as.management.delete(`/api/leads/${id}`)).statusCode).toBe(200);
    await t.db.update(deletedLeads).set({ deletedAt: sql`now() - interval '31 days'` }).where(eq(deletedLeads.leadId, id));
    const job = await startPurgeDeletedLeadsJob(t.database, pino({ level: "silent" }), { pollingIntervalSeconds: 0.5 });
    try {
      expect((await job.schedules()).map((s) => s.cron)).toEqual(["41 * * * *"]);
      await job.purgeNow();
      for (let i = 0; i < 100; i++) {
        if ((await t.db.select().from(deletedLeads).where(eq(deletedLeads.leadId, id))).length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await t.db.select().from(deletedLeads).where(eq(deletedLeads.leadId, id))).toEqual([]);
    } finally {
      await job.stop(0);
    }
  });
});
