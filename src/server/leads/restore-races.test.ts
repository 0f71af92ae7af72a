import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadlocksCounted } from "../../../tests/helpers/deadlocks";
import { ON_DATABASE_SERVER, raceRounds } from "../../../tests/helpers/races";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { leadActivity, leadNotes } from "../db/schema/activity";
import { appointments } from "../db/schema/appointments";
import { deletedLeads } from "../db/schema/deleted-leads";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";

// Deletes and restores of one lead at once (issue 30, decision 214): 50 requests, every answer 200 or 404 (never a
// 500), the lead either in the leads table or in the archive and never both nor neither, and after the last restore
// it has every row it had. Repeated on PostgreSQL, where the requests really overlap, with no deadlock counted.

const REQUESTS = 50;
let t: TestApp;
let dealershipId: string;
let managers: Agent[];
let ownerId: string;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db)).id;
  managers = [];
  for (let i = 0; i < 5; i++) {
    const user = await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] });
    ownerId = user.id;
    managers.push(await signIn(t.app, user));
  }
});
afterAll(() => t.close());

const who = (i: number) => managers[i % managers.length] as Agent;

async function clientWithHistory(round: number): Promise<string> {
  const created = await who(0).post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Race", lastName: `Round ${round}`, email: `race-${round}-${Math.random()}@example.com` });
  expect(created.statusCode, created.body).toBe(201);
  const id = (created.json() as { id: string }).id;
  expect((await who(1).post(`/api/leads/${id}/notes`, { body: "Trade-in: 2015 Subaru Outback" })).statusCode).toBe(201);
  await makeAppointment(t.db, { dealershipId, userId: ownerId, date: "2026-12-03", leadId: id });
  return id;
}

async function state(id: string) {
  const [inLeads] = await t.db.select({ n: sql<number>`count(*)::int` }).from(leads).where(eq(leads.id, id));
  const [archived] = await t.db.select({ n: sql<number>`count(*)::int` }).from(deletedLeads).where(eq(deletedLeads.leadId, id));
  const [notes] = await t.db.select({ n: sql<number>`count(*)::int` }).from(leadNotes).where(eq(leadNotes.leadId, id));
  const [entries] = await t.db.select({ n: sql<number>`count(*)::int` }).from(leadActivity).where(and(eq(leadActivity.leadId, id), sql`${leadActivity.type} <> 'lead.restored'`));
  const [linked] = await t.db.select({ n: sql<number>`count(*)::int` }).from(appointments).where(eq(appointments.leadId, id));
  return { inLeads: inLeads!.n, archived: archived!.n, notes: notes!.n, entries: entries!.n, appointments: linked!.n };
}

async function events(type: string, id: string): Promise<number> {
  const [row] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(domainEvents)
    .where(and(eq(domainEvents.type, type), sql`${domainEvents.payload}->'lead'->>'id' = ${id}`));
  return row!.n;
}

describe("deleting and restoring one lead at once", () => {
  it(`${REQUESTS} restores of a deleted lead: one brings it back, the others 404`, { timeout: 180_000 }, async () => {
    const before = ON_DATABASE_SERVER ? await deadlocksCounted(t) : 0;
    for (let round = 0; round < raceRounds(5); round++) {
      const id = await clientWithHistory(round);
      const had = await state(id);
      expect((await who(2).delete(`/api/leads/${id}`)).statusCode).toBe(200);
      const codes = (await Promise.all(Array.from({ length: REQUESTS }, (_, i) => who(i).post(`/api/leads/${id}/restore`)))).map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c === 404)).toHaveLength(REQUESTS - 1);
      expect(await state(id)).toEqual({ ...had, archived: 0 });
      expect(await events("lead.restored", id)).toBe(1);
    }
    if (ON_DATABASE_SERVER) expect(await deadlocksCounted(t)).toBe(before);
  });

  it(`${REQUESTS} deletes and restores mixed: 200 or 404 only, one place for the lead, nothing lost`, { timeout: 180_000 }, async () => {
    const before = ON_DATABASE_SERVER ? await deadlocksCounted(t) : 0;
    for (let round = 0; round < raceRounds(5); round++) {
      const id = await clientWithHistory(100 + round);
      const had = await state(id);
      const answers = await Promise.all(
        Array.from({ length: REQUESTS }, (_, i) => (i % 2 === 0 ? who(i).delete(`/api/leads/${id}`) : who(i).post(`/api/leads/${id}/restore`))),
      );
      for (const answer of answers) expect([200, 404], answer.body).toContain(answer.statusCode);
      const deletes = answers.filter((a, i) => i % 2 === 0 && a.statusCode === 200).length;
      const restores = answers.filter((a, i) => i % 2 === 1 && a.statusCode === 200).length;
      // Each restore undid one delete; the lead is where the last of them left it.
      expect(deletes - restores).toBeGreaterThanOrEqual(0);
      expect(deletes - restores).toBeLessThanOrEqual(1);
      const now = await state(id);
      expect(now.inLeads + now.archived).toBe(1);
      expect(now.inLeads).toBe(1 - (deletes - restores));
      expect(await events("lead.deleted", id)).toBe(deletes);
      expect(await events("lead.restored", id)).toBe(restores);
      if (now.archived) expect((await who(0).post(`/api/leads/${id}/restore`)).statusCode).toBe(200);
      expect(await state(id)).toEqual({ ...had, archived: 0 });
    }
    if (ON_DATABASE_SERVER) expect(await deadlocksCounted(t)).toBe(before);
  });
});
