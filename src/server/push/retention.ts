import { sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { pushNotifications } from "../db/schema/notifications";
import { NOTIFICATION_RETENTION_DAYS } from "../notifications/in-app";
import { PUSH_QUEUE } from "./push-service";

// Push records are kept as long as the bell's notifications they copy (decision 158, after decision 103): 90 days.
// A push record goes with its push_deliveries (on delete cascade), oldest first, a batch at a time, at most once an
// hour per process, inside an event's dispatch like the bell's own pruning. A record whose job can still run (waiting,
// retrying or running in pg-boss) stays whatever its age: a retry reads its deliveries to skip the browsers already
// reached, and without them a phone would show the notification twice.

export const PUSH_RETENTION_DAYS = NOTIFICATION_RETENTION_DAYS;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
export const PUSH_PRUNE_BATCH = 5000;

let lastPrune = 0;

/** One batch of push records past retention and no longer needed by a retry, oldest first; answers how many went. */
export async function prunePushRecords(tx: Tx, options: { days?: number; batch?: number } = {}): Promise<number> {
  const days = options.days ?? PUSH_RETENTION_DAYS;
  const batch = options.batch ?? PUSH_PRUNE_BATCH;
  // pg-boss's live states: a job waiting, due again after a failed try, or running now (pgboss.job, decision 045).
  const deleted = await tx.execute(sql`
    delete from ${pushNotifications} where ${pushNotifications.id} in (
      select p.id from ${pushNotifications} p
      where p.created_at < now() - make_interval(days => ${days}::int)
        and not (p.status = 'pending' and exists (
          select 1 from pgboss.job j
          where j.name = ${PUSH_QUEUE} and j.state in ('created', 'retry', 'active') and j.data->>'pushNotificationId' = p.id))
      order by p.created_at
      limit ${batch})
    returning ${pushNotifications.id}`);
  return rowCount(deleted);
}

/** Tests: the next event prunes again, however recently this process last did. */
export function forgetLastPushPrune(): void {
  lastPrune = 0;
}

/** Whether this process is due to prune (asked first, so the hot path makes no savepoint for it). */
export function pushPruneDue(now = Date.now()): boolean {
  return now - lastPrune >= PRUNE_EVERY_MS;
}

/** Prunes at most once an hour per process (the dispatcher calls this with every event's push work). */
export async function prunePushRecordsNow(tx: Tx, now = Date.now()): Promise<void> {
  if (!pushPruneDue(now)) return;
  lastPrune = now;
  await prunePushRecords(tx);
}

function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; rowCount?: number | null; length?: number };
  if (Array.isArray(r.rows)) return r.rows.length;
  if (Array.isArray(result)) return result.length;
  return r.rowCount ?? 0;
}
