// PostgreSQL only (TEST_DATABASE_URL): PGlite runs one statement at a time on its one connection, so a member's write
// can never be in flight while the deletion runs there and nothing can race; on PGlite this file is skipped.
import { and, eq, gt, isNotNull, ne, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadlocksCounted } from "../../../tests/helpers/deadlocks";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { grantPlatformAdminByEmail } from "./admins";

// A dealership deleted while its members work (issue 23 finding 6; decision 176). The deletion and the members'
// writes take turns on the dealership's row: a write either commits before the deletion (and the deletion returns
// what it claimed) or finds the dealership gone (401, 403 or 404 with a message, never 500). After the deletion
// answers, no lead of the dealership is claimed and no event of the dealership comes after the deletion's own.

/** Many rounds on a shared 2-core machine: far more than the 30 s a test gets by default. */
const ROUND_TIMEOUT = 180_000;
const ROUNDS = 20;
const LEADS = 24;
let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp();
  const user = await makeUser(t.db);
  await grantPlatformAdminByEmail(t.db, user.email);
  admin = await signIn(t.app, user);
});
afterAll(() => t.close());

type Answer = { statusCode: number; body: string; json(): unknown };
interface Outcome {
  status: number;
  body: string;
  startedAfterDeletion: boolean;
}

/** A member who keeps writing until told to stop: `write(i)` is their i-th request. */
async function keepWriting(write: (i: number) => Promise<Answer>, deleted: () => boolean, outcomes: Outcome[]): Promise<void> {
  let after = 0;
  for (let i = 0; after < 3; i++) {
    const startedAfterDeletion = deleted();
    const answer = await write(i);
    outcomes.push({ status: answer.statusCode, body: answer.body, startedAfterDeletion });
    if (startedAfterDeletion) after++;
  }
}

