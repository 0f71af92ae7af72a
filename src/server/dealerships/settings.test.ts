import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { raceRounds } from "../../../tests/helpers/races";
import { agent, anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { DEFAULT_BUSINESS_HOURS, weekdayOf, type BusinessHours } from "../../shared/business-hours";
import { DEFAULT_TIMEZONE } from "../../shared/constants";
import { addDays, localToday } from "../../shared/dealership-clock";
import { dealershipSettingsAnswerSchema, firstRunSchema } from "../../shared/schemas/responses/dealership-settings";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { makeLead } from "../db/factories-leads";
import { makeVehicle } from "../db/factories-test-drives";
import { appointments } from "../db/schema/appointments";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { tasks } from "../db/schema/tasks";
import { users } from "../db/schema/users";

// The dealership's own settings and first run (issue 30, decisions 191, 192).

let t: TestApp;
let ours: string;
let theirs: string;
let people: Record<"sales" | "frontDesk" | "management" | "outsider", MadeUser>;
let as: Record<keyof typeof people, Agent>;

const settingsPath = (id = ours) => `/api/dealerships/${id}/settings`;
const eventsOf = (dealershipId: string, type: string) =>
  t.db.select().from(domainEvents).where(and(eq(domainEvents.dealershipId, dealershipId), eq(domainEvents.type, type)));

const closedAll = Object.fromEntries(Object.keys(DEFAULT_BUSINESS_HOURS).map((d) => [d, null])) as unknown as BusinessHours;

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db, { name: "Northside Motors", timezone: DEFAULT_TIMEZONE })).id;
  theirs = (await makeDealership(t.db, { name: "Elsewhere Autos" })).id;
  const member = (role: "sales" | "frontDesk" | "management") => [{ dealershipId: ours, role }];
  people = {
    sales: await makeUser(t.db, { memberships: member("sales") }),
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

let registered = 0;
/** Registers a new owner and dealership through the sign-up form's call; the browser's time zone rides along. */
async function registerOwner(timezone?: string): Promise<{ session: Agent; dealershipId: string }> {
  const email = `owner${++registered}-${Date.now()}@example.com`;
  const response = await anonymous(t.app).post("/api/register", {
    firstName: "Olga",
    lastName: "Owner",
    email,
    password: "Showroom-settings-2026",
    confirmPassword: "Showroom-settings-2026",
    dealershipName: `Olga's Pre-Owned Vehicles & Certified Trucks of Saint-Jean-sur-Richelieu ${registered}`,
    ...(timezone === undefined ? {} : { timezone }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const cookie = String(response.headers["set-cookie"]).split(";")[0];
  return { session: agent(t.app, cookie), dealershipId: response.json<{ currentDealershipId: string }>().currentDealershipId };
}

describe("GET/PUT /api/dealerships/{id}/settings", () => {
  it("answers a new dealership's defaults: the browser's time zone at registration, open every day 09:00-18:00", async () => {
    const { session, dealershipId } = await registerOwner("America/Vancouver");
    const settings = dealershipSettingsAnswerSchema.parse((await session.get(settingsPath(dealershipId))).json());
    expect(settings).toMatchObject({ timezone: "America/Vancouver", businessHours: DEFAULT_BUSINESS_HOURS, savedAt: null, address: null, phone: null });
    // A zone this server does not know is a hint it ignores, not a refused registration.
    const unknown = await registerOwner("Mars/Olympus_Mons");
    expect((await unknown.session.get(settingsPath(unknown.dealershipId))).json()).toMatchObject({ timezone: DEFAULT_TIMEZONE });
  });

  it("saves management's change (phone in E.164) with one event naming each changed field, and none for a save that changes nothing", async () => {
    const change = {
      name: "Northside Motors",
      address: "1200 Yonge St, Unit 4, Toronto, ON M4T 1W1",
      phone: "(416) 555-0100",
      email: "Sales@Northside.example",
      website: "https://northside.example",
      timezone: "America/Halifax",
      businessHours: { ...DEFAULT_BUSINESS_HOURS, sunday: null, saturday: { open: "10:00", close: "16:30" } },
    };
    const saved = await as.management.put(settingsPath(), change);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ phone: "+14165550100", email: "sales@northside.example", timezone: "America/Halifax", businessHours: change.businessHours });
    expect((await as.management.get(settingsPath())).json()).toEqual(saved.json());
    const [event, ...more] = await eventsOf(ours, "dealership.settings_changed");
    expect(more).toHaveLength(0);
    expect(Object.keys((event!.payload as { changes: object }).changes).sort()).toEqual(["address", "businessHours", "email", "phone", "timezone", "website"]);
    expect((await as.management.put(settingsPath(), change)).statusCode).toBe(200);
    expect(await eventsOf(ours, "dealership.settings_changed")).toHaveLength(1);
    // The switcher's list carries the clock the forms use.
    const [mine] = (await as.sales.get("/api/dealerships")).json<Array<{ timezone: string; businessHours: BusinessHours }>>();
    expect(mine).toMatchObject({ timezone: "America/Halifax", businessHours: change.businessHours });
  });

  it("is management's: 403 for sales, front desk and another dealership's manager, 401 signed out", async () => {
    for (const who of [as.sales, as.frontDesk, as.outsider]) {
      expect((await who.get(settingsPath())).statusCode).toBe(403);
      expect((await who.put(settingsPath(), { website: "https://mine.example" })).statusCode).toBe(403);
    }
    expect((await anonymous(t.app).get(settingsPath())).statusCode).toBe(401);
    expect((await as.management.get(settingsPath(theirs))).statusCode).toBe(403);
  });

  it.each([
    [{ timezone: "Mars/Olympus" }, "timezone"],
    [{ timezone: "+05:00" }, "timezone"],
    [{ timezone: "america/toronto" }, "timezone"],
    [{ timezone: "" }, "timezone"],
    [{ phone: "not a phone" }, "phone"],
    [{ email: "sales@" }, "email"],
    [{ website: "not a website" }, "website"],
    [{ name: "  " }, "name"],
    [{ businessHours: { ...DEFAULT_BUSINESS_HOURS, monday: { open: "18:00", close: "09:00" } } }, "businessHours.monday.close"],
    [{ businessHours: { ...DEFAULT_BUSINESS_HOURS, monday: { open: "09:15", close: "18:00" } } }, "businessHours.monday.open"],
    [{ businessHours: { ...DEFAULT_BUSINESS_HOURS, tuesday: undefined } }, "businessHours.tuesday"],
  ])("refuses %j with a 400 naming %s, and saves nothing of the request", async (bad, field) => {
    const before = (await as.management.get(settingsPath())).json();
    const response = await as.management.put(settingsPath(), { address: "Somewhere else entirely", ...bad });
    expect(response.statusCode, response.body).toBe(400);
    expect(Object.keys(response.json<{ fields: Record<string, string> }>().fields)).toContain(field);
    expect((await as.management.get(settingsPath())).json()).toEqual(before);
  });

  it("accepts any IANA zone of the list, also by an older alias", async () => {
    for (const timezone of ["Asia/Kolkata", "Asia/Calcutta", "UTC", "Pacific/Chatham", "America/Argentina/Buenos_Aires"]) {
      const response = await as.management.put(settingsPath(), { timezone });
      expect(response.statusCode, `${timezone}: ${response.body}`).toBe(200);
    }
    await as.management.put(settingsPath(), { timezone: DEFAULT_TIMEZONE });
  });

  it("keeps every manager's save when many save at once: each change lands with its one event, no deadlock", async () => {
    const managers = await Promise.all(Array.from({ length: 5 }, () => makeUser(t.db, { memberships: [{ dealershipId: ours, role: "management" }] })));
    const sessions = await Promise.all(managers.map((m) => signIn(t.app, m)));
    for (let round = 0; round < raceRounds(3); round++) {
      const before = (await eventsOf(ours, "dealership.settings_changed")).length;
      const websites = Array.from({ length: 50 }, (_, i) => `https://round${round}-lot${i}.example`);
      const answers = await Promise.all(websites.map((website, i) => sessions[i % sessions.length]!.put(settingsPath(), { website })));
      expect(answers.map((a) => a.statusCode)).toEqual(websites.map(() => 200));
      expect((await eventsOf(ours, "dealership.settings_changed")).length - before).toBe(50);
      expect(websites).toContain((await as.management.get(settingsPath())).json<{ website: string }>().website);
    }
  });
});

describe("changing the time zone", () => {
  it("moves no stored time: instants stay the same instants, appointments stay at the slot they were booked for", async () => {
    await as.management.put(settingsPath(), { timezone: "America/Toronto" });
    const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id });
    const dueAt = "2027-03-15T14:00:00.000Z"; // 10:00 in Toronto
    const created = await as.sales.post(`/api/leads/${lead.id}/tasks`, { type: "call", dueAt: "2027-03-15T10:00" });
    expect(created.statusCode, created.body).toBe(201);
    const taskId = created.json<{ id: string; dueAt: string }>().id;
    expect(created.json<{ dueAt: string }>().dueAt).toBe(dueAt);
    const appointment = await makeAppointment(t.db, { dealershipId: ours, userId: people.sales.id, date: "2027-03-15", time: "10:00" });
    const [leadBefore] = await t.db.select().from(leads).where(eq(leads.id, lead.id));

    expect((await as.management.put(settingsPath(), { timezone: "Asia/Tokyo" })).statusCode).toBe(200);

    const [task] = await t.db.select().from(tasks).where(eq(tasks.id, taskId));
    expect(task!.dueAt.toISOString()).toBe(dueAt);
    const [leadAfter] = await t.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(leadAfter!.createdAt.toISOString()).toBe(leadBefore!.createdAt.toISOString());
    const [slot] = await t.db.select({ date: appointments.date, time: appointments.time }).from(appointments).where(eq(appointments.id, appointment.id));
    expect(slot).toEqual({ date: "2027-03-15", time: "10:00" });
    // The same instant, read on the new clock: 23:00 in Tokyo; the task list answers it unchanged.
    const listed = (await as.sales.get(`/api/leads/${lead.id}/tasks`)).json<Array<{ id: string; dueAt: string }>>();
    expect(listed.find((x) => x.id === taskId)?.dueAt).toBe(dueAt);
    // A new due time is read on the new clock.
    const later = await as.sales.post(`/api/leads/${lead.id}/tasks`, { type: "call", dueAt: "2027-03-15T10:00" });
    expect(later.json<{ dueAt: string }>().dueAt).toBe("2027-03-15T01:00:00.000Z");
    await as.management.put(settingsPath(), { timezone: DEFAULT_TIMEZONE });
  });
});

