import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { DEFAULT_BUSINESS_HOURS, weekdayOf } from "../../shared/business-hours";
import { addDays, localToday } from "../../shared/dealership-clock";
import { DEFAULT_FOLLOW_UP_RULES, followUpRulesSchema } from "../../shared/schemas/follow-up-rules";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { makeLead } from "../db/factories-leads";
import { makeTestDrive } from "../db/factories-test-drives";
import { leadActivity } from "../db/schema/activity";
import { domainEvents } from "../db/schema/events";
import { dealerships } from "../db/schema/dealerships";
import { followUpSettings, tasks } from "../db/schema/tasks";
import { followUpUntouchedLeads, nextBusinessDayAt, withinBusinessHours } from "./follow-ups";

// Automatic follow-ups (issue 27, decision 200): each rule makes its task once per trigger, even when the event is
// handled again; management turns rules off and sets their times.

const TZ = "America/Toronto";
let t: TestApp;
let ours: string;
let theirs: string;
let people: Record<"sales" | "frontDesk" | "management" | "outsider", MadeUser>;
let as: Record<keyof typeof people, Agent>;

/** "YYYY-MM-DD, HH:MM" on the dealership's clock. */
const onDealershipClockParts = (at: Date) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
const rulesPath = () => `/api/dealerships/${ours}/follow-up-rules`;
const tasksOn = (leadId: string) => t.db.select().from(tasks).where(eq(tasks.leadId, leadId));

/** Handles every event again, as a retry or a second process would: marks them undispatched and flushes. */
async function handleAgain(): Promise<void> {
  await t.db.update(domainEvents).set({ dispatchedAt: null });
  await t.app.events.flush();
}

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db, { name: "Northside", timezone: TZ })).id;
  theirs = (await makeDealership(t.db, { name: "Elsewhere", timezone: TZ })).id;
  const member = (role: "sales" | "frontDesk" | "management") => [{ dealershipId: ours, role }];
  people = {
    sales: await makeUser(t.db, { firstName: "Sam", lastName: "Sales", memberships: member("sales") }),
    frontDesk: await makeUser(t.db, { memberships: member("frontDesk") }),
    management: await makeUser(t.db, { memberships: member("management") }),
    outsider: await makeUser(t.db, { memberships: [{ dealershipId: theirs, role: "management" }] }),
  };
  as = {
    sales: await signIn(t.app, people.sales),
    frontDesk: await signIn(t.app, people.frontDesk),
    management: await signIn(t.app, people.management),
    outsider: await signIn(t.app, people.outsider),
  };
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.app.events.flush();
  await t.db.delete(tasks);
  await t.db.delete(followUpSettings);
  // No hours set: the defaults, which move no follow-up (decision 235).
  await t.db.update(dealerships).set({ businessHours: null }).where(eq(dealerships.id, ours));
});

const NEVER_OPEN = Object.fromEntries(Object.keys(DEFAULT_BUSINESS_HOURS).map((d) => [d, null])) as unknown as typeof DEFAULT_BUSINESS_HOURS;

/**
 * Management sets hours under which the dealership is closed now, today and until tomorrow, when it opens 10:00 to
 * 16:00: answers tomorrow's date on its clock (whatever the hour the test runs, a follow-up made now is due then).
 */
async function closedUntilTomorrowTen(): Promise<string> {
  const tomorrow = addDays(localToday(TZ), 1);
  const hours = { ...NEVER_OPEN, [weekdayOf(tomorrow)]: { open: "10:00", close: "16:00" } };
  const saved = await as.management.put(`/api/dealerships/${ours}/settings`, { businessHours: hours });
  expect(saved.statusCode, saved.body).toBe(200);
  return tomorrow;
}