describe.runIf(process.env.TEST_DATABASE_URL)("deleting a dealership while its members write", () => {
  it("leaves no lead claimed and no write after the deletion, round after round", async () => {
    const deadlocks = await deadlocksCounted(t);
    for (let round = 0; round < ROUNDS; round++) {
      const dealershipId = (await makeDealership(t.db)).id;
      const member = async (role: "sales" | "frontDesk" | "management") => {
        const user = await makeUser(t.db, { memberships: [{ dealershipId, role }] });
        return { id: user.id, agent: await signIn(t.app, user) };
      };
      const [repA, repB, desk, manager] = [await member("sales"), await member("sales"), await member("frontDesk"), await member("management")];
      const pool: string[] = [];
      for (let i = 0; i < LEADS; i++) pool.push((await makeLead(t.db, { dealershipId, email: null, phone: null })).id);
      const lead = (i: number) => pool[i % pool.length] as string;

      let deletedYet = false;
      const deleted = () => deletedYet;
      const outcomes: Outcome[] = [];
      const statuses = ["contacted", "qualified", "inProgress"] as const;
      const writers = [
        // Two reps claim the pool and move their leads on; front desk merges leads and changes statuses; management edits.
        keepWriting((i) => (i % 2 ? repA.agent.patch(`/api/leads/${lead(i - 1)}/status`, { status: "contacted" }) : repA.agent.post(`/api/leads/${lead(i)}/claim`)), deleted, outcomes),
        keepWriting((i) => (i % 2 ? repB.agent.patch(`/api/leads/${lead(LEADS - i)}/status`, { status: "qualified" }) : repB.agent.post(`/api/leads/${lead(LEADS - 1 - i)}/claim`)), deleted, outcomes),
        keepWriting(
          (i) =>
            i % 2
              ? desk.agent.patch(`/api/leads/${lead(i * 5 + 2)}/status`, { status: statuses[i % 3] })
              : desk.agent.post(`/api/leads/${lead(i * 3)}/merge`, { mergeLeadId: lead(i * 3 + 1), choices: { claimedBy: "merged", status: "merged" } }),
          deleted,
          outcomes,
        ),
        keepWriting((i) => manager.agent.patch(`/api/leads/${lead(i * 7 + 3)}`, { description: `note ${i}`, status: statuses[(i + 1) % 3] }), deleted, outcomes),
      ];
      // The deletion starts while the writers are busy, a little later each round.
      await new Promise((resolve) => setTimeout(resolve, 5 + (round % 5) * 8));
      const deletion = await admin.delete(`/api/platform/dealerships/${dealershipId}`);
      deletedYet = true;
      await Promise.all(writers);
      expect(deletion.statusCode, deletion.body).toBe(200);

      for (const o of outcomes) {
        expect([200, 401, 403, 404, 409], `round ${round}: ${o.body}`).toContain(o.status);
        if (o.status !== 200) expect((JSON.parse(o.body) as { message?: string }).message, o.body).toBeTruthy();
        if (o.startedAfterDeletion) expect(o.status, `round ${round}: a write after the deletion answered ${o.body}`).not.toBe(200);
      }
      const stillClaimed = await t.db
        .select({ id: leads.id, status: leads.status, claimedBy: leads.claimedBy })
        .from(leads)
        .where(and(eq(leads.dealershipId, dealershipId), or(isNotNull(leads.claimedBy), ne(leads.status, "new"))));
      expect(stillClaimed, `round ${round}: returned ${(deletion.json() as { returnedLeads: number }).returnedLeads}`).toEqual([]);
      const [deletionEvent] = await t.db
        .select({ id: domainEvents.id })
        .from(domainEvents)
        .where(and(eq(domainEvents.dealershipId, dealershipId), eq(domainEvents.type, "dealership.deleted")));
      const later = await t.db
        .select({ type: domainEvents.type, actorId: domainEvents.actorId })
        .from(domainEvents)
        .where(and(eq(domainEvents.dealershipId, dealershipId), gt(domainEvents.id, deletionEvent!.id)));
      expect(later, `round ${round}: events after the deletion`).toEqual([]);
    }
    expect(await deadlocksCounted(t), "deadlocks").toBe(deadlocks);
  }, ROUND_TIMEOUT);

  // Lock order (decision 176): a member's write holds the dealership's row and then, through a foreign key, the user's
  // row; deleting the user must lock them in the same order, or the two wait for each other (a deadlock, a 500).
  it("deleting a member's account while they claim and work: the two take turns, never a deadlock", async () => {
    const deadlocks = await deadlocksCounted(t);
    for (let round = 0; round < ROUNDS; round++) {
      const dealershipId = (await makeDealership(t.db)).id;
      await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] });
      const user = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
      const rep = await signIn(t.app, user);
      const pool: string[] = [];
      for (let i = 0; i < LEADS; i++) pool.push((await makeLead(t.db, { dealershipId, email: null, phone: null })).id);

      let gone = false;
      const outcomes: Outcome[] = [];
      const writers = [0, 1].map((w) =>
        keepWriting(
          (i) => (i % 2 ? rep.patch(`/api/leads/${pool[(w * 12 + i - 1) % LEADS]}/status`, { status: "contacted" }) : rep.post(`/api/leads/${pool[(w * 12 + i) % LEADS]}/claim`)),
          () => gone,
          outcomes,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 5 + (round % 5) * 8));
      const deletion = await admin.delete(`/api/platform/users/${user.id}`);
      gone = true;
      await Promise.all(writers);
      expect(deletion.statusCode, deletion.body).toBe(200);
      for (const o of outcomes) {
        expect([200, 401, 403, 404, 409], `round ${round}: ${o.body}`).toContain(o.status);
        if (o.status !== 200) expect((JSON.parse(o.body) as { message?: string }).message, o.body).toBeTruthy();
        if (o.startedAfterDeletion) expect(o.status, `round ${round}: ${o.body}`).not.toBe(200);
      }
      // Nothing the deleted rep worked on is left out of New Leads with nobody holding it.
      const orphaned = await t.db
        .select({ id: leads.id })
        .from(leads)
        .where(and(eq(leads.dealershipId, dealershipId), ne(leads.status, "new")));
      expect(orphaned, `round ${round}`).toEqual([]);
    }
    expect(await deadlocksCounted(t), "deadlocks").toBe(deadlocks);
  }, ROUND_TIMEOUT);
});
