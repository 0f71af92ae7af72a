import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { deadlocksCounted } from "../../../tests/helpers/deadlocks";
import { ON_DATABASE_SERVER } from "../../../tests/helpers/races";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leadDistribution, repAvailability } from "../db/schema/distribution";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { insertImportedLeads } from "../leads/csv-import";
import { handOutWaitingLeads } from "./hand-out";

// Lead distribution (issue 27, decision 201): the settings and the floor for each role and another dealership; who
// gets new leads however they arrive; fairness with parallel arrivals (they really overlap on PostgreSQL,
// TEST_DATABASE_URL; PGlite runs them one after another); off-floor reps get none; nobody on the floor: New Leads.

let t: TestApp;
let ours: string;
let theirs: string;
type Who = "rep1" | "rep2" | "rep3" | "offFloor" | "frontDesk" | "management" | "outsider";
let people: Record<Who, MadeUser>;
let as: Record<Who, Agent>;
const reps = () => [people.rep1.id, people.rep2.id, people.rep3.id];

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db, { name: "Northside" })).id;
  theirs = (await makeDealership(t.db, { name: "Elsewhere" })).id;
  const member = (role: "sales" | "frontDesk" | "management") => [{ dealershipId: ours, role }];
  people = {
    rep1: await makeUser(t.db, { firstName: "Anneliese", lastName: "Oppenheimer-Vasquez", memberships: member("sales") }),
    rep2: await makeUser(t.db, { firstName: "Riley", lastName: "Chen", memberships: member("sales") }),
    rep3: await makeUser(t.db, { firstName: "Sam", lastName: "Okafor", memberships: member("sales") }),
    offFloor: await makeUser(t.db, { firstName: "Olive", lastName: "Off", memberships: member("sales") }),
    frontDesk: await makeUser(t.db, { firstName: "Fran", lastName: "Desk", memberships: member("frontDesk") }),
    management: await makeUser(t.db, { firstName: "Morgan", lastName: "Manager", memberships: member("management") }),
    outsider: await makeUser(t.db, { firstName: "Oscar", lastName: "Out", memberships: [{ dealershipId: theirs, role: "management" }] }),
  };
  as = Object.fromEntries(await Promise.all(Object.entries(people).map(async ([k, u]) => [k, await signIn(t.app, u)]))) as Record<Who, Agent>;
}, 60_000);
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(leads);
  await t.db.delete(domainEvents);
  await t.db.delete(leadDistribution);
  await t.db.delete(repAvailability);
});

const distribution = (body: unknown) => as.management.put(`/api/dealerships/${ours}/distribution`, body);
const floor = (who: Who, onFloor: boolean) => as[who].put(`/api/dealerships/${ours}/availability`, { onFloor });
const newLead = (n: number | string) => as.management.post(`/api/dealerships/${ours}/leads`, { firstName: "Walk", lastName: `In ${n}`, email: "", phone: "", description: "" });
const eventsOf = async (type: string) => t.db.select().from(domainEvents).where(eq(domainEvents.type, type)).orderBy(domainEvents.id);

async function everyoneOnFloor(): Promise<void> {
  for (const who of ["rep1", "rep2", "rep3"] as const) expect((await floor(who, true)).statusCode).toBe(200);
}

async function countsByRep(): Promise<Map<string | null, number>> {
  const rows = await t.db.select({ rep: leads.claimedBy, n: sql<number>`count(*)::int` }).from(leads).where(eq(leads.dealershipId, ours)).groupBy(leads.claimedBy);
  return new Map(rows.map((r) => [r.rep, Number(r.n)]));
}

