import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { addDays, localMoment, localToday } from "../../shared/dealership-clock";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { appointments } from "../db/schema/appointments";
import { leads } from "../db/schema/leads";
import { emailsLog } from "../db/schema/notifications";
import { deliverMail } from "../../../tests/helpers/deliver-mail";

// Appointments over HTTP: each route for a signed-out caller, sales, front desk, management and a manager of
// another dealership; validation; status timestamps; a lead's appointments (spec part 1 §2.7, §2.8, §5, §6, §7).

const TZ = "America/Toronto";

/** The instant it is `time` (HH:MM) on `date` on the dealership's clock (Toronto is UTC-4 or UTC-5). */
function onTheClock(date: string, time: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [h, min] = time.split(":").map(Number) as [number, number];
  for (const offset of [4, 5]) {
    const at = new Date(Date.UTC(y, m - 1, d, h + offset, min));
    const local = localMoment(TZ, at);
    if (local.date === date && local.time === time) return at;
  }
  throw new Error(`no instant for ${date} ${time}`);
}

/** Runs `body` with the clock (Date only: timers and the database keep real time) set to `time` of today in TZ. */
async function at<T>(date: string, time: string, body: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(onTheClock(date, time));
  try {
    return await body();
  } finally {
    vi.useRealTimers();
  }
}
let t: TestApp;
let dealershipId: string;
let otherDealershipId: string;
let people: Record<"sales" | "sales2" | "frontDesk" | "management" | "outsider", MadeUser>;
let as: Record<keyof typeof people, Agent>;
let today: string;
let nextWeek: string;

async function makeLead(dealership: string, firstName = "Lena") {
  const [row] = await t.db.insert(leads).values({ firstName, lastName: "Lead", dealershipId: dealership }).returning();
  return row!;
}

const countAppointments = async () => (await t.db.select({ id: appointments.id }).from(appointments)).length;

const valid = () => ({
  title: "Test drive",
  firstName: "Casey",
  lastName: "Buyer",
  email: "casey@example.com",
  phone: "416-555-0142",
  description: "Wants the blue one",
  date: nextWeek,
  time: "10:30",
});

beforeAll(async () => {
  t = await createTestApp();
  const ours = await makeDealership(t.db, { name: "Northside", timezone: TZ });
  const theirs = await makeDealership(t.db, { name: "Elsewhere", timezone: TZ });
  dealershipId = ours.id;
  otherDealershipId = theirs.id;
  const member = (role: "sales" | "frontDesk" | "management") => [{ dealershipId, role }];
  people = {
    sales: await makeUser(t.db, { firstName: "Sam", lastName: "Sales", memberships: member("sales") }),
    sales2: await makeUser(t.db, { firstName: "Riley", lastName: "Chen", memberships: member("sales") }),
    frontDesk: await makeUser(t.db, { firstName: "Fran", lastName: "Desk", memberships: member("frontDesk") }),
    management: await makeUser(t.db, { firstName: "Morgan", lastName: "Manager", memberships: member("management") }),
    outsider: await makeUser(t.db, { firstName: "Oscar", lastName: "Out", memberships: [{ dealershipId: theirs.id, role: "management" }] }),
  };
  as = {
    sales: await signIn(t.app, people.sales),
    sales2: await signIn(t.app, people.sales2),
    frontDesk: await signIn(t.app, people.frontDesk),
    management: await signIn(t.app, people.management),
    outsider: await signIn(t.app, people.outsider),
  };
  today = localToday(TZ);
  nextWeek = addDays(today, 7);
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.db.delete(appointments);
});

