// PostgreSQL only (TEST_DATABASE_URL): PGlite runs one statement at a time on its one connection, so fifty PATCHes
// of one task are served one after the other there and nothing can interleave; on PGlite this file is skipped.
import { and, asc, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leadActivity } from "../db/schema/activity";
import { domainEvents } from "../db/schema/events";
import { tasks } from "../db/schema/tasks";

// Fifty people (the rep, front desk, management) completing and rescheduling one follow-up task at the same moment
// (issue 27; decision 196): the row lock serialises them. The task ends in one state; every answer is 200 or a 409
// "already done", never a 500; exactly one task.completed; one task.rescheduled per real change of the due time (a
// reschedule to the time it already has is no change: 200, no event), chained from the first due time to the last;
// and the lead's timeline has one entry per event, no more.

const PARALLEL = 50;
const ROUND_TIMEOUT = 120_000;
const TZ = "America/Toronto";
let t: TestApp;
let dealershipId: string;
let people: Agent[];
let repId: string;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db, { timezone: TZ })).id;
  const rep = await makeUser(t.db, { firstName: "Oluwaseun", lastName: "Adeyemi-Okonkwo", memberships: [{ dealershipId, role: "sales" }] });
  repId = rep.id;
  people = [await signIn(t.app, rep)];
  for (const role of ["frontDesk", "management"] as const) {
    people.push(await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role }] })));
  }
});
afterAll(() => t.close());

const person = (i: number) => people[i % people.length] as Agent;
/** Five due times: most reschedules repeat one another, so some find the time already set. */
const dueTimes = Array.from({ length: 5 }, (_, i) => new Date(Date.UTC(2031, 0, 6 + i, 15, 0)).toISOString());

interface Outcome {
  status: number;
  body: { status?: string; dueAt?: string; message?: string };
}

async function openTask(): Promise<{ taskId: string; leadId: string; firstDue: string }> {
  const lead = await makeLead(t.db, { dealershipId, firstName: "Maria Guadalupe", lastName: "Wojciechowski-Hernández", claimedBy: repId });
  const created = await person(0).post(`/api/leads/${lead.id}/tasks`, { type: "call", dueAt: "2031-01-05T09:30", note: "Ask about the trade-in" });
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json() as { id: string; dueAt: string };
  return { taskId: body.id, leadId: lead.id, firstDue: body.dueAt };
}

async function race(taskId: string, change: (i: number) => Record<string, unknown>): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: PARALLEL }, async (_, i): Promise<Outcome> => {
      const answer = await person(i).patch(`/api/tasks/${taskId}`, change(i));
      return { status: answer.statusCode, body: answer.json() as Outcome["body"] };
    }),
  );
}

async function eventsOf(taskId: string) {
  const rows = await t.db
    .select()
    .from(domainEvents)
    .where(and(like(domainEvents.type, "task.%"), sql`${domainEvents.payload} -> 'task' ->> 'id' = ${taskId}`))
    .orderBy(asc(domainEvents.id));
  return rows.map((r) => ({ id: r.id, type: r.type, payload: r.payload as { task: { dueAt: string; status: string }; previousDueAt?: string } }));
}

async function timelineOf(leadId: string) {
  return t.db.select().from(leadActivity).where(and(eq(leadActivity.leadId, leadId), like(leadActivity.type, "task.%"))).orderBy(asc(leadActivity.id));
}

/** The rescheduled events form one chain from the first due time, each a real move, ending at `last`. */
function expectChain(events: Array<{ type: string; payload: { task: { dueAt: string }; previousDueAt?: string } }>, first: string, last: string) {
  let due = first;
  for (const event of events.filter((e) => e.type === "task.rescheduled")) {
    expect(event.payload.previousDueAt).toBe(due);
    expect(event.payload.task.dueAt).not.toBe(due);
    due = event.payload.task.dueAt;
  }
  expect(due).toBe(last);
}

describe.runIf(process.env.TEST_DATABASE_URL)(`${PARALLEL} PATCHes of one task at once`, () => {
  it(
    "completes and reschedules: one state, one task.completed, one event and one timeline entry per real change",
    async () => {
      const { taskId, leadId, firstDue } = await openTask();
      // Every fifth asks for Done, the others for one of five due times.
      const outcomes = await race(taskId, (i) => (i % 5 === 2 ? { status: "done" } : { dueAt: dueTimes[i % dueTimes.length] }));

      expect(outcomes.filter((o) => o.status !== 200 && o.status !== 409), JSON.stringify(outcomes)).toEqual([]);
      for (const o of outcomes.filter((x) => x.status === 409)) expect(o.body.message).toBe("This task is already done");
      // Exactly one Done was served before the task closed; everything after it was refused.
      const done = outcomes.filter((o) => o.status === 200 && o.body.status === "done");
      expect(done).toHaveLength(1);

      const [row] = await t.db.select().from(tasks).where(eq(tasks.id, taskId));
      expect(row!.status).toBe("done");
      expect(row!.completedAt).not.toBeNull();
      expect(row!.dueAt.toISOString()).toBe(done[0]!.body.dueAt);

      const events = await eventsOf(taskId);
      expect(events.map((e) => e.type).filter((type) => type !== "task.rescheduled")).toEqual(["task.created", "task.completed"]);
      expect(events.at(-1)!.type).toBe("task.completed");
      // The reschedules served (open answers) are at least the events: a repeat of the time already set changed nothing.
      const served = outcomes.filter((o) => o.status === 200 && o.body.status === "open");
      const moves = events.filter((e) => e.type === "task.rescheduled");
      expect(moves.length).toBeLessThanOrEqual(served.length);
      expectChain(events, firstDue, row!.dueAt.toISOString());

      // One timeline entry per event of the task, no more, no fewer.
      const timeline = await timelineOf(leadId);
      expect(timeline.map((e) => e.eventId)).toEqual(events.filter((e) => e.type !== "task.created").map((e) => e.id));
      expect(timeline.map((e) => e.type)).toEqual(events.filter((e) => e.type !== "task.created").map((e) => e.type));
    },
    ROUND_TIMEOUT,
  );

  it(
    "reschedules only: all answered 200, the last time served stands, and only real moves are events and entries",
    async () => {
      const { taskId, leadId, firstDue } = await openTask();
      const outcomes = await race(taskId, (i) => ({ dueAt: dueTimes[i % dueTimes.length] }));

      expect(outcomes.map((o) => o.status)).toEqual(Array(PARALLEL).fill(200));
      const [row] = await t.db.select().from(tasks).where(eq(tasks.id, taskId));
      expect(row!.status).toBe("open");
      expect(dueTimes).toContain(row!.dueAt.toISOString());

      const events = await eventsOf(taskId);
      const moves = events.filter((e) => e.type === "task.rescheduled");
      expect(events.length).toBe(moves.length + 1);
      expect(moves.length).toBeGreaterThanOrEqual(1);
      expect(moves.length).toBeLessThan(PARALLEL);
      expectChain(events, firstDue, row!.dueAt.toISOString());
      // Each answer is the task as that request left it: one of the times asked for.
      for (const o of outcomes) expect(dueTimes).toContain(o.body.dueAt);

      const timeline = await timelineOf(leadId);
      expect(timeline.map((e) => e.eventId)).toEqual(moves.map((e) => e.id));
    },
    ROUND_TIMEOUT,
  );
});
