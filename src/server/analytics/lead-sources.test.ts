import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import type { LeadStatus } from "../../shared/constants";
import type { LeadSource } from "../../shared/lead-source";
import { ANALYTICS_ERRORS, salesRepAnalyticsSchema } from "../../shared/schemas/analytics";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leads } from "../db/schema/leads";
import { leadsBySource, salesRepAnalytics, type AnalyticsViewer } from "./queries";

/** The figures as management of the dealership reads them (the routes answer anyone else 403). */
const managementOf = (dealershipId: string): AnalyticsViewer => ({ dealershipId, role: "management" });

// Leads by source on Sales Rep Analytics (issue 14, decision 150) against hand counts: the leads that arrived in the
// period on the dealership's clock (Toronto, the week of the 2026 daylight-saving change), per source and ADF
// provider; claimed = out of the pool now, sold = Closed.

const TZ = "America/Toronto";
const PERIOD = { today: "2026-03-09", days: 7, timezone: TZ };
const at = (iso: string) => new Date(iso);
/** Inside the period: Mar 5 10:00 EST. */
const INSIDE = at("2026-03-05T15:00:00Z");

let t: TestApp;
let ours: string;
let theirs: string;
let mona: MadeUser;
let sam: MadeUser;
let fran: MadeUser;
let tess: MadeUser;

async function lead(dealershipId: string, source: LeadSource, provider: string | null, status: LeadStatus, createdAt = INSIDE) {
  const claimedBy = status === "new" ? null : sam.id;
  const made = await makeLead(t.db, { dealershipId, status, claimedBy, createdAt });
  await t.db.update(leads).set({ source, sourceProvider: provider }).where(eq(leads.id, made.id));
  return made;
}

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db, { name: "Source Motors", timezone: TZ })).id;
  theirs = (await makeDealership(t.db, { name: "Other Motors", timezone: TZ })).id;
  mona = await makeUser(t.db, { firstName: "Mona", lastName: "Manager", memberships: [{ dealershipId: ours, role: "management" }] });
  sam = await makeUser(t.db, { firstName: "Sam", lastName: "Sales", memberships: [{ dealershipId: ours, role: "sales" }] });
  fran = await makeUser(t.db, { firstName: "Fran", lastName: "Desk", memberships: [{ dealershipId: ours, role: "frontDesk" }] });
  tess = await makeUser(t.db, { firstName: "Tess", lastName: "Theirs", memberships: [{ dealershipId: theirs, role: "management" }] });

  // Walk-in: 3 arrived (one at the period's first instant, Mar 3 00:00 EST; one on the DST evening, Mar 8 23:30 EDT),
  // 2 claimed, 1 sold.
  await lead(ours, "walk-in", null, "new", at("2026-03-03T05:00:00Z"));
  await lead(ours, "walk-in", null, "claimed", at("2026-03-09T03:30:00Z"));
  await lead(ours, "walk-in", null, "closed");
  // Phone: 1 arrived, claimed, lost.
  await lead(ours, "phone", null, "lost");
  // Website: 2 arrived, 1 claimed and sold.
  await lead(ours, "website", null, "new");
  await lead(ours, "website", null, "closed");
  // ADF from AutoTrader: 3 arrived, 2 claimed, 1 sold; from Cars.com: 1 new; a document without a provider: 1 worked.
  await lead(ours, "adf", "AutoTrader", "new");
  await lead(ours, "adf", "AutoTrader", "contacted");
  await lead(ours, "adf", "AutoTrader", "closed");
  await lead(ours, "adf", "Cars.com", "new");
  await lead(ours, "adf", null, "inProgress");
  // Import: 2 arrived, both still new.
  await lead(ours, "import", null, "new");
  await lead(ours, "import", null, "new");

  // Not counted: a second before the period (Mar 2 23:59:59 EST), the first instant after it (Mar 10 00:00 EDT), and
  // another dealership's leads in the period.
  await lead(ours, "walk-in", null, "closed", at("2026-03-03T04:59:59Z"));
  await lead(ours, "adf", "AutoTrader", "closed", at("2026-03-10T04:00:00Z"));
  await lead(theirs, "adf", "AutoTrader", "closed");
  await lead(theirs, "phone", null, "new");
});
afterAll(() => t.close());