describe("POST /api/dealerships/{id}/appointments", () => {
  const path = () => `/api/dealerships/${dealershipId}/appointments`;

  it("refuses a signed-out caller and saves nothing", async () => {
    const response = await anonymous(t.app).post(path(), valid());
    expect(response.statusCode).toBe(401);
    expect(await countAppointments()).toBe(0);
  });

  it("refuses a manager of another dealership and saves nothing", async () => {
    const response = await as.outsider.post(path(), valid());
    expect(response.statusCode).toBe(403);
    expect(await countAppointments()).toBe(0);
  });

  it.each(["sales", "frontDesk", "management"] as const)("lets %s schedule, as the creator and assignee", async (role) => {
    const response = await as[role].post(path(), valid());
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      title: "Test drive",
      firstName: "Casey",
      lastName: "Buyer",
      email: "casey@example.com",
      phone: "+14165550142", // stored in E.164 (decision 205)
      date: nextWeek,
      time: "10:30",
      duration: 60,
      status: "scheduled",
      createdBy: people[role].id,
      assignedTo: people[role].id,
      dealershipId,
      arrivedAt: null,
      completedAt: null,
      actualDuration: null,
      assignedToUser: { firstName: people[role].firstName, lastName: people[role].lastName },
    });
    expect(body.id).toHaveLength(21);
  });

  it("takes createdBy, assignedTo and the dealership from the session, never from the body", async () => {
    const response = await as.sales.post(path(), {
      ...valid(),
      createdBy: people.management.id,
      assignedTo: people.sales2.id,
      dealershipId: otherDealershipId,
      status: "completed",
    });
    expect(response.statusCode).toBe(201);
    const [row] = await t.db.select().from(appointments).where(eq(appointments.id, response.json().id));
    expect(row).toMatchObject({ createdBy: people.sales.id, assignedTo: people.sales.id, dealershipId, status: "scheduled" });
  });

  it("accepts today on the dealership's clock, with an empty e-mail and no description", async () => {
    const response = await at(today, "08:00", () => as.sales.post(path(), { ...valid(), date: today, email: "", description: "", phone: "" }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ date: today, email: null, description: null, phone: null });
  });

  it("refuses a slot of today that has already begun on the dealership's clock (issue 29), and takes a later one", async () => {
    const before = await at(today, "10:45", () => as.sales.post(path(), { ...valid(), date: today, time: "09:00" }));
    expect(before.statusCode).toBe(400);
    expect(before.json().fields).toEqual({ time: "This time has already passed today" });
    const begun = await at(today, "10:45", () => as.sales.post(path(), { ...valid(), date: today, time: "10:30" }));
    expect(begun.statusCode).toBe(400);
    const later = await at(today, "10:45", () => as.sales.post(path(), { ...valid(), date: today, time: "11:00" }));
    expect(later.statusCode, later.body).toBe(201);
    const tomorrow = await at(today, "10:45", () => as.sales.post(path(), { ...valid(), date: addDays(today, 1), time: "09:00" }));
    expect(tomorrow.statusCode, tomorrow.body).toBe(201);
  });

  it("names every missing required field and saves nothing", async () => {
    const response = await as.sales.post(path(), { email: "" });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      title: "Title is required",
      firstName: "First name is required",
      lastName: "Last name is required",
      date: "Date is required",
      time: "Time is required",
    });
    expect(await countAppointments()).toBe(0);
  });

  it.each(["09:15", "08:30", "18:00", "17:45", "9:00", "noon"])("refuses the off-slot time %s", async (time) => {
    const response = await as.sales.post(path(), { ...valid(), time });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.time).toMatch(/^Please choose one of the available time slots/);
    expect(await countAppointments()).toBe(0);
  });

  it("accepts the first and the last slot", async () => {
    expect((await as.sales.post(path(), { ...valid(), time: "09:00" })).statusCode).toBe(201);
    expect((await as.sales.post(path(), { ...valid(), time: "17:30" })).statusCode).toBe(201);
  });

  it("refuses a date before today on the dealership's clock", async () => {
    const response = await as.sales.post(path(), { ...valid(), date: addDays(today, -1) });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.date).toBe("Date cannot be in the past");
    expect(await countAppointments()).toBe(0);
  });

  it("refuses a date that is not a real day", async () => {
    const response = await as.sales.post(path(), { ...valid(), date: "2030-02-30" });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.date).toMatch(/valid date/);
  });

  it("refuses an e-mail that is not one", async () => {
    const response = await as.sales.post(path(), { ...valid(), email: "not-an-email" });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.email).toBe("Please enter a valid email");
    expect(await countAppointments()).toBe(0);
  });

  it("links a lead of the same dealership", async () => {
    const lead = await makeLead(dealershipId);
    const response = await as.sales.post(path(), { ...valid(), leadId: lead.id });
    expect(response.statusCode).toBe(201);
    expect(response.json().leadId).toBe(lead.id);
  });

  it("refuses a lead of another dealership with a 400 on leadId and saves nothing", async () => {
    const foreign = await makeLead(otherDealershipId);
    const response = await as.management.post(path(), { ...valid(), leadId: foreign.id });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ leadId: "Lead not found in this dealership" });
    expect(await countAppointments()).toBe(0);
  });

  it("refuses a lead that does not exist", async () => {
    const response = await as.sales.post(path(), { ...valid(), leadId: "x".repeat(21) });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.leadId).toBeDefined();
  });
});

