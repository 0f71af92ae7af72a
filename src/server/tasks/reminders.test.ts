import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import pino from "pino";
import { browserSubscription, startPushService, type LocalPushService } from "../../../tests/helpers/push-endpoint";
import { startListeningApp, type ListeningApp } from "../../../tests/helpers/realtime-app";
import { createTestApp, createTestDatabase, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { openPostgres, type Database, type Db } from "../db/client";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { notifications, pushNotifications } from "../db/schema/notifications";
import { tasks } from "../db/schema/tasks";
import { remindDueTasks, startTaskRemindersJob, TASK_REMINDERS_QUEUE, type TaskRemindersJob } from "./reminders";

// Reminders (issue 27, decision 198): at its due time a task's assignee gets one bell entry and one push, and only
// once: checked twice, by two app instances at once, or again after a restart.

const HOUR = 3600_000;

async function seed(db: Db) {
  const dealershipId = (await makeDealership(db, { name: "Reminder Motors" })).id;
  const rep = await makeUser(db, { firstName: "Priya", lastName: "Ramanathan-Castellanos", memberships: [{ dealershipId, role: "sales" }] });
  const lead = await makeLead(db, { dealershipId, firstName: "Bartholomew", lastName: "Featherstonehaugh", claimedBy: rep.id });
  return { dealershipId, rep, lead };
}

const bellOf = (db: Db, userId: string) =>
  db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.type, "task_due")));
const pushesOf = (db: Db) => db.select().from(pushNotifications).where(eq(pushNotifications.type, "task_due"));

