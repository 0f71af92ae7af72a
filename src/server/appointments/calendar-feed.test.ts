import { and, eq } from "drizzle-orm";
import ical, { type VEvent } from "node-ical";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { addDays, localToday } from "../../shared/dealership-clock";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { appointments, calendarFeeds } from "../db/schema/appointments";
import { dealershipUsers } from "../db/schema/dealerships";

// The private iCalendar subscription (decision 023), read back with an independent parser (node-ical) the way
// a calendar app would: one event per appointment at the right local time in the dealership's zone.

const TZ = "America/Toronto";
let t: TestApp;
let dealershipId: string;
let people: Record<"sales" | "sales2" | "frontDesk" | "management" | "outsider", MadeUser>;
let as: Record<keyof typeof people, Agent>;
let ids: Record<string, string>;
const future = addDays(localToday(TZ), 30);

beforeAll(async () => {
  t = await createTestApp({ appUrl: "https://showroom.example.com" });
  const ours = await makeDealership(t.db, { name: "Northside Motors", address: "1200 Yonge St, Toronto, ON", timezone: TZ });
  const theirs = await makeDealership(t.db, { timezone: "America/Vancouver" });
  dealershipId = ours.id;
  const member = (role: "sales" | "frontDesk" | "management") => [{ dealershipId, role }];
  people = {
    sales: await makeUser(t.db, { firstName: "Sam", lastName: "Sales", memberships: member("sales") }),
    sales2: await makeUser(t.db, { firstName: "Riley", lastName: "Chen", memberships: member("sales") }),
    frontDesk: await makeUser(t.db, { memberships: member("frontDesk") }),
    management: await makeUser(t.db, { memberships: member("management") }),
    outsider: await makeUser(t.db, { memberships: [{ dealershipId: theirs.id, role: "management" }] }),
  };
  as = {
    sales: await signIn(t.app, people.sales),
    sales2: await signIn(t.app, people.sales2),
    frontDesk: await signIn(t.app, people.frontDesk),
    management: await signIn(t.app, people.management),
    outsider: await signIn(t.app, people.outsider),
  };
  const make = (userId: string, date: string, time: string, extra: Partial<Parameters<typeof makeAppointment>[1]> = {}) =>
    makeAppointment(t.db, { dealershipId, userId, date, time, ...extra }).then((a) => a.id);
  ids = {
    // Summer (EDT, UTC-4) and winter (EST, UTC-5): the same 10:30 is a different UTC hour.
    summer: await make(people.sales.id, "2027-07-15", "10:30", { title: "Delivery", firstName: "Dana", lastName: "Summers", duration: 90, phone: "416-555-0101" }),
    winter: await make(people.sales.id, "2027-01-15", "10:30", { title: "Appraisal", firstName: "Wes", lastName: "Winter", description: "Trade-in; bring keys, title" }),
    late: await make(people.sales.id, future, "17:30"),
    cancelled: await make(people.sales.id, future, "09:00", { status: "cancelled" }),
    riley: await make(people.sales2.id, future, "11:00"),
    old: await make(people.sales.id, addDays(localToday(TZ), -200), "09:00"),
  };
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.db.delete(calendarFeeds);
});

const feedPathOf = (url: string) => new URL(url).pathname;

async function subscribe(agent: Agent, scope?: "mine" | "dealership") {
  const response = await agent.post(`/api/dealerships/${dealershipId}/calendar-feed`, scope ? { scope } : {});
  expect(response.statusCode).toBe(201);
  return response.json() as { url: string; webcalUrl: string; scope: string };
}

async function fetchFeed(url: string) {
  return anonymous(t.app).get(feedPathOf(url));
}

function eventsOf(text: string): VEvent[] {
  return Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === "VEVENT");
}

