import { and, asc, eq, gt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOMAIN_EVENT_VERSIONS, domainEventPayloads, serializeEventPayload, type DomainEventType } from "../../src/shared/events";
import { eventPayloadSql } from "../../src/server/events/outbox";
import { leads } from "../../src/server/db/schema/leads";
import { emailsLog, notifications } from "../../src/server/db/schema/notifications";
import { leadSnapshot } from "../../src/server/leads/queries";
import { makeDealership, makeUser } from "../../src/server/db/factories";
import { makeLead } from "../../src/server/db/factories-leads";
import { makeTestDrive, makeUnit, makeVehicle } from "../../src/server/db/factories-test-drives";
import { domainEvents } from "../../src/server/db/schema/events";
import { createTestApp, signIn, type Agent, type TestApp } from "../helpers/test-app";

// Every change publishes exactly one domain event, in its own transaction (issue 25, decision 184): the changes that
// published none before (lead edits, CSV imports, test-drive edits and deletions, inventory additions and removals)
// and the ones that shared another event's type (an assignment, a return to New Leads). One row per change, with the
// payload its schema describes and its version; none for a refused change.

let t: TestApp;
let dealershipId: string;
let manager: Agent;
let desk: Agent;
let rep: Agent;
let repId: string;
let managerId: string;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db, { name: "Eventful Motors" })).id;
  const boss = await makeUser(t.db, { email: "mia.boss@example.com", firstName: "Mia", lastName: "Boss", memberships: [{ dealershipId, role: "management" }] });
  const frontDesk = await makeUser(t.db, { memberships: [{ dealershipId, role: "frontDesk" }] });
  const sales = await makeUser(t.db, { firstName: "Sam", lastName: "Seller", memberships: [{ dealershipId, role: "sales" }] });
  managerId = boss.id;
  repId = sales.id;
  manager = await signIn(t.app, boss);
  desk = await signIn(t.app, frontDesk);
  rep = await signIn(t.app, sales);
});
afterAll(() => t.close());

async function newestId(): Promise<number> {
  const [row] = await t.db.select({ id: sql<number>`coalesce(max(${domainEvents.id}), 0)::int` }).from(domainEvents);
  return Number(row?.id ?? 0);
}

/**
 * The events this dealership published while `change` ran. The dispatcher is stopped meanwhile: subscribers that
 * publish events of their own (follow-up tasks) would otherwise add theirs to the change's.
 */
async function eventsOf(change: () => Promise<unknown>) {
  await t.app.events.flush();
  await t.app.events.close();
  let rows: Array<typeof domainEvents.$inferSelect>;
  try {
    const after = await newestId();
    await change();
    rows = await t.db
      .select()
      .from(domainEvents)
      .where(and(gt(domainEvents.id, after), eq(domainEvents.dealershipId, dealershipId)))
      .orderBy(asc(domainEvents.id));
  } finally {
    await t.app.events.start();
  }
  for (const row of rows) {
    const type = row.type as DomainEventType;
    expect(domainEventPayloads[type].safeParse(row.payload).success).toBe(true);
    expect(row.version).toBe(DOMAIN_EVENT_VERSIONS[type]);
  }
  return rows;
}

