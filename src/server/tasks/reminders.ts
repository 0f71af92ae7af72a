import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { rowsOf, type Database, type Db } from "../db/client";
import { dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { tasks } from "../db/schema/tasks";
import { publish } from "../events/outbox";
import { createJobQueue } from "../jobs/job-queue";
import { followUpUntouchedLeads } from "./follow-ups";
import { taskSnapshot, type TaskRow } from "./queries";

// Task reminders (issue 27; decision 198): when an open task's due time comes, its assignee gets one bell entry and
// one push. A pg-boss schedule (kept in the database, one for all processes) runs the check every minute in whichever
// process takes the job; the check marks each due task `reminded_at` by a conditional UPDATE that skips rows another
// check holds, and publishes task.due for it in the same transaction. The bell and push follow from the event (its
// words in tasks/notices.ts, who is told in notification-plan.ts), once-only. So a task is reminded once per due time
// however many processes run, and a process that was down reminds on its first check after it starts again.
// Rescheduling or reassigning clears the mark.

export const TASK_REMINDERS_QUEUE = "task-reminders";
const EVERY_MINUTE = "* * * * *";
export const UNTOUCHED_LEADS_QUEUE = "follow-up-untouched-leads";
const EVERY_HOUR = "17 * * * *";
/** A task due longer ago than this when first checked is not reminded late (a server down for days stays quiet). */
const LOOK_BACK = sql`interval '1 day'`;
/** Tasks marked per transaction. */
export const REMINDER_CHUNK = 500;

/** Reminds every open task due by `now` and not yet reminded; answers how many. */
export async function remindDueTasks(db: Db, now: Date = new Date()): Promise<number> {
  let reminded = 0;
  for (;;) {
    const marked = await remindChunk(db, now);
    reminded += marked;
    if (marked < REMINDER_CHUNK) return reminded;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function remindChunk(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const at = now.toISOString();
    const result = await tx.execute(sql`
      with due as (
        select t.id from ${tasks} t join ${dealerships} d on d.id = t.dealership_id
        where t.status = 'open' and t.reminded_at is null and t.due_at <= ${at}::timestamptz
          and t.due_at > ${at}::timestamptz - ${LOOK_BACK} and d.active
        order by t.due_at, t.id
        limit ${REMINDER_CHUNK}
        for update of t skip locked),
      marked as (
        update ${tasks} t set reminded_at = ${at}::timestamptz from due where t.id = due.id
        returning t.*)
      select t.id, t.dealership_id, t.lead_id, t.type, t.due_at, t.assignee_id, t.status, t.note, t.origin, t.completed_at,
        t.created_at, trim(l.first_name || ' ' || l.last_name) as lead_name, null as assignee_name
      from marked t join ${leads} l on l.id = t.lead_id`);
    const rows = rowsOf<TaskRow>(result);
    for (const row of rows) {
      await publish(tx, { type: "task.due", dealershipId: row.dealership_id, actorId: null, payload: { task: taskSnapshot(row) } });
    }
    return rows.length;
  });
}

export interface TaskRemindersJob {
  schedules(): Promise<Array<{ cron: string }>>;
  /** Asks for a check now (the schedule asks every minute); any process's worker may take it. */
  checkNow(): Promise<void>;
  stop(graceMs: number): Promise<void>;
}

/** Schedules the check every minute and works the queue in this process (main.ts; the reminder tests). */
export async function startTaskRemindersJob(database: Database, logger: Logger, options: { pollingIntervalSeconds?: number } = {}): Promise<TaskRemindersJob> {
  const jobs = createJobQueue(database, logger, { schedule: true });
  await jobs.start();
  await jobs.boss.createQueue(TASK_REMINDERS_QUEUE);
  await jobs.boss.schedule(TASK_REMINDERS_QUEUE, EVERY_MINUTE, null, { retryLimit: 0 });
  await jobs.boss.work(TASK_REMINDERS_QUEUE, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 15 }, async () => {
    const reminded = await remindDueTasks(database.db);
    if (reminded > 0) logger.info({ reminded }, "task reminders sent");
  });
  // The untouched-lead follow-up (decision 200) looks over every worked client: hourly is soon enough for "N days".
  await jobs.boss.createQueue(UNTOUCHED_LEADS_QUEUE);
  await jobs.boss.schedule(UNTOUCHED_LEADS_QUEUE, EVERY_HOUR, null, { retryLimit: 0 });
  await jobs.boss.work(UNTOUCHED_LEADS_QUEUE, { pollingIntervalSeconds: 60 }, async () => {
    const made = await followUpUntouchedLeads(database.db);
    if (made > 0) logger.info({ made }, "untouched-lead follow-ups made");
  });
  return {
    schedules: () => jobs.boss.getSchedules(TASK_REMINDERS_QUEUE),
    checkNow: async () => {
      await jobs.boss.send(TASK_REMINDERS_QUEUE, null, { retryLimit: 0 });
    },
    stop: (graceMs) => jobs.stop(graceMs),
  };
}
