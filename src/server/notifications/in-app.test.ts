import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { rowsOf } from "../db/client";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { makeVehicle } from "../db/factories-test-drives";
import { notifications } from "../db/schema/notifications";
import { localToday, addDays } from "../../shared/dealership-clock";
import { DEFAULT_TIMEZONE } from "../../shared/constants";
import { notificationSchema, type Notification } from "../../shared/schemas/responses/notifications";
import { notifyInAppAll, pruneOldNotifications } from "./in-app";
import { planNotifications } from "./notification-plan";
import { domainEvents } from "../db/schema/events";
import { parseDomainEvent } from "../../shared/events";
import { NOTIFICATION_LIST_LIMIT } from "./in-app-queries";

// The header bell (spec part 2 §2, §3, §7; decisions 100-103): notifications written from the domain events, one per
// recipient, and the four routes that read and mark them. Events are dispatched with `app.events.flush()`.

type Person = MadeUser & { agent: Agent };
type Role = "sales" | "frontDesk" | "management";

let t: TestApp;
let north: string;
let south: string;
let boss: Person;
let boss2: Person;
let desk: Person;
let rep: Person;
let rep2: Person;
/** Management in the south, sales in the north: one person, two bells. */
let both: Person;
let tomorrow: string;

async function person(firstName: string, memberships: Array<{ dealershipId: string; role: Role }>): Promise<Person> {
  const user = await makeUser(t.db, { firstName, lastName: "Staff", memberships });
  return { ...user, agent: await signIn(t.app, user) };
}

beforeAll(async () => {
  t = await createTestApp();
  north = (await makeDealership(t.db, { name: "North Motors" })).id;
  south = (await makeDealership(t.db, { name: "South Motors" })).id;
  boss = await person("Maggie", [{ dealershipId: north, role: "management" }]);
  boss2 = await person("Morgan", [{ dealershipId: north, role: "management" }]);
  desk = await person("Fran", [{ dealershipId: north, role: "frontDesk" }]);
  rep = await person("Sally", [{ dealershipId: north, role: "sales" }]);
  rep2 = await person("Sam", [{ dealershipId: north, role: "sales" }]);
  both = await person("Bo", [
    { dealershipId: south, role: "management" },
    { dealershipId: north, role: "sales" },
  ]);
  tomorrow = addDays(localToday(DEFAULT_TIMEZONE, new Date()), 1);
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.app.events.flush();
  await t.db.delete(notifications);
});

/** Dispatches what is pending and answers who got a notification of this type (user ids, sorted). */
async function recipientsOf(type: Notification["type"]): Promise<string[]> {
  await t.app.events.flush();
  const rows = await t.db.select({ userId: notifications.userId }).from(notifications).where(eq(notifications.type, type));
  return rows.map((r) => r.userId).sort();
}

const ids = (...people: Person[]) => people.map((p) => p.id).sort();

async function createLead(who: Person, body: Record<string, unknown> = {}, dealershipId = north): Promise<{ id: string }> {
  const response = await who.agent.post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Jane", lastName: "Doe", phone: "416-555-0100", ...body });
  expect(response.statusCode).toBe(201);
  return response.json();
}

async function bell(who: Person, dealershipId = north): Promise<Notification[]> {
  const response = await who.agent.get(`/api/dealerships/${dealershipId}/notifications`);
  expect(response.statusCode).toBe(200);
  return response.json<Notification[]>().map((n) => notificationSchema.parse(n));
}

async function badge(who: Person, dealershipId = north): Promise<number> {
  const response = await who.agent.get(`/api/dealerships/${dealershipId}/notifications/count`);
  expect(response.statusCode).toBe(200);
  return response.json<{ count: number }>().count;
}