describe("GET /api/dealerships/{id}/appointments", () => {
  const path = (query = "") => `/api/dealerships/${dealershipId}/appointments${query}`;
  let mine: string, theirs: string, byFrontDesk: string, todays: string;

  beforeEach(async () => {
    mine = (await makeAppointment(t.db, { dealershipId, userId: people.sales.id, date: nextWeek, time: "11:00" })).id;
    theirs = (await makeAppointment(t.db, { dealershipId, userId: people.sales2.id, date: nextWeek, time: "09:30" })).id;
    byFrontDesk = (await makeAppointment(t.db, { dealershipId, userId: people.frontDesk.id, date: addDays(today, 1), time: "14:00" })).id;
    todays = (await makeAppointment(t.db, { dealershipId, userId: people.sales.id, date: today, time: "17:30" })).id;
    await makeAppointment(t.db, { dealershipId: otherDealershipId, userId: people.outsider.id, date: nextWeek });
  });

  const ids = (response: { json(): Array<{ id: string }> }) => response.json().map((a) => a.id);

  it("refuses a signed-out caller", async () => {
    expect((await anonymous(t.app).get(path())).statusCode).toBe(401);
  });

  it("refuses a manager of another dealership", async () => {
    expect((await as.outsider.get(path())).statusCode).toBe(403);
  });

  it("shows a sales user only their own appointments", async () => {
    const response = await as.sales.get(path());
    expect(response.statusCode).toBe(200);
    expect(ids(response).sort()).toEqual([mine, todays].sort());
  });

  it("counts an appointment created by the sales user but assigned to someone else as theirs", async () => {
    const [row] = await t.db
      .insert(appointments)
      .values({ title: "Handover", firstName: "A", lastName: "B", date: nextWeek, time: "12:00", dealershipId, createdBy: people.sales.id, assignedTo: people.sales2.id })
      .returning();
    expect(ids(await as.sales.get(path()))).toContain(row!.id);
    expect(ids(await as.sales2.get(path()))).toContain(row!.id);
  });

  it.each(["frontDesk", "management"] as const)("shows %s the whole dealership's appointments, sorted by date then time", async (role) => {
    const response = await as[role].get(path());
    expect(ids(response)).toEqual([todays, byFrontDesk, theirs, mine]);
  });

  it("carries the assigned user's name", async () => {
    const [first] = (await as.management.get(path(`?date=${nextWeek}`))).json();
    expect(first.assignedToUser).toEqual({ firstName: "Riley", lastName: "Chen" });
  });

  it("type=my narrows front desk and management to their own", async () => {
    expect(ids(await as.frontDesk.get(path("?type=my")))).toEqual([byFrontDesk]);
    expect(ids(await as.management.get(path("?type=my")))).toEqual([]);
  });

  it("type=today answers today's appointments on the dealership's clock", async () => {
    expect(ids(await as.management.get(path("?type=today")))).toEqual([todays]);
    expect(ids(await as.sales2.get(path("?type=today")))).toEqual([]);
  });

  it("date= answers one day, sorted by time", async () => {
    expect(ids(await as.management.get(path(`?date=${nextWeek}`)))).toEqual([theirs, mine]);
    expect(ids(await as.sales.get(path(`?date=${nextWeek}`)))).toEqual([mine]);
  });

  it("type=upcoming answers at most 5, soonest first", async () => {
    for (let i = 0; i < 6; i++) await makeAppointment(t.db, { dealershipId, userId: people.sales2.id, date: addDays(today, 30 + i) });
    const response = (await as.management.get(path("?type=upcoming"))).json() as Array<{ date: string; time: string }>;
    expect(response).toHaveLength(5);
    const keys = response.map((a) => `${a.date} ${a.time}`);
    expect([...keys].sort()).toEqual(keys);
    const upcoming = (response as unknown as Array<{ id: string }>).map((a) => a.id);
    expect(upcoming).toEqual(expect.arrayContaining([byFrontDesk, theirs, mine]));
    expect(keys.every((k) => k >= today)).toBe(true);
  });

  it("type=upcoming keeps a sales user to their own", async () => {
    const upcoming = (await as.sales.get(path("?type=upcoming"))).json() as Array<{ id: string; assignedTo: string }>;
    expect(upcoming.map((a) => a.id)).toContain(mine);
    expect(upcoming.every((a) => a.assignedTo === people.sales.id)).toBe(true);
    expect((await anonymous(t.app).get(path("?type=upcoming"))).statusCode).toBe(401);
    expect((await as.outsider.get(path("?type=upcoming"))).statusCode).toBe(403);
  });

  it("refuses an unknown type or a malformed date", async () => {
    expect((await as.sales.get(path("?type=everything"))).statusCode).toBe(400);
    expect((await as.sales.get(path("?date=tomorrow"))).statusCode).toBe(400);
  });

  it("counts the days of a range for the month picker, within the viewer's scope", async () => {
    const range = `?from=${today}&to=${addDays(today, 10)}`;
    const all = (await as.management.get(`/api/dealerships/${dealershipId}/appointments/days${range}`)).json();
    expect(all).toEqual([
      { date: today, count: 1 },
      { date: addDays(today, 1), count: 1 },
      { date: nextWeek, count: 2 },
    ]);
    const own = (await as.sales.get(`/api/dealerships/${dealershipId}/appointments/days${range}`)).json();
    expect(own).toEqual([
      { date: today, count: 1 },
      { date: nextWeek, count: 1 },
    ]);
    expect((await as.outsider.get(`/api/dealerships/${dealershipId}/appointments/days${range}`)).statusCode).toBe(403);
    expect((await as.sales.get(`/api/dealerships/${dealershipId}/appointments/days?from=${today}&to=${addDays(today, 400)}`)).statusCode).toBe(400);
  });
});