describe("a claimed lead with no contact", () => {
  it("gets one call task for the rep, due 15 minutes after the claim, however often the claim is handled", async () => {
    const lead = await makeLead(t.db, { dealershipId: ours });
    expect((await as.sales.post(`/api/leads/${lead.id}/claim`)).statusCode).toBe(200);
    await t.app.events.flush();
    await handleAgain();
    const made = await tasksOn(lead.id);
    expect(made.map((m) => m.origin)).toHaveLength(1);
    expect(made[0]).toMatchObject({ type: "call", assigneeId: people.sales.id, status: "open", createdBy: null });
    const [claimed] = await t.db.select().from(domainEvents).where(and(eq(domainEvents.type, "lead.claimed"), sql`${domainEvents.payload}->'lead'->>'id' = ${lead.id}`));
    expect(made[0]!.dueAt.getTime() - claimed!.createdAt.getTime()).toBe(15 * 60_000);
    const created = await t.db.select().from(domainEvents).where(eq(domainEvents.type, "task.created"));
    expect(created.filter((e) => (e.payload as { task: { leadId: string } }).task.leadId === lead.id)).toHaveLength(1);
  });

  it("gets one too when front desk creates the lead for a rep, and none when management turned the rule off", async () => {
    const created = await as.frontDesk.post(`/api/dealerships/${ours}/leads`, { firstName: "Assigned", lastName: "Client", phone: "416-555-0150", assignedTo: people.sales.id });
    expect(created.statusCode, created.body).toBe(201);
    await t.app.events.flush();
    await handleAgain();
    expect(await tasksOn(created.json().id)).toMatchObject([{ assigneeId: people.sales.id, type: "call" }]);
    const off = await as.management.put(rulesPath(), { claimedNoContact: { enabled: false } });
    expect(off.statusCode).toBe(200);
    const later = await makeLead(t.db, { dealershipId: ours });
    await as.sales.post(`/api/leads/${later.id}/claim`);
    await t.app.events.flush();
    expect(await tasksOn(later.id)).toHaveLength(0);
  });
});

describe("business hours (decision 235)", () => {
  const clock = (hours: typeof DEFAULT_BUSINESS_HOURS, hoursSet = true) => ({ timezone: TZ, businessHours: hours, hoursSet });
  // Tuesday 2026-11-24 to Monday 2026-11-30 in Toronto (EST, UTC-5): open Monday to Friday 09:00 to 18:00.
  const weekdays = { ...DEFAULT_BUSINESS_HOURS, saturday: null, sunday: null };
  const at = (local: string) => new Date(`${local}-05:00`);

  it("moves a follow-up due while the dealership is closed to its next opening, and leaves one due while open", () => {
    const open = at("2026-11-24T17:59:30");
    expect(withinBusinessHours(open, clock(weekdays))).toEqual(open); // the very instant, seconds and all
    expect(withinBusinessHours(at("2026-11-24T07:15:00"), clock(weekdays))).toEqual(at("2026-11-24T09:00:00")); // before opening: that day's
    expect(withinBusinessHours(at("2026-11-24T18:00:00"), clock(weekdays))).toEqual(at("2026-11-25T09:00:00")); // closing time is closed
    expect(withinBusinessHours(at("2026-11-27T23:50:00"), clock(weekdays))).toEqual(at("2026-11-30T09:00:00")); // Friday night: Monday
    expect(withinBusinessHours(at("2026-11-28T12:00:00"), clock(weekdays))).toEqual(at("2026-11-30T09:00:00")); // a closed Saturday
  });

  it("moves nothing while management has set no hours, nor when the dealership opens on no day", () => {
    const night = at("2026-11-24T23:30:00");
    expect(withinBusinessHours(night, clock(DEFAULT_BUSINESS_HOURS, false))).toEqual(night);
    expect(withinBusinessHours(night, clock(NEVER_OPEN))).toEqual(night);
  });

  it("a claim while the dealership is closed gets its first call at the next opening, not 15 minutes later", async () => {
    const tomorrow = await closedUntilTomorrowTen();
    const lead = await makeLead(t.db, { dealershipId: ours });
    expect((await as.sales.post(`/api/leads/${lead.id}/claim`)).statusCode).toBe(200);
    await t.app.events.flush();
    const made = await tasksOn(lead.id);
    expect(made).toMatchObject([{ type: "call", assigneeId: people.sales.id, note: "First call to the new client" }]);
    expect(onDealershipClockParts(made[0]!.dueAt)).toBe(`${tomorrow}, 10:00`);
  });

  it("a no-show marked while the dealership is closed gets its call at the next opening", async () => {
    const tomorrow = await closedUntilTomorrowTen();
    const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id });
    // Booked before the hours were set; marked now.
    const missed = await makeAppointment(t.db, { dealershipId: ours, userId: people.sales.id, date: localToday(TZ), time: "09:00", leadId: lead.id });
    expect((await as.sales.patch(`/api/appointments/${missed.id}/status`, { status: "no-show" })).statusCode).toBe(200);
    await t.app.events.flush();
    const made = await tasksOn(lead.id);
    expect(made).toHaveLength(1);
    expect(onDealershipClockParts(made[0]!.dueAt)).toBe(`${tomorrow}, 10:00`);
  });

  it("a client found untouched while the dealership is closed gets the call at the next opening", async () => {
    const tomorrow = await closedUntilTomorrowTen();
    const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id });
    await t.db.insert(leadActivity).values({ leadId: lead.id, dealershipId: ours, type: "lead.claimed", payload: {}, at: new Date(Date.now() - 4 * 86_400_000) });
    await followUpUntouchedLeads(t.db);
    const made = await tasksOn(lead.id);
    expect(made).toHaveLength(1);
    expect(onDealershipClockParts(made[0]!.dueAt)).toBe(`${tomorrow}, 10:00`);
  });
});