describe("business hours and the appointment slots", () => {
  const book = (date: string, time: string) =>
    as.sales.post(`/api/dealerships/${ours}/appointments`, { title: "Walkaround", firstName: "Ada", lastName: "Lovelace", date, time });

  it("offers and accepts only the day's slots: a closed day and a time outside the hours are a 400", async () => {
    const closedDay = addDays(localToday(DEFAULT_TIMEZONE), 2);
    const shortDay = addDays(localToday(DEFAULT_TIMEZONE), 3);
    const hours = { ...DEFAULT_BUSINESS_HOURS, [weekdayOf(closedDay)]: null, [weekdayOf(shortDay)]: { open: "07:30", close: "12:00" } };
    expect((await as.management.put(settingsPath(), { timezone: DEFAULT_TIMEZONE, businessHours: hours })).statusCode).toBe(200);
    try {
      const closed = await book(closedDay, "10:00");
      expect(closed.statusCode).toBe(400);
      expect(closed.json<{ fields: Record<string, string> }>().fields.date).toMatch(/closed on \w+days/);
      for (const time of ["07:00", "12:00", "11:45", "17:00"]) {
        const outside = await book(shortDay, time);
        expect(outside.statusCode, time).toBe(400);
        expect(outside.json<{ fields: Record<string, string> }>().fields.time).toContain("07:30 to 11:30");
      }
      for (const time of ["07:30", "11:30"]) expect((await book(shortDay, time)).statusCode, time).toBe(201);
    } finally {
      await as.management.put(settingsPath(), { businessHours: DEFAULT_BUSINESS_HOURS });
    }
  });

  it("a week with no open day offers no slot", async () => {
    expect((await as.management.put(settingsPath(), { businessHours: closedAll })).statusCode).toBe(200);
    try {
      expect((await book(addDays(localToday(DEFAULT_TIMEZONE), 1), "10:00")).statusCode).toBe(400);
    } finally {
      await as.management.put(settingsPath(), { businessHours: DEFAULT_BUSINESS_HOURS });
    }
  });
});