describe("who is told about a lead", () => {
  it("a new unclaimed lead: everyone who works New Leads, but not whoever added it", async () => {
    const lead = await createLead(desk);
    expect(await recipientsOf("lead_created")).toEqual(ids(boss, boss2, rep, rep2, both));
    const [item] = await bell(rep);
    expect(item).toMatchObject({
      type: "lead_created",
      title: "New Lead",
      message: "New lead: Jane Doe",
      read: false,
      url: `/leads/detail/${lead.id}`,
      leadId: lead.id,
      createdBy: desk.id,
      dealershipId: north,
      targetUsersRole: ["sales", "frontDesk", "management"],
    });
    expect(await bell(desk)).toEqual([]);
  });

  it("a rep's own new client: front desk and management, never the other reps", async () => {
    await createLead(rep);
    expect(await recipientsOf("lead_created")).toEqual(ids(boss, boss2, desk));
  });

  it("a lead created and assigned to a rep: one 'Lead Claimed' to the rep and those who see every client", async () => {
    await createLead(desk, { assignedTo: rep.id });
    expect(await recipientsOf("lead_created")).toEqual([]);
    expect(await recipientsOf("lead_claimed")).toEqual(ids(boss, boss2, rep));
    const [item] = await bell(rep);
    expect(item?.message).toBe("Lead assigned to Sally Staff: Jane Doe");
  });

  it("a claim: management and front desk, not the claimer nor the other reps", async () => {
    const lead = await makeLead(t.db, { dealershipId: north, firstName: "Claire", lastName: "Buyer" });
    expect((await rep.agent.post(`/api/leads/${lead.id}/claim`)).statusCode).toBe(200);
    expect(await recipientsOf("lead_claimed")).toEqual(ids(boss, boss2, desk));
    const [item] = await bell(desk);
    expect(item).toMatchObject({ title: "Lead Claimed", message: "Lead claimed: Claire Buyer by Sally Staff", url: `/leads/detail/${lead.id}` });
  });

  it("a status change: the claimer and management, not the actor", async () => {
    const lead = await makeLead(t.db, { dealershipId: north, claimedBy: rep.id, firstName: "Stan", lastName: "Dard" });
    expect((await boss.agent.patch(`/api/leads/${lead.id}/status`, { status: "contacted" })).statusCode).toBe(200);
    expect(await recipientsOf("lead_status_changed")).toEqual(ids(boss2, rep));
    const [item] = await bell(rep);
    expect(item).toMatchObject({ title: "Lead Updated", message: "Lead status changed to Contacted: Stan Dard" }); // a human label (issue 29)
  });

  it("a deletion: the claimer and management; nothing left to open", async () => {
    const lead = await makeLead(t.db, { dealershipId: north, claimedBy: rep.id, firstName: "Del", lastName: "Eted" });
    expect((await boss.agent.delete(`/api/leads/${lead.id}`)).statusCode).toBe(200);
    expect(await recipientsOf("lead_deleted")).toEqual(ids(boss2, rep));
    const [item] = await bell(rep);
    expect(item).toMatchObject({ title: "Lead Deleted", message: "Lead deleted: Del Eted", url: null, leadId: null });
  });

  it("a rep is not told about a lead a colleague claimed before the event was dispatched", async () => {
    const last = rowsOf<{ last: number }>(await t.db.execute(sql`select coalesce(max(id), 0)::int as last from domain_events`))[0]!.last;
    const lead = await createLead(desk, { firstName: "Quick" });
    expect((await rep2.agent.post(`/api/leads/${lead.id}/claim`)).statusCode).toBe(200);
    // Both events planned now, as a dispatch after the claim does (the app's own dispatcher may already have taken the
    // first one 20 ms after it committed, so the test plans them itself): the lead is rep2's client, so rep and both
    // (a rep up north) hear nothing of it.
    // The lead's own two: what their subscribers publish meanwhile (the claim's automatic follow-up task) is not asked.
    const rows = await t.db
      .select()
      .from(domainEvents)
      .where(and(gt(domainEvents.id, last), inArray(domainEvents.type, ["lead.created", "lead.claimed"])))
      .orderBy(domainEvents.id);
    const events = rows.map((row) => parseDomainEvent(row));
    const plans = await planNotifications(t.db, events);
    expect(plans.map((plan) => plan?.type)).toEqual(["lead_created", "lead_claimed"]);
    expect([...plans[0]!.recipientIds].sort()).toEqual(ids(boss, boss2, rep2));
    expect([...plans[1]!.recipientIds].sort()).toEqual(ids(boss, boss2, desk));
  });

  it("nothing crosses dealerships", async () => {
    await createLead(both, {}, south);
    expect(await recipientsOf("lead_created")).toEqual([]); // south has no one else
    expect(await bell(boss)).toEqual([]);
  });
});