describe("GET/PUT /api/dealerships/{id}/distribution", () => {
  it("is management's: off by default, changed with one event, the same settings again publish none", async () => {
    expect((await as.management.get(`/api/dealerships/${ours}/distribution`)).json()).toEqual({ mode: "off", autoAssignAfterMinutes: null });
    const saved = await distribution({ mode: "round_robin", autoAssignAfterMinutes: 10 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ mode: "round_robin", autoAssignAfterMinutes: 10 });
    expect((await distribution({ autoAssignAfterMinutes: null })).json()).toEqual({ mode: "round_robin", autoAssignAfterMinutes: null });
    await distribution({ mode: "round_robin" });
    const events = await eventsOf("lead_distribution.updated");
    expect(events).toHaveLength(2);
    expect(events[1]!.payload).toMatchObject({ settings: { autoAssignAfterMinutes: null }, previous: { autoAssignAfterMinutes: 10 } });
  });

  it("refuses every other caller: 401 signed out, 403 sales, front desk and another dealership", async () => {
    const url = `/api/dealerships/${ours}/distribution`;
    expect((await anonymous(t.app).get(url)).statusCode).toBe(401);
    for (const who of ["rep1", "frontDesk", "outsider"] as const) {
      expect((await as[who].get(url)).statusCode).toBe(403);
      // The 403 comes before the body is looked at.
      expect((await as[who].put(url, { mode: "nonsense" })).statusCode).toBe(403);
    }
    expect(await eventsOf("lead_distribution.updated")).toHaveLength(0);
  });

  it("answers 400 with the field for a bad mode or minutes, and saves nothing", async () => {
    for (const [body, field] of [
      [{ mode: "lottery" }, "mode"],
      [{ autoAssignAfterMinutes: 0 }, "autoAssignAfterMinutes"],
      [{ autoAssignAfterMinutes: 1441 }, "autoAssignAfterMinutes"],
      [{ autoAssignAfterMinutes: 2.5 }, "autoAssignAfterMinutes"],
      [{ mode: "round_robin", extra: true }, ""],
    ] as const) {
      const response = await distribution(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      if (field) expect(Object.keys(response.json().fields ?? {})).toContain(field);
    }
    expect((await as.management.get(`/api/dealerships/${ours}/distribution`)).json().mode).toBe("off");
  });
});

describe("GET/PUT /api/dealerships/{id}/availability", () => {
  it("a sales rep goes on and off the floor themself, one event per change; every member sees the list", async () => {
    const on = await floor("rep1", true);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ userId: people.rep1.id, name: "Anneliese Oppenheimer-Vasquez", onFloor: true });
    expect((await floor("rep1", true)).statusCode).toBe(200); // the same again: no event
    expect((await floor("rep2", false)).statusCode).toBe(200); // off, as they were: no event
    await floor("rep1", false);
    const events = await eventsOf("rep.availability_changed");
    expect(events.map((e) => (e.payload as { onFloor: boolean }).onFloor)).toEqual([true, false]);
    for (const who of ["rep2", "frontDesk", "management"] as const) {
      const list = await as[who].get(`/api/dealerships/${ours}/availability`);
      expect(list.statusCode).toBe(200);
      expect(list.json().map((r: { userId: string }) => r.userId).sort()).toEqual([...reps(), people.offFloor.id].sort());
    }
  });

  it("refuses front desk and management (not on the rota), another dealership and the signed out", async () => {
    const url = `/api/dealerships/${ours}/availability`;
    for (const who of ["frontDesk", "management", "outsider"] as const) expect((await as[who].put(url, { onFloor: true })).statusCode).toBe(403);
    expect((await as.outsider.get(url)).statusCode).toBe(403);
    expect((await anonymous(t.app).get(url)).statusCode).toBe(401);
    const bad = await as.rep1.put(url, { onFloor: "yes" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty("onFloor");
    expect(await eventsOf("rep.availability_changed")).toHaveLength(0);
  });
});

describe("handing out new leads", () => {
  it("round robin at arrival: in turn among the reps on the floor, one lead.assigned each, none to a rep off the floor", async () => {
    await distribution({ mode: "round_robin" });
    await everyoneOnFloor();
    const given: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await newLead(i);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().status).toBe("claimed");
      given.push(response.json().claimedBy);
    }
    expect(new Set(given.slice(0, 3))).toEqual(new Set(reps()));
    expect(given.slice(3)).toEqual(given.slice(0, 3));
    expect(given).not.toContain(people.offFloor.id);
    const assigned = await eventsOf("lead.assigned");
    expect(assigned).toHaveLength(6);
    expect(assigned.every((e) => e.actorId === null)).toBe(true);
  });

  // 300 on PostgreSQL, where the requests really overlap; PGlite runs them one after another, so fewer prove as much.
  const ARRIVALS = ON_DATABASE_SERVER ? 300 : 60;
  it(`${ARRIVALS} leads arriving at once among 3 reps on the floor: a third each (±1), none to the rep off the floor`, async () => {
    await distribution({ mode: "round_robin" });
    await everyoneOnFloor();
    const responses = await Promise.all(Array.from({ length: ARRIVALS }, (_, i) => newLead(i)));
    expect(responses.filter((r) => r.statusCode !== 201).map((r) => r.body)).toEqual([]);
    const counts = await countsByRep();
    for (const rep of reps()) expect(Math.abs((counts.get(rep) ?? 0) - ARRIVALS / 3)).toBeLessThanOrEqual(1);
    expect(counts.get(people.offFloor.id) ?? 0).toBe(0);
    expect(counts.get(null) ?? 0).toBe(0);
    expect(await eventsOf("lead.assigned")).toHaveLength(ARRIVALS);
    if (ON_DATABASE_SERVER) expect(await deadlocksCounted(t)).toBe(0);
  }, 300_000);

  it("fewest open: the rep with the fewest open clients first (closed and lost do not count)", async () => {
    await distribution({ mode: "fewest_open" });
    await everyoneOnFloor();
    for (let i = 0; i < 3; i++) await makeLead(t.db, { dealershipId: ours, claimedBy: people.rep1.id, status: "contacted" });
    await makeLead(t.db, { dealershipId: ours, claimedBy: people.rep2.id, status: "qualified" });
    for (let i = 0; i < 5; i++) await makeLead(t.db, { dealershipId: ours, claimedBy: people.rep3.id, status: "lost" });
    const first = (await newLead("a")).json().claimedBy;
    const second = (await newLead("b")).json().claimedBy;
    expect(first).toBe(people.rep3.id);
    expect([people.rep2.id, people.rep3.id]).toContain(second);
    expect([first, second]).not.toContain(people.rep1.id);
  });

  it("nobody on the floor, or distribution off: the lead waits in New Leads", async () => {
    await distribution({ mode: "round_robin" });
    expect((await newLead("nobody")).json()).toMatchObject({ status: "new", claimedBy: null });
    await distribution({ mode: "off" });
    await everyoneOnFloor();
    expect((await newLead("off")).json()).toMatchObject({ status: "new", claimedBy: null });
    expect(await eventsOf("lead.assigned")).toHaveLength(0);
  });

  it("a lead a rep typed in stays theirs, and one assigned by the desk stays with its assignee", async () => {
    await distribution({ mode: "round_robin" });
    await floor("rep2", true);
    const own = await as.rep1.post(`/api/dealerships/${ours}/leads`, { firstName: "Own", lastName: "Client" });
    expect(own.json().claimedBy).toBe(people.rep1.id);
    const assigned = await as.frontDesk.post(`/api/dealerships/${ours}/leads`, { firstName: "Desk", lastName: "Assigned", assignedTo: people.rep3.id });
    expect(assigned.json().claimedBy).toBe(people.rep3.id);
    expect((await eventsOf("lead.assigned")).map((e) => (e.payload as { claimedBy: { id: string } }).claimedBy.id)).toEqual([people.rep3.id]);
  });

  it("a CSV import and an ADF document arrive like any lead", async () => {
    await distribution({ mode: "round_robin" });
    await everyoneOnFloor();
    await t.db.transaction((tx) =>
      insertImportedLeads(tx, { dealershipId: ours, userId: people.management.id }, [1, 2, 3].map((n) => ({ line: n, firstName: "Csv", lastName: `Row ${n}`, email: null, phone: null, description: null, source: "import" as const }))),
    );
    const credential = await as.management.post(`/api/dealerships/${ours}/intake/credentials`, { name: "AutoTrader" });
    expect(credential.statusCode, credential.body).toBe(201);
    const adf = `<adf><prospect><customer><contact><name part="first">Adf</name><name part="last">Prospect</name></contact></customer></prospect></adf>`;
    const posted = await anonymous(t.app).request({ method: "POST", url: "/api/intake/adf", headers: { "content-type": "application/xml", authorization: `Bearer ${credential.json().secret}` }, payload: adf });
    expect(posted.statusCode, posted.body).toBeLessThan(300);
    const rows = await t.db.select().from(leads).where(eq(leads.dealershipId, ours));
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.status === "claimed" && reps().includes(r.claimedBy!))).toBe(true);
    expect(await eventsOf("lead.assigned")).toHaveLength(4);
  });

  it("after N minutes: nothing at arrival; the minute job hands out what nobody claimed in time, oldest first", async () => {
    await distribution({ mode: "round_robin", autoAssignAfterMinutes: 5 });
    await floor("rep2", true);
    const waiting = (await newLead("waits")).json();
    expect(waiting).toMatchObject({ status: "new", claimedBy: null });
    const claimed = (await newLead("claimed")).json();
    expect((await as.rep1.post(`/api/leads/${claimed.id}/claim`)).statusCode).toBe(200);
    expect(await handOutWaitingLeads(t.db, new Date(Date.now() + 4 * 60_000))).toBe(0);
    expect(await handOutWaitingLeads(t.db, new Date(Date.now() + 6 * 60_000))).toBe(1);
    expect(await handOutWaitingLeads(t.db, new Date(Date.now() + 7 * 60_000))).toBe(0);
    const [row] = await t.db.select().from(leads).where(eq(leads.id, waiting.id));
    expect(row).toMatchObject({ status: "claimed", claimedBy: people.rep2.id });
    expect((await t.db.select().from(leads).where(eq(leads.id, claimed.id)))[0]!.claimedBy).toBe(people.rep1.id);
    expect(await eventsOf("lead.assigned")).toHaveLength(1);
  });

  it("another dealership's leads are never handed to our reps", async () => {
    await distribution({ mode: "round_robin", autoAssignAfterMinutes: 1 });
    await everyoneOnFloor();
    const theirLead = await makeLead(t.db, { dealershipId: theirs, createdAt: new Date(Date.now() - 3600_000) });
    await handOutWaitingLeads(t.db);
    const [row] = await t.db.select().from(leads).where(and(eq(leads.id, theirLead.id)));
    expect(row).toMatchObject({ status: "new", claimedBy: null });
    const ourRows = await t.db.select().from(leads).where(inArray(leads.claimedBy, reps()));
    expect(ourRows).toHaveLength(0);
  });
});
