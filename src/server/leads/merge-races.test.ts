// PostgreSQL only (TEST_DATABASE_URL): PGlite runs one statement at a time on its one connection, so two merges can
// never hold locks at the same moment there and nothing can race or deadlock; on PGlite this file is skipped.
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadlocksCounted } from "../../../tests/helpers/deadlocks";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { appointments } from "../db/schema/appointments";
import { leadMerges } from "../db/schema/lead-duplicates";
import { leads } from "../db/schema/leads";

// Two people merging the same leads at once (issue 23 finding 5; decision 175): one merge of each pair wins, the others
// answer 404 or 409 with a message, never 500 (a deadlock between the two transactions was a 500). Leads are made
// through the API with one e-mail per round, so they are linked as possible duplicates (links the merge moves) and
// their events keep the dispatcher busy on the same rows, as on a real lot.

/** Many rounds on a shared 2-core machine: far more than the 30 s a test gets by default. */
const ROUND_TIMEOUT = 180_000;
const ROUNDS = 30;
let t: TestApp;
let dealershipId: string;
let people: Agent[];
let ownerId: string;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db)).id;
  people = [];
  for (const role of ["frontDesk", "management", "frontDesk", "management", "frontDesk"] as const) {
    const user = await makeUser(t.db, { memberships: [{ dealershipId, role }] });
    ownerId = user.id;
    people.push(await signIn(t.app, user));
  }
  // A lot with a staff: every new lead's bell rows (one per person told) take a while to write, as on a real lot.
  for (let i = 0; i < 20; i++) await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] });
});
afterAll(() => t.close());

const person = (i: number) => people[i % people.length] as Agent;

/** `count` leads of one customer (one e-mail), each with an appointment, made as front desk would. */
async function customer(round: number, count: number): Promise<string[]> {
  const email = `merge-race-${round}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await person(i).post(`/api/dealerships/${dealershipId}/leads`, { firstName: `Side${i}`, lastName: `Round${round}`, email });
    expect(response.statusCode, response.body).toBe(201);
    const id = (response.json() as { id: string }).id;
    await makeAppointment(t.db, { dealershipId, userId: ownerId, date: "2026-12-02", time: "10:00", leadId: id });
    ids.push(id);
  }
  return ids;
}

/**
 * Runs the merges at once: [kept, merged] pairs, each by another person, a few milliseconds after the leads were made
 * (a little later each round, so the merges meet the dispatcher writing the new leads' bell rows at every stage).
 * Answers the status codes.
 */
async function mergeAtOnce(round: number, pairs: Array<[string, string]>): Promise<number[]> {
  await new Promise((resolve) => setTimeout(resolve, (round % 8) * 4));
  const answers = await Promise.all(pairs.map(([kept, merged], i) => person(i).post(`/api/leads/${kept}/merge`, { mergeLeadId: merged })));
  for (const answer of answers) {
    expect([200, 404, 409], answer.body).toContain(answer.statusCode);
    if (answer.statusCode !== 200) expect((answer.json() as { message?: string }).message).toBeTruthy();
  }
  return answers.map((a) => a.statusCode);
}

async function mergesOf(ids: string[]): Promise<number> {
  return (await t.db.select({ id: leadMerges.id }).from(leadMerges).where(inArray(leadMerges.mergedLeadId, ids))).length;
}

describe.runIf(process.env.TEST_DATABASE_URL)("two merges of the same leads at once", () => {
  it("K<-M and M<-K: exactly one wins each round, the other answers 404 or 409, never 500", async () => {
    const deadlocks = await deadlocksCounted(t);
    for (let round = 0; round < ROUNDS; round++) {
      const [k, m] = (await customer(round, 2)) as [string, string];
      const codes = await mergeAtOnce(round, [
        [k, m],
        [m, k],
      ]);
      expect(codes.filter((c) => c === 200), `round ${round}: ${codes.join(",")}`).toHaveLength(1);
      expect(await mergesOf([k, m]), `round ${round}`).toBe(1);
      expect(await t.db.select({ id: leads.id }).from(leads).where(inArray(leads.id, [k, m]))).toHaveLength(1);
    }
    // Nor in the work no request answers for (the dispatcher's bell rows lock the same leads).
    expect(await deadlocksCounted(t), "deadlocks").toBe(deadlocks);
  }, ROUND_TIMEOUT);

  it("a 5-way mix over 3 leads: exactly two merges win each round (one lead is left), never a 500", async () => {
    const deadlocks = await deadlocksCounted(t);
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b, c] = (await customer(100 + round, 3)) as [string, string, string];
      // Every pair of two of the three shares a lead, so the five serialize; in any order exactly two can succeed.
      const codes = await mergeAtOnce(round, [
        [a, b],
        [b, a],
        [b, c],
        [c, a],
        [a, c],
      ]);
      expect(codes.filter((s) => s === 200), `round ${round}: ${codes.join(",")}`).toHaveLength(2);
      expect(await mergesOf([a, b, c]), `round ${round}`).toBe(2);
      const left = await t.db.select({ id: leads.id }).from(leads).where(inArray(leads.id, [a, b, c]));
      expect(left, `round ${round}`).toHaveLength(1);
      // Every appointment of the three ended on the one lead left.
      const [kept] = left;
      const moved = await t.db.select({ id: appointments.id }).from(appointments).where(eq(appointments.leadId, kept!.id));
      expect(moved, `round ${round}`).toHaveLength(3);
    }
    expect(await deadlocksCounted(t), "deadlocks").toBe(deadlocks);
  }, ROUND_TIMEOUT);
});