describe("a dispatch batch", () => {
  it("plans each event of a batch holding claims and leads of two dealerships for its own people", async () => {
    const east = (await makeDealership(t.db, { name: "East Motors" })).id;
    const eastDesk = await person("Sid", [{ dealershipId: east, role: "frontDesk" }]);
    const eastBoss = await person("Eve", [{ dealershipId: east, role: "management" }]);
    const last = rowsOf<{ last: number }>(await t.db.execute(sql`select coalesce(max(id), 0)::int as last from domain_events`))[0]!.last;
    const northLeads = await Promise.all(["One", "Two", "Three"].map((firstName) => createLead(desk, { firstName })));
    const eastLead = await createLead(eastBoss, { firstName: "Eastern" }, east);
    await Promise.all(northLeads.map((lead, i) => (i === 1 ? rep2 : rep).agent.post(`/api/leads/${lead.id}/claim`)));
    const rows = await t.db.select().from(domainEvents).where(gt(domainEvents.id, last)).orderBy(domainEvents.id);
    // All of them planned at once, as one dispatch does, on the database as it stands now (every lead claimed).
    const events = rows.map((row) => parseDomainEvent(row));
    const plans = await planNotifications(t.db, events);
    const heard = (type: string, leadId: string) => {
      const at = events.findIndex((e, i) => plans[i]?.type === type && plans[i]?.leadId === leadId);
      return at < 0 ? [] : [...plans[at]!.recipientIds].sort();
    };
    for (const [i, lead] of northLeads.entries()) {
      const claimer = i === 1 ? rep2 : rep;
      expect(heard("lead_created", lead.id)).toEqual(ids(boss, boss2, claimer));
      expect(heard("lead_claimed", lead.id)).toEqual(ids(boss, boss2, desk));
    }
    expect(heard("lead_created", eastLead.id)).toEqual(ids(eastDesk));
    expect(plans).toHaveLength(events.length);
  });
});

