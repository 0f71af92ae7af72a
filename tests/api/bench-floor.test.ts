import { eq } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFloorServer, type FloorServer } from "../../bench/floor-server";
import { cpuBetween, cpuSeconds, residentMemory } from "../../bench/proc";
import { compareServers, differences, type Question, type Server } from "../../bench/same-answers";
import { makeDealership, makeUser, type MadeUser } from "../../src/server/db/factories";
import { makeLead } from "../../src/server/db/factories-leads";
import { leads } from "../../src/server/db/schema/leads";
import { createTestApp, type TestApp } from "../helpers/test-app";

// The benchmark's floor (bench/floor-server.ts, issue 13) is only a floor if it answers exactly as the app does:
// these tests ask the app and the floor, in both of its modes, every benchmarked request on a small dealership.
// The floor speaks to PostgreSQL through pg, so that part runs with TEST_DATABASE_URL only.

describe("the benchmark's answer check", () => {
  const answer = { status: 200, body: '[{"id":"a"}]', link: null };

  it("finds no difference between the same answers", () => {
    expect(differences(answer, { ...answer })).toEqual([]);
  });

  it("reports a different status, Link header or body", () => {
    const found = differences(answer, { status: 403, body: '[{"id":"b"}]', link: '</next>; rel="next"' });
    expect(found).toHaveLength(3);
    expect(found[2]).toContain("byte 8");
  });

  it("ignores only the moment of a claim, and only for a claim", () => {
    const a = { status: 200, body: '{"id":"x","claimedAt":"2026-01-01T10:00:00.000Z"}', link: null };
    const b = { status: 200, body: '{"id":"x","claimedAt":"2026-01-01T10:00:00.042Z"}', link: null };
    expect(differences(a, b, { claim: true })).toEqual([]);
    expect(differences(a, b)).toHaveLength(1);
    expect(differences(a, { ...b, body: b.body.replace('"x"', '"y"') }, { claim: true })).toHaveLength(1);
  });
});