describe("reminding due tasks", () => {
  let t: TestApp;
  let service: LocalPushService;
  let world: Awaited<ReturnType<typeof seed>>;
  let rep: Agent;

  beforeAll(async () => {
    service = await startPushService();
    t = await createTestApp({ pushLocalEndpoints: true });
    world = await seed(t.db);
    rep = await signIn(t.app, world.rep);
    const subscribed = await rep.post("/api/push/subscriptions", browserSubscription(`${service.origin}/push/rep`).json);
    expect(subscribed.statusCode, subscribed.body).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await service?.close();
  });
  beforeEach(async () => {
    await t.db.delete(tasks);
    await t.db.delete(notifications);
    await t.db.delete(pushNotifications);
  });

  const task = async (dueAt: Date, note?: string) => {
    const response = await rep.post(`/api/leads/${world.lead.id}/tasks`, { type: "call", dueAt: dueAt.toISOString(), ...(note ? { note } : {}) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };

  it("tells the assignee once, in the bell and by push, when the due time comes, and not before", async () => {
    const now = Date.now();
    await task(new Date(now + HOUR), "Ask about the trade-in");
    expect(await remindDueTasks(t.db, new Date(now))).toBe(0);
    expect(await remindDueTasks(t.db, new Date(now + HOUR + 1000))).toBe(1);
    expect(await remindDueTasks(t.db, new Date(now + HOUR + 60_000))).toBe(0);
    await t.app.events.flush();
    expect(await bellOf(t.db, world.rep.id)).toMatchObject([
      { title: "Task Due", message: "Call Bartholomew Featherstonehaugh: Ask about the trade-in", url: `/leads/detail/${world.lead.id}`, leadId: world.lead.id },
    ]);
    expect(await pushesOf(t.db)).toMatchObject([{ targetUserIds: [world.rep.id], title: "Task Due" }]);
  });

  it("reminds again after a reschedule, and never for a task done or cancelled", async () => {
    const now = Date.now();
    const moved = await task(new Date(now - 1000));
    const done = await task(new Date(now - 1000));
    await rep.patch(`/api/tasks/${done}`, { status: "done" });
    expect(await remindDueTasks(t.db, new Date(now))).toBe(1);
    await rep.patch(`/api/tasks/${moved}`, { dueAt: new Date(now + HOUR).toISOString() });
    expect(await remindDueTasks(t.db, new Date(now + 1000))).toBe(0);
    expect(await remindDueTasks(t.db, new Date(now + HOUR))).toBe(1);
    await t.app.events.flush();
    expect(await bellOf(t.db, world.rep.id)).toHaveLength(2);
  });

  it("does not remind late of a task that was due over a day before the first check", async () => {
    const now = Date.now();
    await task(new Date(now - 25 * HOUR));
    expect(await remindDueTasks(t.db, new Date(now))).toBe(0);
  });
});

const onServer = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onServer)("two app instances on one PostgreSQL server, and a restart", () => {
  let databaseA: Awaited<ReturnType<typeof createTestDatabase>>;
  let url: string;
  const opened: Database[] = [];
  const apps: ListeningApp[] = [];
  const jobs: TaskRemindersJob[] = [];
  let world: Awaited<ReturnType<typeof seed>>;
  const logger = pino({ level: "silent" });

  async function instance(): Promise<{ app: ListeningApp; job: TaskRemindersJob; db: Db }> {
    const database = openPostgres(url, 5);
    opened.push(database);
    const app = await startListeningApp(database);
    apps.push(app);
    const job = await startTaskRemindersJob(database, logger, { pollingIntervalSeconds: 0.5 });
    jobs.push(job);
    return { app, job, db: database.db };
  }

  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  const dueTask = async (db: Db, rep: MadeUser) => {
    const [row] = await db.insert(tasks).values({ dealershipId: world.dealershipId, leadId: world.lead.id, type: "call", dueAt: new Date(Date.now() - 1000), assigneeId: rep.id }).returning();
    return row!.id;
  };
  const reminded = async (db: Db, id: string) => (await db.select({ at: tasks.remindedAt }).from(tasks).where(eq(tasks.id, id)))[0]?.at !== null;

  beforeAll(async () => {
    databaseA = await createTestDatabase();
    url = (databaseA as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
    world = await seed(databaseA.db);
  }, 60_000);
  afterAll(async () => {
    for (const job of jobs) await job.stop(0);
    for (const app of apps) await app.close();
    for (const database of opened) await database.close();
    await databaseA?.drop();
  });

  it("reminds once though both instances check at once, and once more after one restarts, for the new task only", async () => {
    const a = await instance();
    const b = await instance();
    // One schedule for every process, kept in the database.
    expect((await a.job.schedules()).map((s) => s.cron)).toEqual(["* * * * *"]);
    const first = await dueTask(a.db, world.rep);
    // Each instance asks for checks, as each process's scheduler would: both workers run them side by side.
    await Promise.all([a.job.checkNow(), b.job.checkNow(), a.job.checkNow(), b.job.checkNow()]);
    await until(() => reminded(a.db, first), "the first reminder");
    await until(async () => (await bellOf(a.db, world.rep.id)).length > 0, "the bell");
    await Promise.all([a.app.app.events.flush(), b.app.app.events.flush()]);
    expect(await bellOf(a.db, world.rep.id)).toHaveLength(1);

    // B stops (its job and its app) and a new instance starts in its place; a task falls due meanwhile.
    await b.job.stop(0);
    await b.app.close();
    const second = await dueTask(a.db, world.rep);
    const c = await instance();
    await Promise.all([c.job.checkNow(), a.job.checkNow()]);
    await until(() => reminded(a.db, second), "the second reminder");
    await until(async () => (await bellOf(a.db, world.rep.id)).length > 1, "the second bell");
    await Promise.all([a.app.app.events.flush(), c.app.app.events.flush()]);
    await c.job.checkNow();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await a.app.app.events.flush();
    const bell = await bellOf(a.db, world.rep.id);
    expect(bell).toHaveLength(2);
    // The queue is the durable pg-boss one, not a timer in memory.
    expect(TASK_REMINDERS_QUEUE).toBe("task-reminders");
  }, 60_000);
});