describe("the bell's rows of a dispatch batch", () => {
  it("are written in one statement, each event's words to its own people, with ids of nanoid's shape and the event's time", async () => {
    const west = (await makeDealership(t.db, { name: "West Motors" })).id;
    const westBoss = await person("Wes", [{ dealershipId: west, role: "management" }]);
    const westRep = await person("Wren", [{ dealershipId: west, role: "sales" }]);
    const last = rowsOf<{ last: number }>(await t.db.execute(sql`select coalesce(max(id), 0)::int as last from domain_events`))[0]!.last;
    const northLead = await createLead(desk, { firstName: "Northy" });
    const westLead = await createLead(westBoss, { firstName: "Westy" }, west);
    expect((await rep.agent.post(`/api/leads/${northLead.id}/claim`)).statusCode).toBe(200);
    await t.app.events.flush();
    // The leads' own events (the claim's automatic follow-up task publishes task.created too, issue 27).
    const rows = (await t.db.select().from(domainEvents).where(gt(domainEvents.id, last)).orderBy(domainEvents.id)).filter((r) => r.type.startsWith("lead."));
    expect(rows.map((r) => r.type)).toEqual(["lead.created", "lead.created", "lead.claimed"]);
    // What the dispatcher wrote, then the same batch written again by hand in one transaction: the same rows.
    const written = async () =>
      (await t.db.select().from(notifications).where(inArray(notifications.leadId, [northLead.id, westLead.id])))
        .map((n) => ({ userId: n.userId, type: n.type, message: n.message, dealershipId: n.dealershipId, createdBy: n.createdBy, createdAt: n.createdAt.toISOString() }))
        .sort((a, b) => `${a.type}${a.userId}`.localeCompare(`${b.type}${b.userId}`));
    const byDispatcher = await written();
    await t.db.delete(notifications);
    await t.db.transaction((tx) => notifyInAppAll(tx, rows.map((row) => ({ ...parseDomainEvent(row), id: row.id, createdAt: row.createdAt }))));
    const byHand = await written();
    // Who hears of Northy's creation depends on whether the dispatcher got to it before the claim (every rep) or
    // after (the claimer only); the other events' rows are the same either way.
    const settled = (list: typeof byHand) => list.filter((n) => !(n.type === "lead_created" && n.message.includes("Northy")));
    expect(settled(byHand)).toEqual(settled(byDispatcher));
    const expected = [
      // Judged on the lead as it is now: claimed, so of the reps only its claimer.
      ...ids(boss, boss2, rep).map((userId) => ({ userId, type: "lead_created", message: "New lead: Northy Doe", dealershipId: north, createdBy: desk.id })),
      ...ids(boss, boss2, desk).map((userId) => ({ userId, type: "lead_claimed", message: "Lead claimed: Northy Doe by Sally Staff", dealershipId: north, createdBy: rep.id })),
      ...ids(westRep).map((userId) => ({ userId, type: "lead_created", message: "New lead: Westy Doe", dealershipId: west, createdBy: westBoss.id })),
    ];
    expect(byHand.map(({ createdAt: _c, ...n }) => n)).toEqual(expected.sort((a, b) => `${a.type}${a.userId}`.localeCompare(`${b.type}${b.userId}`)));
    // When it happened (the event's time), not when it was written.
    const eventTimes = new Set(rows.map((r) => r.createdAt.toISOString()));
    for (const n of [...byDispatcher, ...byHand]) expect(eventTimes.has(n.createdAt)).toBe(true);
    const all = await t.db.select({ id: notifications.id }).from(notifications);
    expect(all.length).toBe(expected.length);
    for (const { id } of all) expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(new Set(all.map((n) => n.id)).size).toBe(all.length);
  });
});

describe("who is told about an appointment", () => {
  async function schedule(who: Person, leadId?: string): Promise<{ id: string }> {
    const response = await who.agent.post(`/api/dealerships/${north}/appointments`, {
      title: "Test drive Civic",
      firstName: "Ann",
      lastName: "Point",
      date: tomorrow,
      time: "10:00",
      ...(leadId ? { leadId } : {}),
    });
    expect(response.statusCode).toBe(201);
    return response.json();
  }

  it("a new appointment: front desk and management (the creator and assignee when someone else)", async () => {
    await schedule(rep);
    expect(await recipientsOf("appointment_created")).toEqual(ids(boss, boss2, desk));
    const [item] = await bell(desk);
    expect(item).toMatchObject({ title: "New Appointment", message: "New appointment scheduled: Test drive Civic", url: "/calendar" });
  });

  it("a status change: the rep whose appointment it is and management, not the actor", async () => {
    const appointment = await schedule(rep);
    expect((await desk.agent.patch(`/api/appointments/${appointment.id}/status`, { status: "arrived" })).statusCode).toBe(200);
    expect(await recipientsOf("appointment_status_changed")).toEqual(ids(boss, boss2, rep));
    const [item] = await bell(rep);
    expect(item).toMatchObject({ title: "Appointment Updated", message: "Appointment status changed to Arrived: Test drive Civic" });
  });

  it("carries its lead, and a rep who cannot see that lead is not told", async () => {
    const theirs = await makeLead(t.db, { dealershipId: north, claimedBy: rep2.id });
    const appointment = await schedule(rep2, theirs.id);
    await t.db.execute(sql`update appointments set assigned_to = ${rep.id} where id = ${appointment.id}`);
    expect((await boss.agent.patch(`/api/appointments/${appointment.id}/status`, { status: "completed" })).statusCode).toBe(200);
    expect(await recipientsOf("appointment_status_changed")).toEqual(ids(boss2, rep2));
  });
});