describe("the first-run checklist", () => {
  const firstRun = (session: Agent, id: string) => session.get(`/api/dealerships/${id}/first-run`);

  it("completes as the owner sets up the dealership, invites the team, adds a vehicle and connects lead intake", async () => {
    const { session, dealershipId } = await registerOwner("America/Toronto");
    const steps = async () => {
      const answer = firstRunSchema.parse((await firstRun(session, dealershipId)).json());
      return { show: answer.show, done: answer.steps.filter((s) => s.done).map((s) => s.step) };
    };
    expect(await steps()).toEqual({ show: true, done: [] });

    // Saving the settings without an address or phone is not "set up" yet.
    expect((await session.put(settingsPath(dealershipId), { timezone: "America/Toronto" })).statusCode).toBe(200);
    expect((await steps()).done).toEqual([]);
    expect((await session.put(settingsPath(dealershipId), { address: "45 Rue Principale, Saint-Jean-sur-Richelieu, QC", phone: "450-555-0142" })).statusCode).toBe(200);
    expect((await steps()).done).toEqual(["settings"]);

    // The owner proves the address (decision 193) and invites a colleague.
    await provenOwner(session);
    const invited = await session.post(`/api/dealerships/${dealershipId}/invites`, { email: `rep-${dealershipId}@example.com`, firstName: "Rémi", lastName: "Tremblay", role: "sales" });
    expect(invited.statusCode, invited.body).toBe(201);
    expect((await steps()).done).toEqual(["settings", "team"]);

    await makeVehicle(t.db, { dealershipId });
    expect((await steps()).done).toEqual(["settings", "team", "vehicles"]);

    const credential = await session.post(`/api/dealerships/${dealershipId}/intake/credentials`, { name: "Website (Dealer.com)" });
    expect(credential.statusCode, credential.body).toBe(201);
    expect(await steps()).toEqual({ show: false, done: ["settings", "team", "vehicles", "intake"] });
  });

  it("goes away for the whole dealership once dismissed, with one event however many dismiss it at once", async () => {
    const { session, dealershipId } = await registerOwner();
    expect(firstRunSchema.parse((await firstRun(session, dealershipId)).json()).show).toBe(true);
    const answers = await Promise.all(Array.from({ length: 50 }, () => session.post(`/api/dealerships/${dealershipId}/first-run/dismiss`)));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    expect(answers.every((a) => a.json<{ show: boolean }>().show === false)).toBe(true);
    expect(await eventsOf(dealershipId, "dealership.first_run_dismissed")).toHaveLength(1);
    expect(firstRunSchema.parse((await firstRun(session, dealershipId)).json())).toMatchObject({ show: false, dismissedAt: expect.any(String) });
  });

  it("is management's: 403 for sales, front desk and another dealership's manager", async () => {
    for (const who of [as.sales, as.frontDesk, as.outsider]) {
      expect((await firstRun(who, ours)).statusCode).toBe(403);
      expect((await who.post(`/api/dealerships/${ours}/first-run/dismiss`)).statusCode).toBe(403);
    }
    expect((await anonymous(t.app).get(`/api/dealerships/${ours}/first-run`)).statusCode).toBe(401);
    expect(firstRunSchema.parse((await firstRun(as.management, ours)).json()).show).toBe(true);
  });
});

/** Proves the signed-in owner's e-mail as Profile → Verify E-mail would, with the code from the mail. */
async function provenOwner(session: Agent): Promise<void> {
  const { id } = (await session.get("/api/user")).json<{ id: string }>();
  await t.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, id));
}