describe("the benchmark's process readings", () => {
  it("sees a process's CPU time grow while it works", () => {
    const before = cpuSeconds(process.pid);
    let x = 0;
    while (cpuSeconds(process.pid)! - before! < 0.05) x += Math.sqrt(x + 1);
    expect(cpuSeconds(process.pid)!).toBeGreaterThan(before!);
  });

  it("answers nothing for a process that does not exist", () => {
    expect(cpuSeconds(2 ** 22 + 1)).toBeNull();
    expect(residentMemory(2 ** 22 + 1)).toBeNull();
  });

  it("reads resident memory at least as large as the JavaScript heap", () => {
    const memory = residentMemory(process.pid)!;
    expect(memory.rssMb * 1024 * 1024).toBeGreaterThanOrEqual(process.memoryUsage().heapUsed);
    expect(memory.peakMb).toBeGreaterThanOrEqual(memory.rssMb);
  });

  it("counts CPU of processes that started during a run whole, and of the others the difference", () => {
    const before = new Map([[1, 2.0]]);
    const after = new Map([
      [1, 2.5],
      [2, 0.25],
    ]);
    expect(cpuBetween(before, after)).toBeCloseTo(0.75);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("the floor server beside the app", () => {
  let t: TestApp;
  let servers: Server[];
  const floors: FloorServer[] = [];
  let dealershipId: string;
  let otherDealershipId: string;
  let cookies: Record<"rep" | "manager" | "claimer", string>;
  let freeLead: string;
  let takenLead: string;

  async function signIn(base: string, user: MadeUser): Promise<string> {
    const response = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(response.status).toBe(200);
    return response.headers.getSetCookie()[0]!.split(";")[0]!;
  }

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address();
    const appBase = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    const connectionString = (t.database as unknown as { pool: pg.Pool }).pool.options.connectionString!;

    const d = await makeDealership(t.db);
    dealershipId = d.id;
    otherDealershipId = (await makeDealership(t.db)).id;
    const rep = await makeUser(t.db, { firstName: "Riley", lastName: "Rep", memberships: [{ dealershipId, role: "sales" }] });
    const otherRep = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
    const manager = await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] });
    const claimer = await makeUser(t.db, { firstName: "Casey", lastName: "Claimer", memberships: [{ dealershipId, role: "sales" }] });
    const day = (n: number) => new Date(Date.UTC(2026, 0, n, 12, 0, 0, 123));
    for (let n = 1; n <= 5; n++) await makeLead(t.db, { dealershipId, createdAt: day(n), description: n % 2 ? "Wants a test drive" : null });
    await makeLead(t.db, { dealershipId, firstName: "Maria", lastName: "Garcia", status: "contacted", claimedBy: rep.id, createdAt: day(6) });
    await makeLead(t.db, { dealershipId, firstName: "Luis", lastName: "Garcia", status: "contacted", claimedBy: otherRep.id, createdAt: day(7) });
    await makeLead(t.db, { dealershipId, status: "qualified", claimedBy: rep.id, createdAt: day(8), email: null, phone: null });
    takenLead = (await makeLead(t.db, { dealershipId, claimedBy: otherRep.id, createdAt: day(9) })).id;
    freeLead = (await makeLead(t.db, { dealershipId, createdAt: day(10) })).id;
    await makeLead(t.db, { dealershipId: otherDealershipId, createdAt: day(3) });

    cookies = { rep: await signIn(appBase, rep), manager: await signIn(appBase, manager), claimer: await signIn(appBase, claimer) };
    floors.push(await startFloorServer({ connectionString, mode: "unnamed" }), await startFloorServer({ connectionString, mode: "prepared" }));
    servers = [
      { name: "app", base: appBase },
      { name: "floor, unnamed SQL", base: `http://127.0.0.1:${floors[0]!.port}` },
      { name: "floor, prepared", base: `http://127.0.0.1:${floors[1]!.port}` },
    ];
  });

  afterAll(async () => {
    for (const floor of floors) await floor.close();
    await t?.close();
  });

  const list = (query: string) => `/api/dealerships/${dealershipId}/leads${query}`;

  it("answers the leads lists with the app's status, bytes and Link header, page after page", async () => {
    const questions: Question[] = [
      { what: "New Leads", method: "GET", path: list("?type=new"), cookie: cookies.rep },
      { what: "New Leads, 2 a page", method: "GET", path: list("?type=new&limit=2"), cookie: cookies.rep },
      { what: "My Clients", method: "GET", path: list("?type=my"), cookie: cookies.rep },
      { what: "everything a rep sees", method: "GET", path: list(""), cookie: cookies.rep },
      { what: "All Clients", method: "GET", path: list(""), cookie: cookies.manager },
      { what: "All Clients, worked", method: "GET", path: list("?type=my&limit=1"), cookie: cookies.manager },
      { what: "search + status", method: "GET", path: list("?type=my&q=garc&status=contacted"), cookie: cookies.manager },
    ];
    // The second page through the app's own Link, with its cursor.
    const first = await fetch(servers[0]!.base + list("?type=new&limit=2"), { headers: { cookie: cookies.rep } });
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
    expect(next).toBeTruthy();
    questions.push({ what: "New Leads, page 2", method: "GET", path: next!, cookie: cookies.rep });
    expect(await compareServers(servers, questions)).toEqual([]);
  });

  it("refuses a signed-out caller and a dealership the caller is not in, as the app does", async () => {
    const answers = await compareServers(servers, [
      { what: "signed out", method: "GET", path: list("?type=new") },
      { what: "not a member", method: "GET", path: `/api/dealerships/${otherDealershipId}/leads?type=new`, cookie: cookies.rep },
    ]);
    expect(answers).toEqual([]);
  });

  it("claims a lead with the app's answer, and answers 409 and 404 with the app's messages", async () => {
    const putBack = async () => {
      await t.db.update(leads).set({ status: "new", claimedBy: null, claimedAt: null }).where(eq(leads.id, freeLead));
    };
    const answers = await compareServers(servers, [
      { what: "claim", method: "POST", path: `/api/leads/${freeLead}/claim`, cookie: cookies.claimer, claim: true, before: putBack },
      { what: "claim of a taken lead", method: "POST", path: `/api/leads/${takenLead}/claim`, cookie: cookies.claimer },
      { what: "claim of a missing lead", method: "POST", path: "/api/leads/no-such-lead/claim", cookie: cookies.claimer },
    ]);
    expect(answers).toEqual([]);
    const [row] = await t.db.select().from(leads).where(eq(leads.id, freeLead));
    expect(row?.status).toBe("claimed");
  });

  it("notices when the floor answers differently (here: a lead the app has just claimed)", async () => {
    await t.db.update(leads).set({ status: "new", claimedBy: null, claimedAt: null }).where(eq(leads.id, freeLead));
    const answers = await compareServers(servers.slice(0, 2), [
      { what: "claim as someone else", method: "POST", path: `/api/leads/${freeLead}/claim`, cookie: cookies.claimer, claim: true },
    ]);
    // The app claimed it first, so the floor answers 409: the check must say so.
    expect(answers.join("\n")).toContain("status 200 vs 409");
  });
});
