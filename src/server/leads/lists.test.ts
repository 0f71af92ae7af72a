import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leads } from "../db/schema/leads";

// Search, status filter, keyset pages (issue 3 "Lists scale"; decisions 011, 012) and the claim race.

let t: TestApp;
let dealershipId: string;
let desk: Agent;
let rep: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  const d = await makeDealership(t.db);
  dealershipId = d.id;
  rep = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
  desk = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "frontDesk" }] }));
});
afterAll(() => t.close());

const names = (body: Array<{ firstName: string; lastName: string }>) => body.map((l) => `${l.firstName} ${l.lastName}`).sort();

function nextLink(header: unknown): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== "string") return null;
  const match = /<([^>]+)>;\s*rel="next"/.exec(value);
  return match ? match[1]! : null;
}

describe("search and status filter", () => {
  let d: string;
  let me: Agent;
  let boss: MadeUser;
  beforeAll(async () => {
    const dealership = await makeDealership(t.db);
    d = dealership.id;
    boss = await makeUser(t.db, { memberships: [{ dealershipId: d, role: "management" }] });
    me = await signIn(t.app, boss);
    await makeLead(t.db, { dealershipId: d, firstName: "Maria", lastName: "Garcia", email: "mg@example.com", phone: "416-555-0101" });
    await makeLead(t.db, { dealershipId: d, firstName: "Mario", lastName: "Rossi", email: "mario@cars.example", phone: "647-555-0202", claimedBy: boss.id, status: "contacted" });
    await makeLead(t.db, { dealershipId: d, firstName: "John", lastName: "Smith", email: "jsmith@example.com", phone: "905-555-0303", claimedBy: boss.id });
    await makeLead(t.db, { dealershipId: d, firstName: "Percent", lastName: "Sign", email: "100%off@example.com", phone: null });
  });
  const search = async (query: string) => names((await me.get(`/api/dealerships/${d}/leads?${query}`)).json());

  it("finds a case-insensitive substring of the full name, the e-mail or the phone", async () => {
    expect(await search("q=MARI")).toEqual(["Maria Garcia", "Mario Rossi"]);
    expect(await search("q=maria%20garc")).toEqual(["Maria Garcia"]);
    expect(await search("q=CARS.EXAMPLE")).toEqual(["Mario Rossi"]);
    expect(await search("q=555-0303")).toEqual(["John Smith"]);
    expect(await search("q=6475550202")).toEqual(["Mario Rossi"]);
    expect(await search("q=nobody")).toEqual([]);
  });

  it("takes % and _ literally", async () => {
    expect(await search("q=100%25")).toEqual(["Percent Sign"]);
    expect(await search("q=_")).toEqual([]);
  });

  it("combines search and status with AND", async () => {
    expect(await search("q=mari&status=contacted")).toEqual(["Mario Rossi"]);
    expect(await search("q=mari&status=new")).toEqual(["Maria Garcia"]);
    expect(await search("q=smith&status=contacted")).toEqual([]);
    expect(await search("status=claimed")).toEqual(["John Smith"]);
    expect(await search("type=my&status=claimed&q=smi")).toEqual(["John Smith"]);
    expect(await search("type=new&q=mari")).toEqual(["Maria Garcia"]);
  });

  it("pages a search within a status newest first, each match once (decision 252: the page's ids, then their rows)", async () => {
    const start = Date.parse("2026-03-01T12:00:00Z");
    for (let i = 0; i < 5; i++) {
      await makeLead(t.db, { dealershipId: d, firstName: "Paged", lastName: `Qualified ${i}`, claimedBy: boss.id, status: "qualified", createdAt: new Date(start + i * 60_000) });
    }
    await makeLead(t.db, { dealershipId: d, firstName: "Paged", lastName: "Contacted", claimedBy: boss.id, status: "contacted", createdAt: new Date(start + 10 * 60_000) });
    const seen: string[] = [];
    let url: string | undefined = `/api/dealerships/${d}/leads?q=paged&status=qualified&limit=2`;
    while (url) {
      const response = await me.get(url);
      expect(response.statusCode).toBe(200);
      seen.push(...(response.json() as Array<{ lastName: string }>).map((l) => l.lastName));
      url = nextLink(response.headers.link) ?? undefined;
    }
    expect(seen).toEqual(["Qualified 4", "Qualified 3", "Qualified 2", "Qualified 1", "Qualified 0"]);
  });

  it("refuses an unknown status, type, limit or cursor with 400", async () => {
    for (const query of ["status=won", "type=mine", "limit=0", "limit=201", "limit=abc", "cursor=garbage"]) {
      const response = await me.get(`/api/dealerships/${d}/leads?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(Object.keys(response.json().fields)).toHaveLength(1);
    }
  });
});

describe("keyset pages", () => {
  it("pages through every lead exactly once while new leads keep arriving", async () => {
    const start = Date.now() - 3_600_000;
    const original = new Set<string>();
    // Several leads share a creation time, so the id must break ties.
    for (let i = 0; i < 25; i++) {
      const lead = await makeLead(t.db, { dealershipId, createdAt: new Date(start + Math.floor(i / 3) * 1000) });
      original.add(lead.id);
    }
    const seen: string[] = [];
    let url: string | null = `/api/dealerships/${dealershipId}/leads?type=new&limit=10`;
    let pages = 0;
    while (url) {
      const response = await desk.get(url);
      expect(response.statusCode).toBe(200);
      const page = response.json() as Array<{ id: string }>;
      expect(page.length).toBeLessThanOrEqual(10);
      seen.push(...page.map((l) => l.id));
      url = nextLink(response.headers.link);
      pages++;
      // A new lead arrives between pages: it belongs at the top, not in the pages still to come.
      await makeLead(t.db, { dealershipId });
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(original);
  });

  it("keeps a filtered search's parameters in the next link", async () => {
    for (let i = 0; i < 3; i++) await makeLead(t.db, { dealershipId, firstName: "Pager", lastName: `Person${i}` });
    const first = await desk.get(`/api/dealerships/${dealershipId}/leads?q=pager&limit=2&type=new`);
    expect(first.json()).toHaveLength(2);
    const next = nextLink(first.headers.link)!;
    expect(next).toMatch(/q=pager/);
    expect(next).toMatch(/type=new/);
    const second = await desk.get(next);
    expect(second.json()).toHaveLength(1);
    expect(second.headers.link).toBeUndefined();
  });

  it("answers 100 leads by default and at most 200", async () => {
    const d = await makeDealership(t.db);
    const boss = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "management" }] });
    await t.db.insert(leads).values(Array.from({ length: 230 }, (_, i) => ({ dealershipId: d.id, firstName: "Bulk", lastName: String(i) })));
    const me = await signIn(t.app, boss);
    const byDefault = await me.get(`/api/dealerships/${d.id}/leads`);
    expect(byDefault.json()).toHaveLength(100);
    expect(nextLink(byDefault.headers.link)).not.toBeNull();
    expect((await me.get(`/api/dealerships/${d.id}/leads?limit=200`)).json()).toHaveLength(200);
  });
});

describe("simultaneous claims", () => {
  it("gives a lead to exactly one of 20 reps claiming it at the same moment", async () => {
    const reps = await Promise.all(Array.from({ length: 20 }, () => makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] })));
    const agents = await Promise.all(reps.map((r) => signIn(t.app, r)));
    const lead = await makeLead(t.db, { dealershipId });
    const responses = await Promise.all(agents.map((a) => a.post(`/api/leads/${lead.id}/claim`)));
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of responses.filter((x) => x.statusCode === 409)) expect(r.json().message).toContain("already claimed");
    const winner = responses.findIndex((r) => r.statusCode === 200);
    const [row] = await t.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(row).toMatchObject({ status: "claimed", claimedBy: reps[winner]!.id });
    expect(responses[winner]!.json().claimedBy).toBe(reps[winner]!.id);
    void rep;
  });
});