describe("PATCH /api/appointments/{id}/status", () => {
  let own: string, other: string;
  const path = (id: string) => `/api/appointments/${id}/status`;
  const row = async (id: string) => (await t.db.select().from(appointments).where(eq(appointments.id, id)))[0]!;

  beforeEach(async () => {
    own = (await makeAppointment(t.db, { dealershipId, userId: people.sales.id, date: today, time: "10:00" })).id;
    other = (await makeAppointment(t.db, { dealershipId, userId: people.sales2.id, date: today, time: "11:00" })).id;
  });

  it("refuses a signed-out caller and changes nothing", async () => {
    expect((await anonymous(t.app).patch(path(own), { status: "arrived" })).statusCode).toBe(401);
    expect((await row(own)).status).toBe("scheduled");
  });

  it("answers 404 to a manager of another dealership and changes nothing", async () => {
    expect((await as.outsider.patch(path(own), { status: "cancelled" })).statusCode).toBe(404);
    expect((await row(own)).status).toBe("scheduled");
  });

  it("answers 404 to a sales user for another rep's appointment and changes nothing", async () => {
    expect((await as.sales.patch(path(other), { status: "cancelled" })).statusCode).toBe(404);
    expect((await row(other)).status).toBe("scheduled");
  });

  it("answers 404 for an appointment that does not exist", async () => {
    expect((await as.management.patch(path("x".repeat(21)), { status: "arrived" })).statusCode).toBe(404);
  });

  it("lets a sales user change their own, and front desk and management anyone's", async () => {
    expect((await as.sales.patch(path(own), { status: "cancelled" })).json().status).toBe("cancelled");
    expect((await as.frontDesk.patch(path(other), { status: "no-show" })).json().status).toBe("no-show");
    expect((await as.management.patch(path(other), { status: "scheduled" })).json().status).toBe("scheduled");
  });

  it("refuses a status that does not exist and changes nothing", async () => {
    const response = await as.management.patch(path(own), { status: "confirmed" });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.status).toMatch(/scheduled, arrived, completed, cancelled, no-show/);
    expect((await row(own)).status).toBe("scheduled");
  });

  it("records the arrival time when the customer arrives", async () => {
    const before = Date.now();
    const response = await as.sales.patch(path(own), { status: "arrived" });
    expect(response.statusCode).toBe(200);
    const arrivedAt = new Date(response.json().arrivedAt).getTime();
    expect(arrivedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(arrivedAt).toBeLessThanOrEqual(Date.now() + 1000);
    expect(response.json()).toMatchObject({ completedAt: null, actualDuration: null, assignedToUser: { firstName: "Sam" } });
  });

  it("keeps the first arrival time when arrived is set again", async () => {
    const earlier = new Date(Date.now() - 20 * 60_000);
    await t.db.update(appointments).set({ status: "arrived", arrivedAt: earlier }).where(eq(appointments.id, own));
    const response = await as.sales.patch(path(own), { status: "arrived" });
    expect(new Date(response.json().arrivedAt).getTime()).toBe(earlier.getTime());
  });

  it("records completion and the minutes since arrival when completed", async () => {
    await t.db.update(appointments).set({ status: "arrived", arrivedAt: new Date(Date.now() - 47 * 60_000) }).where(eq(appointments.id, own));
    const response = await as.sales.patch(path(own), { status: "completed" });
    const body = response.json();
    expect(body.status).toBe("completed");
    expect(body.actualDuration).toBe(47);
    expect(Math.abs(new Date(body.completedAt).getTime() - Date.now())).toBeLessThan(5000);
    expect((await row(own)).actualDuration).toBe(47);
  });

  it("completes without a duration when no arrival was recorded", async () => {
    const body = (await as.sales.patch(path(own), { status: "completed" })).json();
    expect(body.completedAt).not.toBeNull();
    expect(body.actualDuration).toBeNull();
  });

  it("does not move the completion time when completed is set twice", async () => {
    const done = new Date(Date.now() - 60 * 60_000);
    await t.db
      .update(appointments)
      .set({ status: "completed", arrivedAt: new Date(done.getTime() - 30 * 60_000), completedAt: done, actualDuration: 30 })
      .where(eq(appointments.id, own));
    const body = (await as.sales.patch(path(own), { status: "completed" })).json();
    expect(new Date(body.completedAt).getTime()).toBe(done.getTime());
    expect(body.actualDuration).toBe(30);
  });

  it.each(["scheduled", "cancelled", "no-show"] as const)("clears arrival and completion when set back to %s", async (status) => {
    await t.db
      .update(appointments)
      .set({ status: "completed", arrivedAt: new Date(Date.now() - 90 * 60_000), completedAt: new Date(), actualDuration: 90 })
      .where(eq(appointments.id, own));
    const body = (await as.frontDesk.patch(path(own), { status })).json();
    expect(body).toMatchObject({ status, arrivedAt: null, completedAt: null, actualDuration: null });
  });

  it("moving back from completed to arrived keeps the arrival and clears the completion", async () => {
    const arrivedAt = new Date(Date.now() - 30 * 60_000);
    await t.db
      .update(appointments)
      .set({ status: "completed", arrivedAt, completedAt: new Date(), actualDuration: 30 })
      .where(eq(appointments.id, own));
    const body = (await as.sales.patch(path(own), { status: "arrived" })).json();
    expect(body).toMatchObject({ status: "arrived", completedAt: null, actualDuration: null });
    expect(new Date(body.arrivedAt).getTime()).toBe(arrivedAt.getTime());
  });
});