describe("a returned test drive", () => {
  it("gets one follow-up at 10:00 on the next business day for the lead's rep", async () => {
    const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id });
    const drive = await makeTestDrive(t.db, { dealershipId: ours, leadId: lead.id, takenOutBy: people.sales.id, takenOutAt: new Date(Date.now() - 1800_000) });
    const returned = await as.sales.post(`/api/test-drives/${drive.id}/return`);
    expect(returned.statusCode, returned.body).toBeLessThan(300);
    await t.app.events.flush();
    await handleAgain();
    const made = await tasksOn(lead.id);
    expect(made).toHaveLength(1);
    const local = onDealershipClockParts(made[0]!.dueAt);
    const due = nextBusinessDayAt(localToday(TZ), "10:00", DEFAULT_BUSINESS_HOURS);
    expect(local).toBe(`${due.date}, ${due.time}`);
    expect(made[0]!.assigneeId).toBe(people.sales.id);
  });

  it("counts the days the dealership is open as business days, at the rule's time within that day's hours", () => {
    // Until management sets hours the dealership is open every day (decision 191).
    expect(nextBusinessDayAt("2026-11-27", "10:00", DEFAULT_BUSINESS_HOURS)).toEqual({ date: "2026-11-28", time: "10:00" });
    const weekdays = { ...DEFAULT_BUSINESS_HOURS, saturday: null, sunday: null, monday: { open: "11:00", close: "19:00" } };
    expect(nextBusinessDayAt("2026-11-27", "10:00", weekdays)).toEqual({ date: "2026-11-30", time: "11:00" }); // Friday -> Monday, at opening
    expect(nextBusinessDayAt("2026-11-28", "12:30", weekdays)).toEqual({ date: "2026-11-30", time: "12:30" }); // Saturday -> Monday
    expect(nextBusinessDayAt("2026-11-24", "17:30", weekdays)).toEqual({ date: "2026-11-25", time: "17:30" });
    expect(nextBusinessDayAt("2026-11-24", "18:00", weekdays)).toEqual({ date: "2026-11-25", time: "09:00" }); // closed at 18:00: at opening
    const never = Object.fromEntries(Object.keys(DEFAULT_BUSINESS_HOURS).map((d) => [d, null])) as unknown as typeof DEFAULT_BUSINESS_HOURS;
    expect(nextBusinessDayAt("2026-11-24", "10:00", never)).toEqual({ date: "2026-11-25", time: "10:00" });
  });

  it("follows the dealership's own hours: a drive returned before a closed weekend is followed up when it opens", async () => {
    const closedTomorrow = localToday(TZ);
    const hours = { ...DEFAULT_BUSINESS_HOURS, [weekdayOf(addDays(closedTomorrow, 1))]: null, [weekdayOf(addDays(closedTomorrow, 2))]: { open: "12:00", close: "16:00" } };
    expect((await as.management.put(`/api/dealerships/${ours}/settings`, { businessHours: hours })).statusCode).toBe(200);
    try {
      const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id });
      const drive = await makeTestDrive(t.db, { dealershipId: ours, leadId: lead.id, takenOutBy: people.sales.id, takenOutAt: new Date(Date.now() - 1800_000) });
      expect((await as.sales.post(`/api/test-drives/${drive.id}/return`)).statusCode).toBeLessThan(300);
      await t.app.events.flush();
      const [made] = await tasksOn(lead.id);
      expect(onDealershipClockParts(made!.dueAt)).toBe(`${addDays(closedTomorrow, 2)}, 12:00`);
    } finally {
      await as.management.put(`/api/dealerships/${ours}/settings`, { businessHours: DEFAULT_BUSINESS_HOURS });
    }
  });
});