describe("who is told about a test drive", () => {
  const client = { clientType: "new", firstName: "Casey", lastName: "Driver", email: "casey@example.com", phone: "416-555-0199" };

  it("taken out and returned: management, and the rep who took it out when someone else returns it", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId: north });
    const out = await rep.agent.post("/api/test-drives", { dealershipId: north, ...client, vehicleType: "vehicle", vehicleId: vehicle.id, status: "out" });
    expect(out.statusCode).toBe(201);
    const drive = out.json<{ id: string; vehicleDriven: string }>();
    expect(await recipientsOf("test_drive_taken_out")).toEqual(ids(boss, boss2));
    // The new client became the rep's lead in the same transaction: that is a notification of its own.
    const item = (await bell(boss)).find((n) => n.type === "test_drive_taken_out");
    expect(item).toMatchObject({ title: "Demo Taken Out", url: `/test-drives/${drive.id}` });
    expect(item?.message).toBe(`Demo taken out: ${drive.vehicleDriven} with Casey Driver`);

    expect((await desk.agent.post(`/api/test-drives/${drive.id}/return`)).statusCode).toBe(200);
    expect(await recipientsOf("test_drive_returned")).toEqual(ids(boss, boss2, rep));
    expect((await bell(rep)).find((n) => n.type === "test_drive_returned")).toMatchObject({ title: "Demo Returned", url: `/test-drives/${drive.id}` });
    // The status change published with the return tells nobody a second time.
    expect(await recipientsOf("test_drive_status_changed")).toEqual([]);
  });

  it("a status change on the detail screen: management and whoever took it out", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId: north });
    const drive = (await rep.agent.post("/api/test-drives", { dealershipId: north, ...client, vehicleType: "vehicle", vehicleId: vehicle.id, status: "out" })).json<{ id: string }>();
    expect((await boss.agent.patch(`/api/test-drives/${drive.id}/status`, { status: "cancelled" })).statusCode).toBe(200);
    expect(await recipientsOf("test_drive_status_changed")).toEqual(ids(boss2, rep));
    expect((await bell(rep)).find((n) => n.type === "test_drive_status_changed")).toMatchObject({ title: "Test Drive Updated", message: "Test drive status changed to cancelled: Casey Driver" });
  });
});