const HAND_COUNTS = [
  { source: "adf", provider: "AutoTrader", arrived: 3, claimed: 2, sold: 1 },
  { source: "walk-in", provider: null, arrived: 3, claimed: 2, sold: 1 },
  { source: "import", provider: null, arrived: 2, claimed: 0, sold: 0 },
  { source: "website", provider: null, arrived: 2, claimed: 1, sold: 1 },
  { source: "adf", provider: null, arrived: 1, claimed: 1, sold: 0 },
  { source: "adf", provider: "Cars.com", arrived: 1, claimed: 0, sold: 0 },
  { source: "phone", provider: null, arrived: 1, claimed: 1, sold: 0 },
];

describe("leads by source on the dealership's clock", () => {
  it("counts per source and ADF provider the leads that arrived in the period, those claimed and those sold", async () => {
    // Most arrivals first, then by the name shown (AutoTrader before Walk-in; ADF before Cars.com before Phone).
    expect(await leadsBySource(t.db, managementOf(ours), PERIOD)).toEqual(HAND_COUNTS);
  });

  it("is part of the sales rep analytics answer, beside figures that do not change", async () => {
    const result = salesRepAnalyticsSchema.parse(await salesRepAnalytics(t.db, managementOf(ours), PERIOD));
    expect(result.leadsBySource).toEqual(HAND_COUNTS);
    // The existing figures still count claims by rep (decisions 066, 189): Sam claimed the 7 worked leads of the period as
    // they arrived (the factory's claim time); Mona and Fran did nothing and are no reps.
    expect(result.summary).toMatchObject({ totalReps: 1, totalLeadsClaimed: 7 });
  });

  it("counts one local day: the DST day holds only the lead of its evening", async () => {
    expect(await leadsBySource(t.db, managementOf(ours), { ...PERIOD, today: "2026-03-08", days: 1 })).toEqual([
      { source: "walk-in", provider: null, arrived: 1, claimed: 1, sold: 0 },
    ]);
  });

  it("answers an empty list for a period without arrivals", async () => {
    expect(await leadsBySource(t.db, managementOf(ours), { ...PERIOD, today: "2026-01-10" })).toEqual([]);
  });

  it("counts another dealership's leads for that dealership only", async () => {
    expect(await leadsBySource(t.db, managementOf(theirs), PERIOD)).toEqual([
      { source: "adf", provider: "AutoTrader", arrived: 1, claimed: 1, sold: 1 },
      { source: "phone", provider: null, arrived: 1, claimed: 0, sold: 0 },
    ]);
  });
});

describe("leads by source through the route", () => {
  let manager: Agent;
  let rep: Agent;
  let desk: Agent;
  let otherManager: Agent;
  beforeAll(async () => {
    manager = await signIn(t.app, mona);
    rep = await signIn(t.app, sam);
    desk = await signIn(t.app, fran);
    otherManager = await signIn(t.app, tess);
  });

  it("answers management the leads that arrived today among the period's figures, another dealership's left out", async () => {
    const before = salesRepAnalyticsSchema.parse((await manager.get(`/api/dealerships/${ours}/sales-rep-analytics/7`)).json()).leadsBySource;
    await lead(ours, "adf", "Kijiji", "new", new Date());
    await lead(ours, "adf", "Kijiji", "closed", new Date());
    await lead(theirs, "adf", "Kijiji", "new", new Date());
    const res = await manager.get(`/api/dealerships/${ours}/sales-rep-analytics/7`);
    expect(res.statusCode).toBe(200);
    const after = salesRepAnalyticsSchema.parse(res.json()).leadsBySource;
    expect(before.find((r) => r.provider === "Kijiji")).toBeUndefined();
    expect(after.find((r) => r.provider === "Kijiji")).toEqual({ source: "adf", provider: "Kijiji", arrived: 2, claimed: 1, sold: 1 });
    const theirsAnswer = salesRepAnalyticsSchema.parse((await otherManager.get(`/api/dealerships/${theirs}/sales-rep-analytics/7`)).json());
    expect(theirsAnswer.leadsBySource).toEqual([{ source: "adf", provider: "Kijiji", arrived: 1, claimed: 0, sold: 0 }]);
  });

  it("refuses a sales rep and front desk (management only, as the rest of the page) and another dealership's manager", async () => {
    for (const who of [rep, desk]) {
      const res = await who.get(`/api/dealerships/${ours}/sales-rep-analytics/30`);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(ANALYTICS_ERRORS.salesRepAccess);
      expect(res.body).not.toContain("leadsBySource");
    }
    const foreign = await otherManager.get(`/api/dealerships/${ours}/sales-rep-analytics/30`);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).not.toContain("leadsBySource");
  });
});