describe("a lead's edits", () => {
  it("an edit of details publishes one lead.updated with each changed field, before and after", async () => {
    const lead = await makeLead(t.db, { dealershipId, firstName: "Ann", lastName: "Edit", email: "ann@example.com", phone: null });
    const events = await eventsOf(async () => {
      const response = await manager.patch(`/api/leads/${lead.id}`, { firstName: "Anne", email: "", phone: "5551234567", lastName: "Edit" });
      expect(response.statusCode).toBe(200);
    });
    expect(events.map((e) => e.type)).toEqual(["lead.updated"]);
    expect(events[0]!.actorId).toBe(managerId);
    expect(events[0]!.payload).toMatchObject({
      lead: { id: lead.id, firstName: "Anne", email: null, phone: "+15551234567" },
      changes: { firstName: { before: "Ann", after: "Anne" }, email: { before: "ann@example.com", after: null }, phone: { before: null, after: "+15551234567" } },
    });
    expect(Object.keys((events[0]!.payload as { changes: object }).changes).sort()).toEqual(["email", "firstName", "phone"]);
  });

  it("an edit that also changes the status publishes one lead.status_changed carrying every changed field", async () => {
    const lead = await makeLead(t.db, { dealershipId, firstName: "Both", lastName: "Ways", claimedBy: repId });
    const events = await eventsOf(async () => {
      expect((await manager.patch(`/api/leads/${lead.id}`, { description: "Wants a wagon", status: "contacted" })).statusCode).toBe(200);
    });
    expect(events.map((e) => e.type)).toEqual(["lead.status_changed"]);
    expect(events[0]!.payload).toMatchObject({
      previousStatus: "claimed",
      changes: { description: { before: null, after: "Wants a wagon" }, status: { before: "claimed", after: "contacted" } },
    });
  });

  it("saving the same values publishes nothing", async () => {
    const lead = await makeLead(t.db, { dealershipId, firstName: "Same", lastName: "Again" });
    const events = await eventsOf(async () => {
      expect((await manager.patch(`/api/leads/${lead.id}`, { firstName: "Same" })).statusCode).toBe(200);
    });
    expect(events).toEqual([]);
  });

  it("a claimed lead set back to new publishes one lead.unclaimed; a refused edit publishes nothing", async () => {
    const lead = await makeLead(t.db, { dealershipId, firstName: "Back", lastName: "Topool", claimedBy: repId });
    const events = await eventsOf(async () => {
      expect((await rep.patch(`/api/leads/${lead.id}/status`, { status: "new" })).statusCode).toBe(200);
    });
    expect(events.map((e) => e.type)).toEqual(["lead.unclaimed"]);
    expect(events[0]!.payload).toMatchObject({ lead: { status: "new", claimedBy: null }, previousStatus: "claimed" });

    const refused = await eventsOf(async () => {
      expect((await manager.patch(`/api/leads/${lead.id}`, { firstName: "" })).statusCode).toBe(400);
      expect((await manager.patch(`/api/leads/missing-lead`, { firstName: "Ghost" })).statusCode).toBe(404);
    });
    expect(refused).toEqual([]);
  });

  it("front desk creating a lead for a rep publishes lead.created then lead.assigned (not lead.claimed)", async () => {
    const events = await eventsOf(async () => {
      expect((await desk.post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Given", lastName: "Away", assignedTo: repId })).statusCode).toBe(201);
    });
    expect(events.map((e) => e.type)).toEqual(["lead.created", "lead.assigned"]);
    expect(events[1]!.payload).toMatchObject({ claimedBy: { id: repId, name: "Sam Seller" }, lead: { claimedBy: repId } });
  });
});

describe("a CSV import", () => {
  it("publishes one leads.imported (file csv) listing its leads, and none when a row is refused", async () => {
    const csv = "First Name,Last Name,Email\nIda,Import,ida@example.com\nIvo,Import,\n";
    const events = await eventsOf(async () => {
      const response = await manager.request({
        method: "POST",
        url: `/api/dealerships/${dealershipId}/leads/import`,
        headers: { "content-type": "text/csv" },
        payload: csv,
      });
      expect(response.statusCode).toBe(201);
    });
    expect(events.map((e) => e.type)).toEqual(["leads.imported"]);
    expect(events[0]!.payload).toMatchObject({
      file: "csv",
      source: "import",
      provider: null,
      total: 2,
      leads: [
        { firstName: "Ida", lastName: "Import", email: "ida@example.com" },
        { firstName: "Ivo", lastName: "Import", email: null },
      ],
    });

    const refused = await eventsOf(async () => {
      const response = await manager.request({
        method: "POST",
        url: `/api/dealerships/${dealershipId}/leads/import`,
        headers: { "content-type": "text/csv" },
        payload: "First Name,Last Name,Email\nBad,Row,not-an-email\n",
      });
      expect(response.statusCode).toBe(400);
    });
    expect(refused).toEqual([]);
  });
});

describe("test drives", () => {
  it("an edit publishes one test_drive.updated with the changed fields; a deletion one test_drive.deleted", async () => {
    const drive = await makeTestDrive(t.db, { dealershipId, createdBy: managerId, vehicleDriven: "2024 Honda Civic", stockNumber: "M-1", notes: null });
    const edited = await eventsOf(async () => {
      expect((await manager.patch(`/api/test-drives/${drive.id}`, { vehicleDriven: "2024 Honda Accord", notes: "Likes it" })).statusCode).toBe(200);
    });
    expect(edited.map((e) => e.type)).toEqual(["test_drive.updated"]);
    expect(edited[0]!.payload).toMatchObject({
      testDrive: { id: drive.id, vehicleDriven: "2024 Honda Accord" },
      changes: { vehicleDriven: { before: "2024 Honda Civic", after: "2024 Honda Accord" }, notes: { before: null, after: "Likes it" } },
    });
    expect(Object.keys((edited[0]!.payload as { changes: object }).changes).sort()).toEqual(["notes", "vehicleDriven"]);

    const unchanged = await eventsOf(async () => {
      expect((await manager.patch(`/api/test-drives/${drive.id}`, { notes: "Likes it" })).statusCode).toBe(200);
    });
    expect(unchanged).toEqual([]);

    const deleted = await eventsOf(async () => {
      expect((await manager.delete(`/api/test-drives/${drive.id}`)).statusCode).toBe(200);
    });
    expect(deleted.map((e) => e.type)).toEqual(["test_drive.deleted"]);
    expect(deleted[0]!.payload).toMatchObject({ testDrive: { id: drive.id } });

    const again = await eventsOf(async () => {
      expect((await manager.delete(`/api/test-drives/${drive.id}`)).statusCode).toBe(404);
    });
    expect(again).toEqual([]);
  });
});

describe("the inventory", () => {
  it("adding and removing a vehicle publish vehicle.added and vehicle.removed; a refused change publishes nothing", async () => {
    let vehicleId = "";
    const added = await eventsOf(async () => {
      const response = await manager.post(`/api/dealerships/${dealershipId}/vehicles`, {
        year: "2025",
        make: "Subaru",
        model: "Outback",
        stockNumber: "EV-100",
        condition: "new",
      });
      expect(response.statusCode).toBe(201);
      vehicleId = (response.json() as { id: string }).id;
    });
    expect(added.map((e) => e.type)).toEqual(["vehicle.added"]);
    expect(added[0]!.payload).toMatchObject({ vehicle: { id: vehicleId, stockNumber: "EV-100", make: "Subaru", model: "Outback", condition: "new" } });

    const refused = await eventsOf(async () => {
      const taken = await manager.post(`/api/dealerships/${dealershipId}/vehicles`, { year: "2025", make: "Subaru", model: "Forester", stockNumber: "EV-100", condition: "new" });
      expect(taken.statusCode).toBe(409);
      expect((await rep.post(`/api/dealerships/${dealershipId}/vehicles`, { year: "2025", make: "Kia", model: "EV6", stockNumber: "EV-101", condition: "new" })).statusCode).toBe(403);
      const out = await makeVehicle(t.db, { dealershipId, testDriveStatus: "out" });
      expect((await manager.delete(`/api/vehicles/${out.id}`)).statusCode).toBe(409);
    });
    expect(refused).toEqual([]);

    const removed = await eventsOf(async () => {
      expect((await manager.delete(`/api/vehicles/${vehicleId}`)).statusCode).toBe(200);
    });
    expect(removed.map((e) => e.type)).toEqual(["vehicle.removed"]);
    expect(removed[0]!.payload).toMatchObject({ vehicle: { id: vehicleId, stockNumber: "EV-100" } });
  });

  it("adding and removing a test-drive unit publish unit.added and unit.removed; a refused change publishes nothing", async () => {
    let unitId = "";
    const added = await eventsOf(async () => {
      const response = await manager.post(`/api/dealerships/${dealershipId}/test-drive-units`, { year: "2025", make: "Demo", model: "Loaner", stockNumber: "TDU-EV1" });
      expect(response.statusCode).toBe(201);
      unitId = (response.json() as { id: string }).id;
    });
    expect(added.map((e) => e.type)).toEqual(["unit.added"]);
    expect(added[0]!.payload).toMatchObject({ unit: { id: unitId, stockNumber: "TDU-EV1", model: "Loaner" } });

    const refused = await eventsOf(async () => {
      expect((await manager.post(`/api/dealerships/${dealershipId}/test-drive-units`, { year: "2025", make: "Demo", model: "Again", stockNumber: "TDU-EV1" })).statusCode).toBe(409);
      const out = await makeUnit(t.db, { dealershipId, status: "out" });
      expect((await manager.delete(`/api/test-drive-units/${out.id}`)).statusCode).toBe(409);
    });
    expect(refused).toEqual([]);

    const removed = await eventsOf(async () => {
      expect((await manager.delete(`/api/test-drive-units/${unitId}`)).statusCode).toBe(200);
    });
    expect(removed.map((e) => e.type)).toEqual(["unit.removed"]);
  });
});

describe("one serializer per event (decision 185)", () => {
  it("the claim's event, built inside its one statement, is exactly what the serializer writes for that lead", async () => {
    const lead = await makeLead(t.db, { dealershipId, firstName: "Sql", lastName: "Shaped", email: "sql@example.com", phone: "+14165550101", description: "Notes" });
    const events = await eventsOf(async () => {
      expect((await rep.post(`/api/leads/${lead.id}/claim`)).statusCode).toBe(200);
    });
    expect(events.map((e) => e.type)).toEqual(["lead.claimed"]);
    const [row] = await t.db.select().from(leads).where(eq(leads.id, lead.id));
    const serialized = JSON.parse(serializeEventPayload("lead.claimed", { lead: leadSnapshot(row!), claimedBy: { id: repId, name: "Sam Seller" } })) as unknown;
    expect(events[0]!.payload).toEqual(serialized);
  });

  it("SQL that adds, misses or misnames a payload field is refused when the statement is built", () => {
    const person = { id: sql`'u'`, name: sql`'n'` };
    const lead = { id: sql`'l'`, firstName: sql`'f'`, lastName: sql`'l'`, email: sql`null`, phone: sql`null`, description: sql`null`, status: sql`'claimed'`, claimedBy: sql`'u'` };
    expect(() => eventPayloadSql("lead.claimed", { lead, claimedBy: person })).not.toThrow();
    expect(() => eventPayloadSql("lead.claimed", { lead: { ...lead, surname: sql`'x'` }, claimedBy: person })).toThrow("lead.claimed.lead: the SQL payload adds surname");
    const { email: _email, ...withoutEmail } = lead;
    expect(() => eventPayloadSql("lead.claimed", { lead: withoutEmail, claimedBy: person })).toThrow("misses email");
  });
});

describe("the new types keep what users see (decisions 184, 186)", () => {
  async function subscribe(agent: Agent, userId: string, trigger: string) {
    const triggers = (await agent.get(`/api/dealerships/${dealershipId}/email-notifications/triggers`)).json() as Array<{ id: string; name: string }>;
    const triggerId = triggers.find((x) => x.name === trigger)!.id;
    const response = await agent.post(`/api/dealerships/${dealershipId}/email-notifications/subscriptions`, { userId, triggerId, isSubscribed: true });
    expect(response.statusCode).toBe(200);
  }
  const mailsTo = async (subject: string) => (await t.db.select().from(emailsLog).where(eq(emailsLog.to, "mia.boss@example.com"))).filter((m) => m.subject.includes(subject));

  beforeAll(async () => {
    await subscribe(manager, managerId, "lead_created");
    await subscribe(manager, managerId, "lead_status_changed");
  });

  it("a lead back to New Leads (lead.unclaimed) still mails and rings 'Lead Updated' as a status change did", async () => {
    const lead = await makeLead(t.db, { dealershipId, firstName: "Return", lastName: "Mailed", claimedBy: repId });
    expect((await rep.patch(`/api/leads/${lead.id}/status`, { status: "new" })).statusCode).toBe(200);
    await t.app.events.flush();
    await t.app.mailer.drain();
    expect((await mailsTo("Lead Status Changed: Return Mailed")).length).toBe(1);
    const rung = await t.db.select().from(notifications).where(and(eq(notifications.userId, managerId), eq(notifications.leadId, lead.id)));
    expect(rung.map((n) => [n.type, n.message])).toEqual([["lead_status_changed", "Lead status changed to New: Return Mailed"]]);
  });

  it("a CSV import mails nobody and rings no bell, as before it published its event (decision 135)", async () => {
    const response = await manager.request({
      method: "POST",
      url: `/api/dealerships/${dealershipId}/leads/import`,
      headers: { "content-type": "text/csv" },
      payload: "First Name,Last Name\nQuiet,Import\nSilent,Import\n",
    });
    expect(response.statusCode).toBe(201);
    await t.app.events.flush();
    await t.app.mailer.drain();
    expect(await mailsTo("new leads")).toEqual([]);
    const rung = await t.db.select().from(notifications).where(sql`${notifications.message} like '%Import%'`);
    expect(rung).toEqual([]);
  });
});