describe("the bell's routes", () => {
  async function seed(): Promise<void> {
    await createLead(desk, { firstName: "One" });
    await createLead(desk, { firstName: "Two" });
    await createLead(both, {}, south); // nobody else in the south: no row
    await t.app.events.flush();
  }

  it("list and count only the user's own, newest first, in that dealership", async () => {
    await seed();
    const mine = await bell(rep);
    expect(mine.map((n) => n.message)).toEqual(["New lead: Two Doe", "New lead: One Doe"]);
    expect(await badge(rep)).toBe(2);
    expect(await badge(both)).toBe(2);
    expect(await bell(both, south)).toEqual([]);
    expect(await badge(both, south)).toBe(0);
    const rows = await t.db.select().from(notifications);
    expect(mine.every((n) => rows.find((r) => r.id === n.id)?.userId === rep.id)).toBe(true);
  });

  it("a member of another dealership, or nobody, cannot read the list", async () => {
    const southOnly = await person("Sid", [{ dealershipId: south, role: "sales" }]);
    expect((await southOnly.agent.get(`/api/dealerships/${north}/notifications`)).statusCode).toBe(403);
    expect((await southOnly.agent.get(`/api/dealerships/${north}/notifications/count`)).statusCode).toBe(403);
    expect((await anonymous(t.app).get(`/api/dealerships/${north}/notifications`)).statusCode).toBe(401);
    expect((await anonymous(t.app).post(`/api/notifications/whatever/read`)).statusCode).toBe(401);
  });

  it("reading marks one of the user's own; another user's id is not found", async () => {
    await seed();
    const [first] = await bell(rep);
    const [others] = await bell(rep2);
    const read = await rep.agent.post(`/api/notifications/${first!.id}/read`);
    expect(read.statusCode).toBe(200);
    expect(notificationSchema.parse(read.json())).toMatchObject({ id: first!.id, read: true });
    expect(await badge(rep)).toBe(1);
    // Reading again is harmless.
    expect((await rep.agent.post(`/api/notifications/${first!.id}/read`)).statusCode).toBe(200);
    const stolen = await rep.agent.post(`/api/notifications/${others!.id}/read`);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toEqual({ message: "Notification not found" });
    expect(await badge(rep2)).toBe(2);
  });

  it("mark all read marks only the user's own in that dealership", async () => {
    await seed();
    const southDesk = await person("Sue", [{ dealershipId: south, role: "frontDesk" }]);
    await createLead(southDesk, {}, south); // `both` is management in the south: one unread there
    await t.app.events.flush();
    expect(await badge(both, south)).toBe(1);
    const marked = await both.agent.post(`/api/dealerships/${north}/notifications/mark-all-read`);
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toEqual({ marked: 2 });
    expect(await badge(both)).toBe(0);
    expect(await badge(both, south)).toBe(1);
    expect(await badge(rep)).toBe(2);
    expect((await both.agent.post(`/api/dealerships/${north}/notifications/mark-all-read`)).json()).toEqual({ marked: 0 });
  });

  it("lists at most the newest " + NOTIFICATION_LIST_LIMIT, async () => {
    const base = { type: "lead_created" as const, title: "New Lead", dealershipId: north, userId: rep.id };
    await t.db.insert(notifications).values(
      Array.from({ length: NOTIFICATION_LIST_LIMIT + 5 }, (_, i) => ({ ...base, message: `n${i}`, createdAt: new Date(Date.now() - (100 - i) * 1000) })),
    );
    const listed = await bell(rep);
    expect(listed).toHaveLength(NOTIFICATION_LIST_LIMIT);
    expect(listed[0]?.message).toBe(`n${NOTIFICATION_LIST_LIMIT + 4}`);
    expect(await badge(rep)).toBe(NOTIFICATION_LIST_LIMIT + 5);
  });

  it("a removed member sees nothing: their notifications there go, and old ids are not found", async () => {
    const leaving = await person("Lee", [{ dealershipId: north, role: "sales" }]);
    await seed();
    const [old] = await bell(leaving);
    expect(old).toBeDefined();
    expect((await boss.agent.delete(`/api/dealerships/${north}/users/${leaving.id}`)).statusCode).toBe(200);
    await t.app.events.flush();
    const again = await signIn(t.app, leaving);
    expect((await again.get(`/api/dealerships/${north}/notifications`)).statusCode).toBe(403);
    expect((await again.get(`/api/dealerships/${north}/notifications/count`)).statusCode).toBe(403);
    expect((await again.post(`/api/notifications/${old!.id}/read`)).statusCode).toBe(404);
    expect(await t.db.select().from(notifications).where(eq(notifications.userId, leaving.id))).toEqual([]);
    await createLead(desk, { firstName: "After" });
    expect(await recipientsOf("lead_created")).not.toContain(leaving.id);
  });

  it("a member made a sales rep keeps only what a rep may see", async () => {
    const demoted = await person("Dee", [{ dealershipId: north, role: "management" }]);
    await createLead(desk, { firstName: "Pool" }); // stays new: a rep may see it
    const claimed = await createLead(desk, { firstName: "Taken", assignedTo: rep.id });
    await t.app.events.flush();
    expect((await bell(demoted)).map((n) => n.message).sort()).toEqual(["Lead assigned to Sally Staff: Taken Doe", "New lead: Pool Doe"]);
    expect((await boss.agent.patch(`/api/dealerships/${north}/users/${demoted.id}/role`, { role: "sales" })).statusCode).toBe(200);
    await t.app.events.flush();
    expect((await bell(demoted)).map((n) => n.message)).toEqual(["New lead: Pool Doe"]);
    expect(claimed.id).toBeTruthy();
  });

  it("20 parallel reads and mark-alls leave a consistent count", async () => {
    const base = { type: "lead_created" as const, title: "New Lead", dealershipId: north, userId: rep.id };
    const made = await t.db
      .insert(notifications)
      .values(Array.from({ length: 30 }, (_, i) => ({ ...base, message: `p${i}` })))
      .returning({ id: notifications.id });
    const other = await t.db.insert(notifications).values({ ...base, userId: rep2.id, message: "theirs" }).returning({ id: notifications.id });
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 4 === 0
        ? rep.agent.post(`/api/dealerships/${north}/notifications/mark-all-read`)
        : rep.agent.post(`/api/notifications/${made[i]!.id}/read`),
    );
    const answers = await Promise.all([...calls, rep.agent.get(`/api/dealerships/${north}/notifications/count`)]);
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const marked = answers.slice(0, 20).filter((_, i) => i % 4 === 0).reduce((sum, a) => sum + a.json<{ marked: number }>().marked, 0);
    // Each row went from unread to read exactly once: mark-alls counted the ones the single reads had not reached.
    expect(marked).toBeGreaterThanOrEqual(30 - 15);
    expect(marked).toBeLessThanOrEqual(30);
    const unread = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from notifications where user_id = ${rep.id} and not read`));
    expect(unread).toEqual([{ n: 0 }]);
    expect(await badge(rep)).toBe(0);
    const [theirs] = await t.db.select().from(notifications).where(inArray(notifications.id, other.map((o) => o.id)));
    expect(theirs?.read).toBe(false);
  });

  it("hostile ids answer 4xx, never 500", async () => {
    const hostile = ["x".repeat(5000), "not-a-uuid", "%27%20or%201%3D1--", "..%2F..%2Fetc", "%E2%80%AE", "%00", "%F0%9F%98%80"];
    for (const id of hostile) {
      const read = await rep.agent.post(`/api/notifications/${id}/read`);
      expect(read.statusCode, id).toBeGreaterThanOrEqual(400);
      expect(read.statusCode, id).toBeLessThan(500);
      expect(read.json().message, id).toBeTruthy();
      for (const path of ["notifications", "notifications/count"]) {
        const list = await rep.agent.get(`/api/dealerships/${id}/${path}`);
        expect(list.statusCode, `${path} ${id}`).toBeGreaterThanOrEqual(400);
        expect(list.statusCode, `${path} ${id}`).toBeLessThan(500);
      }
      const all = await rep.agent.post(`/api/dealerships/${id}/notifications/mark-all-read`);
      expect(all.statusCode, id).toBeGreaterThanOrEqual(400);
      expect(all.statusCode, id).toBeLessThan(500);
    }
  });
});

describe("retention", () => {
  it("prunes notifications older than 90 days and keeps the rest", async () => {
    const base = { type: "lead_created" as const, title: "New Lead", dealershipId: north, userId: rep.id };
    const day = 24 * 60 * 60 * 1000;
    await t.db.insert(notifications).values([
      { ...base, message: "old", createdAt: new Date(Date.now() - 91 * day) },
      { ...base, message: "recent", createdAt: new Date(Date.now() - 89 * day) },
    ]);
    const pruned = await t.db.transaction((tx) => pruneOldNotifications(tx));
    expect(pruned).toBe(1);
    const left = await t.db.select({ message: notifications.message }).from(notifications).where(and(eq(notifications.userId, rep.id)));
    expect(left).toEqual([{ message: "recent" }]);
  });
});