describe("GET /api/appointments?leadId= (a lead's appointments)", () => {
  let leadId: string;
  let foreignLeadId: string;
  let ownForLead: string, othersForLead: string;

  beforeEach(async () => {
    leadId = (await makeLead(dealershipId)).id;
    foreignLeadId = (await makeLead(otherDealershipId)).id;
    ownForLead = (await makeAppointment(t.db, { dealershipId, userId: people.sales.id, date: nextWeek, time: "15:00", leadId })).id;
    othersForLead = (await makeAppointment(t.db, { dealershipId, userId: people.frontDesk.id, date: nextWeek, time: "09:00", leadId })).id;
    await makeAppointment(t.db, { dealershipId, userId: people.sales.id, date: nextWeek, time: "10:00" });
  });

  const path = (id: string) => `/api/appointments?leadId=${id}`;

  it("refuses a signed-out caller", async () => {
    expect((await anonymous(t.app).get(path(leadId))).statusCode).toBe(401);
  });

  it("answers 404 for a lead of another dealership", async () => {
    expect((await as.outsider.get(path(leadId))).statusCode).toBe(404);
    expect((await as.management.get(path(foreignLeadId))).statusCode).toBe(404);
  });

  it("answers 404 for a lead that does not exist and 400 without a lead id", async () => {
    expect((await as.management.get(path("x".repeat(21)))).statusCode).toBe(404);
    expect((await as.management.get("/api/appointments")).statusCode).toBe(400);
    expect((await as.management.get(`/api/appointments?leadId=${leadId}&leadId=${leadId}`)).statusCode).toBe(400);
  });

  it.each(["frontDesk", "management"] as const)("gives %s all of the lead's appointments, by date and time", async (role) => {
    const body = (await as[role].get(path(leadId))).json();
    expect(body.map((a: { id: string }) => a.id)).toEqual([othersForLead, ownForLead]);
    expect(body[0]).toMatchObject({ title: expect.any(String), status: "scheduled", date: nextWeek, time: "09:00" });
    expect(body[0]).toHaveProperty("description");
  });

  it("gives a sales user only their own appointments of the lead", async () => {
    const body = (await as.sales.get(path(leadId))).json();
    expect(body.map((a: { id: string }) => a.id)).toEqual([ownForLead]);
    expect((await as.sales2.get(path(leadId))).json()).toEqual([]);
  });
});

