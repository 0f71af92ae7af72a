import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { raceRounds } from "../../../tests/helpers/races";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { appointments } from "../db/schema/appointments";
import { leads } from "../db/schema/leads";

// Check-then-write races (issue 8): a sales rep's write on a lead must carry "still visible to me" in its own WHERE
// clause, so a colleague's claim a moment earlier wins. On PGlite requests run one after another; the PostgreSQL run
// (TEST_DATABASE_URL) is where the race really happens, 50 rounds each.

const ROUNDS = raceRounds(50);
let t: TestApp;
let dealershipId: string;
let repA: MadeUser & { agent: Agent };
let repB: MadeUser & { agent: Agent };

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db)).id;
  const rep = async () => {
    const user = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
    return { ...user, agent: await signIn(t.app, user) };
  };
  repA = await rep();
  repB = await rep();
});
afterAll(() => t.close());

type Write = (leadId: string) => Promise<{ statusCode: number; json(): { status?: string; claimedBy?: string | null } }>;

async function race(write: Write): Promise<{ claimed: number; written: number; bothWon: number }> {
  let claimed = 0;
  let written = 0;
  let bothWon = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const lead = await makeLead(t.db, { dealershipId });
    const [claim, other] = await Promise.all([repA.agent.post(`/api/leads/${lead.id}/claim`), write(lead.id)]);
    if (claim.statusCode === 200) claimed++;
    if (other.statusCode === 200) {
      written++;
      // An edit answers the lead as it left it: it must still be one rep B may see (the pool, or rep B's own).
      const after = other.json();
      if (after.status !== undefined && after.status !== "new" && after.claimedBy !== repB.id) bothWon++;
    }
    if (claim.statusCode === 200 && other.statusCode === 200) {
      // Both may succeed only when rep B's write came first and left the lead claimable (never for a delete).
      const [row] = await t.db.select().from(leads).where(eq(leads.id, lead.id));
      if (!row || row.claimedBy !== repA.id || row.status !== "claimed") bothWon++;
    }
    expect([200, 404, 409]).toContain(claim.statusCode);
    expect([200, 404]).toContain(other.statusCode);
  }
  return { claimed, written, bothWon };
}

describe("a sales rep's write racing a colleague's claim", () => {
  it("never deletes a lead another rep has just claimed", async () => {
    const outcome = await race((id) => repB.agent.delete(`/api/leads/${id}`));
    expect(outcome.bothWon).toBe(0);
    expect(outcome.claimed + outcome.written).toBe(ROUNDS);
  });

  it("never edits a lead another rep has just claimed", async () => {
    const outcome = await race((id) => repB.agent.patch(`/api/leads/${id}`, { description: "rep B was here" }));
    expect(outcome.bothWon).toBe(0);
  });

  it("never returns to the pool a lead another rep has just claimed", async () => {
    const outcome = await race((id) => repB.agent.patch(`/api/leads/${id}/status`, { status: "new" }));
    expect(outcome.bothWon).toBe(0);
    expect(outcome.claimed).toBe(ROUNDS);
  });

  it("never moves on a lead another rep has just claimed", async () => {
    const outcome = await race((id) => repB.agent.patch(`/api/leads/${id}/status`, { status: "contacted" }));
    expect(outcome.bothWon).toBe(0);
    // Whoever won holds the lead: never both, never neither.
    expect(outcome.claimed + outcome.written).toBe(ROUNDS);
  });
});

describe("another rep's client seen through the appointments area", () => {
  it("is not found, and cannot be scheduled onto", async () => {
    const theirs = await makeLead(t.db, { dealershipId, claimedBy: repA.id });
    const pool = await makeLead(t.db, { dealershipId });
    expect((await repB.agent.get(`/api/leads/${theirs.id}`)).statusCode).toBe(404);
    const list = await repB.agent.get(`/api/appointments?leadId=${theirs.id}`);
    expect(list.statusCode).toBe(404);
    expect(list.json()).toEqual({ message: "Lead not found" });
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const schedule = (leadId: string) =>
      repB.agent.post(`/api/dealerships/${dealershipId}/appointments`, {
        title: "Test drive",
        firstName: "Jo",
        lastName: "Buyer",
        date: tomorrow,
        time: "10:00",
        leadId,
      });
    const refused = await schedule(theirs.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ leadId: "Lead not found in this dealership" });
    expect(await t.db.select().from(appointments).where(eq(appointments.leadId, theirs.id))).toEqual([]);
    // The same rep schedules onto a lead in the pool, and reads its appointments.
    expect((await schedule(pool.id)).statusCode).toBe(201);
    expect((await repB.agent.get(`/api/appointments?leadId=${pool.id}`)).json()).toHaveLength(1);
    // The claimer sees their client's (empty) list.
    expect((await repA.agent.get(`/api/appointments?leadId=${theirs.id}`)).json()).toEqual([]);
  });
});