describe("making a subscription link", () => {
  it("refuses a signed-out caller and a manager of another dealership", async () => {
    expect((await anonymous(t.app).post(`/api/dealerships/${dealershipId}/calendar-feed`, {})).statusCode).toBe(401);
    expect((await as.outsider.post(`/api/dealerships/${dealershipId}/calendar-feed`, {})).statusCode).toBe(403);
    expect((await as.outsider.get(`/api/dealerships/${dealershipId}/calendar-feed`)).statusCode).toBe(403);
    expect(await t.db.select().from(calendarFeeds)).toHaveLength(0);
  });

  it("gives an https URL ending in .ics, a webcal:// twin, and stores only a hash of the token", async () => {
    const feed = await subscribe(as.sales);
    expect(feed.url).toMatch(/^https:\/\/showroom\.example\.com\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(feed.webcalUrl).toBe(feed.url.replace("https:", "webcal:"));
    expect(feed.scope).toBe("mine");
    const token = feedPathOf(feed.url).split("/").pop()!.replace(".ics", "");
    const [row] = await t.db.select().from(calendarFeeds);
    expect(row!.tokenHash).not.toContain(token);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("tells whether a feed exists without ever showing the secret again", async () => {
    const path = `/api/dealerships/${dealershipId}/calendar-feed`;
    expect((await as.sales.get(path)).json()).toEqual({ exists: false, scope: null, createdAt: null, lastFetchedAt: null, canChooseDealership: false });
    const feed = await subscribe(as.sales);
    await fetchFeed(feed.url);
    const info = await as.sales.get(path);
    expect(info.json()).toMatchObject({ exists: true, scope: "mine", canChooseDealership: false });
    expect(info.json().lastFetchedAt).not.toBeNull();
    expect(info.body).not.toContain(feedPathOf(feed.url).split("/").pop()!.replace(".ics", ""));
    expect((await as.frontDesk.get(path)).json().canChooseDealership).toBe(true);
  });

  it("refuses the whole-dealership scope to a sales user", async () => {
    const response = await as.sales.post(`/api/dealerships/${dealershipId}/calendar-feed`, { scope: "dealership" });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.scope).toMatch(/front desk and management/);
    expect(await t.db.select().from(calendarFeeds)).toHaveLength(0);
  });
});

describe("the feed", () => {
  it("is an iCalendar document with the dealership's VTIMEZONE, for calendar apps", async () => {
    const response = await fetchFeed((await subscribe(as.sales)).url);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(response.body.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(response.body).toContain("VERSION:2.0");
    expect(response.body).toContain("BEGIN:VTIMEZONE\r\nTZID:America/Toronto");
    expect(response.body.match(/BEGIN:VTIMEZONE/g)).toHaveLength(1);
    expect(response.body).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
    expect(response.body).toMatch(/\r\nCREATED:\d{8}T\d{6}Z\r\n/);
    expect(response.body).toMatch(/DTSTART;TZID=America\/Toronto:20270715T103000/);
    expect(response.body).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT15M");
  });

  it("has one event per appointment of the user, with the right local times, and leaves out cancelled ones", async () => {
    const events = eventsOf((await fetchFeed((await subscribe(as.sales)).url)).body);
    expect(events.map((e) => e.uid).sort()).toEqual([`${ids.summer}@showroom`, `${ids.winter}@showroom`, `${ids.late}@showroom`].sort());

    const summer = events.find((e) => e.uid === `${ids.summer}@showroom`)!;
    expect(summer.start.toISOString()).toBe("2027-07-15T14:30:00.000Z"); // 10:30 EDT
    expect(summer.end?.toISOString()).toBe("2027-07-15T16:00:00.000Z"); // 90 minutes
    expect(summer.start.tz).toBe("America/Toronto");
    expect(summer.summary).toBe("Delivery – Dana Summers");
    expect(String(summer.description)).toContain("Phone: 416-555-0101");
    expect(String(summer.description)).toContain("Sales Associate: Sam Sales");
    expect(summer.location).toBe("Northside Motors, 1200 Yonge St, Toronto, ON");

    const winter = events.find((e) => e.uid === `${ids.winter}@showroom`)!;
    expect(winter.start.toISOString()).toBe("2027-01-15T15:30:00.000Z"); // 10:30 EST
    expect(winter.end?.toISOString()).toBe("2027-01-15T16:30:00.000Z"); // default 60 minutes
    expect(String(winter.description)).toContain("Trade-in; bring keys, title");
  });

  it("gives front desk and management the whole dealership when they choose it", async () => {
    const events = eventsOf((await fetchFeed((await subscribe(as.management, "dealership")).url)).body);
    expect(events.map((e) => e.uid)).toContain(`${ids.riley}@showroom`);
    expect(events).toHaveLength(4);
    const mine = eventsOf((await fetchFeed((await subscribe(as.frontDesk, "mine")).url)).body);
    expect(mine).toHaveLength(0);
  });

  it("keeps the same event ids from one fetch to the next, so apps update instead of duplicating", async () => {
    const feed = await subscribe(as.sales);
    const first = eventsOf((await fetchFeed(feed.url)).body).map((e) => e.uid);
    await t.db.update(appointments).set({ time: "16:00" }).where(eq(appointments.id, ids.late!));
    const second = eventsOf((await fetchFeed(feed.url)).body);
    expect(second.map((e) => e.uid)).toEqual(first);
    expect(second.find((e) => e.uid === `${ids.late}@showroom`)!.start.toISOString().slice(11, 16)).toMatch(/^2[01]:00$/);
    await t.db.update(appointments).set({ time: "17:30" }).where(eq(appointments.id, ids.late!));
  });

  it("refuses a wrong token with 404", async () => {
    const feed = await subscribe(as.sales);
    const path = feedPathOf(feed.url);
    const wrong = path.replace(/[A-Za-z0-9_-]{43}/, (tok) => (tok[0] === "A" ? "B" : "A") + tok.slice(1));
    expect((await anonymous(t.app).get(wrong)).statusCode).toBe(404);
    expect((await anonymous(t.app).get("/api/calendar/short.ics")).statusCode).toBe(404);
    expect((await anonymous(t.app).get(path.replace(".ics", ""))).statusCode).toBe(404);
  });

  it("stops working at once when the link is regenerated; the new one works", async () => {
    const old = await subscribe(as.sales);
    const fresh = await subscribe(as.sales);
    expect(fresh.url).not.toBe(old.url);
    expect((await fetchFeed(old.url)).statusCode).toBe(404);
    expect((await fetchFeed(fresh.url)).statusCode).toBe(200);
    expect(await t.db.select().from(calendarFeeds)).toHaveLength(1);
  });

  it("stops working when the user turns it off", async () => {
    const feed = await subscribe(as.sales);
    expect((await as.sales.delete(`/api/dealerships/${dealershipId}/calendar-feed`)).statusCode).toBe(204);
    expect((await fetchFeed(feed.url)).statusCode).toBe(404);
  });

  it("stops working when the user leaves the dealership", async () => {
    const feed = await subscribe(as.sales2);
    const membership = and(eq(dealershipUsers.userId, people.sales2.id), eq(dealershipUsers.dealershipId, dealershipId));
    await t.db.update(dealershipUsers).set({ active: false }).where(membership);
    try {
      expect((await fetchFeed(feed.url)).statusCode).toBe(404);
    } finally {
      await t.db.update(dealershipUsers).set({ active: true }).where(membership);
    }
  });

  it("narrows a whole-dealership feed to the user's own when they are no longer front desk or management", async () => {
    const feed = await subscribe(as.frontDesk, "dealership");
    const membership = and(eq(dealershipUsers.userId, people.frontDesk.id), eq(dealershipUsers.dealershipId, dealershipId));
    await t.db.update(dealershipUsers).set({ role: "sales" }).where(membership);
    try {
      expect(eventsOf((await fetchFeed(feed.url)).body)).toHaveLength(0);
    } finally {
      await t.db.update(dealershipUsers).set({ role: "frontDesk" }).where(membership);
    }
  });
});