describe("e-mail notifications (part 2 §2 Email Notifications)", () => {
  async function subscribeFrontDesk(trigger: string) {
    const triggers = (await as.management.get(`/api/dealerships/${dealershipId}/email-notifications/triggers`)).json() as Array<{ id: string; name: string }>;
    const triggerId = triggers.find((x) => x.name === trigger)!.id;
    const response = await as.management.post(`/api/dealerships/${dealershipId}/email-notifications/subscriptions`, {
      userId: people.frontDesk.id,
      triggerId,
      isSubscribed: true,
    });
    expect(response.statusCode).toBeLessThan(300);
  }

  const mailsOf = async (type: string) => {
    await deliverMail(t.app);
    return (await t.db.select().from(emailsLog).where(eq(emailsLog.emailType, type))).filter((m) => m.dealershipId === dealershipId);
  };

  it("mails subscribers when an appointment is scheduled, not the person who scheduled it", async () => {
    await subscribeFrontDesk("appointment_created");
    await as.sales.post(`/api/dealerships/${dealershipId}/appointments`, { ...valid(), title: "Mail me" });
    const mails = (await mailsOf("appointment_created")).filter((m) => m.subject.includes(": Mail me"));
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[people.frontDesk.email, "New Appointment: Mail me — Northside"]]);
    expect(mails[0]!.body).toContain(`${nextWeek} at 10:30`);
  });

  it("mails subscribers when a status changes, and not when it is set to what it was", async () => {
    await subscribeFrontDesk("appointment_status_changed");
    const id = (await makeAppointment(t.db, { dealershipId, userId: people.sales.id, date: today, title: "Status mail" })).id;
    await as.sales.patch(`/api/appointments/${id}/status`, { status: "arrived" });
    await as.sales.patch(`/api/appointments/${id}/status`, { status: "arrived" });
    const mails = (await mailsOf("appointment_status_changed")).filter((m) => m.subject.includes(": Status mail"));
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[people.frontDesk.email, "Appointment Status Changed: Status mail — Northside"]]);
  });
});