describe("a no-show appointment", () => {
  it("gets one call the same day for the appointment's rep, and none for other statuses", async () => {
    const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id });
    const missed = await makeAppointment(t.db, { dealershipId: ours, userId: people.sales.id, date: localToday(TZ), time: "09:00", leadId: lead.id, title: "Walkaround" });
    const kept = await makeAppointment(t.db, { dealershipId: ours, userId: people.sales.id, date: addDays(localToday(TZ), 1), time: "10:00", leadId: lead.id });
    expect((await as.sales.patch(`/api/appointments/${missed.id}/status`, { status: "no-show" })).statusCode).toBe(200);
    expect((await as.sales.patch(`/api/appointments/${kept.id}/status`, { status: "arrived" })).statusCode).toBe(200);
    await t.app.events.flush();
    await handleAgain();
    const made = await tasksOn(lead.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ type: "call", assigneeId: people.sales.id, note: 'Missed the appointment "Walkaround"' });
    const day = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: TZ }).format(d);
    expect(day(made[0]!.dueAt)).toBe(day(new Date()));
  });
});

describe("a client nobody touched for 3 days", () => {
  /** A rep's client whose latest timeline entry is `daysAgo` old. */
  async function quietClient(daysAgo: number) {
    const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id });
    await t.db.insert(leadActivity).values({ leadId: lead.id, dealershipId: ours, type: "lead.claimed", payload: {}, at: new Date(Date.now() - daysAgo * 86_400_000) });
    return lead;
  }

  it("gets one call for its rep however often the check runs, none while a task is open, and a new one after news", async () => {
    const quiet = await quietClient(4);
    const busy = await quietClient(1);
    const forgotten = await quietClient(60);
    expect(await followUpUntouchedLeads(t.db)).toBeGreaterThanOrEqual(1);
    expect(await followUpUntouchedLeads(t.db)).toBe(0);
    expect(await tasksOn(quiet.id)).toMatchObject([{ type: "call", assigneeId: people.sales.id, note: "Nothing has happened on this client for a while" }]);
    expect(await tasksOn(busy.id)).toEqual([]);
    expect(await tasksOn(forgotten.id)).toEqual([]);
    // Done without anything new on the timeline: the same quiet stretch, no second task.
    await t.db.update(tasks).set({ status: "done" }).where(eq(tasks.leadId, quiet.id));
    expect(await followUpUntouchedLeads(t.db)).toBe(0);
  });

  it("is off when management turns it off, and follows the days set", async () => {
    expect((await as.management.put(rulesPath(), { untouchedLead: { days: 10 } })).statusCode).toBe(200);
    const fiveDays = await quietClient(5);
    await followUpUntouchedLeads(t.db);
    expect(await tasksOn(fiveDays.id)).toEqual([]);
    await as.management.put(rulesPath(), { untouchedLead: { enabled: false, days: 3 } });
    await followUpUntouchedLeads(t.db);
    expect(await tasksOn(fiveDays.id)).toEqual([]);
  });
});

describe("GET/PUT /api/dealerships/{id}/follow-up-rules", () => {
  it("answers every rule on with its default times, and keeps what management changes", async () => {
    const first = await as.management.get(rulesPath());
    expect(first.statusCode).toBe(200);
    expect(followUpRulesSchema.parse(first.json())).toEqual(DEFAULT_FOLLOW_UP_RULES);
    const changed = await as.management.put(rulesPath(), { testDriveReturned: { time: "11:30" }, appointmentNoShow: { enabled: false } });
    expect(changed.json()).toEqual({ ...DEFAULT_FOLLOW_UP_RULES, testDriveReturned: { enabled: true, time: "11:30" }, appointmentNoShow: { enabled: false, minutes: 30 } });
    expect((await as.management.get(rulesPath())).json()).toEqual(changed.json());
    const events = await t.db.select().from(domainEvents).where(eq(domainEvents.type, "follow_up_rules.updated"));
    expect(events.length).toBeGreaterThanOrEqual(1);
  });

  it("is management's: 403 for sales and front desk, 403 for another dealership, 401 signed out", async () => {
    for (const who of [as.sales, as.frontDesk, as.outsider]) {
      expect((await who.get(rulesPath())).statusCode).toBe(403);
      expect((await who.put(rulesPath(), { claimedNoContact: { enabled: false } })).statusCode).toBe(403);
    }
    expect((await anonymous(t.app).get(rulesPath())).statusCode).toBe(401);
  });

  it.each([
    [{ claimedNoContact: { minutes: 0 } }, "claimedNoContact.minutes"],
    [{ claimedNoContact: { minutes: 1441 } }, "claimedNoContact.minutes"],
    [{ testDriveReturned: { time: "25:00" } }, "testDriveReturned.time"],
    [{ appointmentNoShow: { enabled: "yes" } }, "appointmentNoShow.enabled"],
  ])("refuses %j with 400 naming %s, saving nothing", async (bad, field) => {
    const response = await as.management.put(rulesPath(), bad);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty(field);
    expect(await t.db.select().from(followUpSettings)).toEqual([]);
  });
});
