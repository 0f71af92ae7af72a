import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { DEFAULT_LOST_REASONS } from "../../shared/schemas/lost-reasons";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { domainEvents } from "../db/schema/events";
import { leads, lostReasonLists } from "../db/schema/leads";

// Lost reasons (issue 27, decision 202): the list for each role and another dealership, and the move to Lost that
// needs one of them (on both status routes), saved with the lead and recorded in its one event.

let t: TestApp;
let ours: string;
let theirs: string;
type Who = "sales" | "sales2" | "frontDesk" | "management" | "outsider";
let people: Record<Who, MadeUser>;
let as: Record<Who, Agent>;
let lead: string;

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db)).id;
  theirs = (await makeDealership(t.db)).id;
  const member = (role: "sales" | "frontDesk" | "management") => [{ dealershipId: ours, role }];
  people = {
    sales: await makeUser(t.db, { memberships: member("sales") }),
    sales2: await makeUser(t.db, { memberships: member("sales") }),
    frontDesk: await makeUser(t.db, { memberships: member("frontDesk") }),
    management: await makeUser(t.db, { memberships: member("management") }),
    outsider: await makeUser(t.db, { memberships: [{ dealershipId: theirs, role: "management" }] }),
  };
  as = Object.fromEntries(await Promise.all(Object.entries(people).map(async ([k, u]) => [k, await signIn(t.app, u)]))) as Record<Who, Agent>;
}, 60_000);
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(domainEvents);
  await t.db.delete(lostReasonLists);
  lead = (await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id, status: "contacted" })).id;
});

const url = () => `/api/dealerships/${ours}/lost-reasons`;
const row = async () => (await t.db.select().from(leads).where(eq(leads.id, lead)))[0]!;
const events = async () => t.db.select().from(domainEvents).orderBy(domainEvents.id);

describe("GET/PUT /api/dealerships/{id}/lost-reasons", () => {
  it("every member reads the default list; management saves its own, one event, the same list again none", async () => {
    for (const who of ["sales", "frontDesk", "management"] as const) expect((await as[who].get(url())).json()).toEqual([...DEFAULT_LOST_REASONS]);
    const saved = await as.management.put(url(), ["Bought elsewhere", "  Went with a lease elsewhere (three-year, 12,000 km)  "]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(["Bought elsewhere", "Went with a lease elsewhere (three-year, 12,000 km)"]);
    await as.management.put(url(), saved.json());
    expect((await events()).map((e) => e.type)).toEqual(["lost_reasons.updated"]);
    expect((await as.sales.get(url())).json()).toEqual(saved.json());
  });

  it("refuses sales and front desk changes, another dealership and the signed out", async () => {
    for (const who of ["sales", "frontDesk", "outsider"] as const) expect((await as[who].put(url(), ["Anything"])).statusCode).toBe(403);
    expect((await as.outsider.get(url())).statusCode).toBe(403);
    expect((await anonymous(t.app).get(url())).statusCode).toBe(401);
    expect(await events()).toHaveLength(0);
  });

  it("answers 400 for an empty list, an empty or repeated reason, or not an array, and keeps the list", async () => {
    for (const body of [[], [""], ["Price", "price"], ["x".repeat(81)], { reasons: ["Price"] }]) {
      const response = await as.management.put(url(), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toBeTruthy();
    }
    expect((await as.management.get(url())).json()).toEqual([...DEFAULT_LOST_REASONS]);
  });
});

describe("moving a lead to Lost", () => {
  for (const route of ["status", "edit"] as const) {
    const patch = (who: Agent, body: Record<string, unknown>) => (route === "status" ? who.patch(`/api/leads/${lead}/status`, body) : who.patch(`/api/leads/${lead}`, body));

    it(`${route}: without a reason is 400 naming lostReason, and nothing changes`, async () => {
      const response = await patch(as.sales, { status: "lost" });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toHaveProperty("lostReason");
      expect((await row()).status).toBe("contacted");
      expect(await events()).toHaveLength(0);
    });

    it(`${route}: a reason not on the dealership's list is 400`, async () => {
      const response = await patch(as.sales, { status: "lost", lostReason: "The moon was full" });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toHaveProperty("lostReason");
      expect((await row()).status).toBe("contacted");
    });

    it(`${route}: with a reason from the list the lead is lost with it, in one event; leaving Lost clears it`, async () => {
      const response = await patch(as.sales, { status: "lost", lostReason: "price too high" });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ status: "lost", lostReason: "Price too high" });
      const [event] = await events();
      expect(event?.type).toBe("lead.status_changed");
      expect(event?.payload).toMatchObject({ changes: { status: { after: "lost" }, lostReason: { before: null, after: "Price too high" } } });
      // A lost lead saved again as lost (an edit of its details) needs no new reason and keeps its own.
      expect((await patch(as.sales, { status: "lost" })).statusCode).toBe(200);
      expect((await row()).lostReason).toBe("Price too high");
      expect((await patch(as.sales, { status: "contacted" })).json().lostReason).toBeNull();
      expect((await events()).map((e) => e.type)).toEqual(["lead.status_changed", "lead.status_changed"]);
    });
  }

  it("a reason without the status lost is 400; another rep's lead is 404 as always", async () => {
    expect((await as.sales.patch(`/api/leads/${lead}/status`, { status: "contacted", lostReason: "Price too high" })).statusCode).toBe(400);
    expect((await as.sales2.patch(`/api/leads/${lead}/status`, { status: "lost", lostReason: "Price too high" })).statusCode).toBe(404);
    expect((await as.outsider.patch(`/api/leads/${lead}/status`, { status: "lost", lostReason: "Price too high" })).statusCode).toBe(404);
    expect((await row()).status).toBe("contacted");
  });

  it("management's own list is the one checked", async () => {
    await as.management.put(url(), ["Moved away"]);
    expect((await as.frontDesk.patch(`/api/leads/${lead}/status`, { status: "lost", lostReason: "Price too high" })).statusCode).toBe(400);
    expect((await as.frontDesk.patch(`/api/leads/${lead}/status`, { status: "lost", lostReason: "Moved away" })).statusCode).toBe(200);
  });

  it("Sales Rep Analytics counts the period's lost leads by reason, only the dealership's own", async () => {
    const other = (await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id, status: "qualified" })).id;
    await as.sales.patch(`/api/leads/${lead}/status`, { status: "lost", lostReason: "Price too high" });
    await as.sales.patch(`/api/leads/${other}/status`, { status: "lost", lostReason: "No response" });
    const theirLead = (await makeLead(t.db, { dealershipId: theirs, status: "contacted", claimedBy: people.outsider.id })).id;
    await as.outsider.patch(`/api/leads/${theirLead}/status`, { status: "lost", lostReason: "No response" });
    const ourFigures = (await as.management.get(`/api/dealerships/${ours}/sales-rep-analytics/7`)).json();
    const counts = Object.fromEntries(ourFigures.lostReasons.map((r: { reason: string; lost: number }) => [r.reason, r.lost]));
    expect(counts["Price too high"]).toBeGreaterThanOrEqual(1);
    expect(counts["No response"]).toBeGreaterThanOrEqual(1);
    const theirFigures = (await as.outsider.get(`/api/dealerships/${theirs}/sales-rep-analytics/7`)).json();
    expect(theirFigures.lostReasons).toEqual([{ reason: "No response", lost: 1 }]);
  });
});
