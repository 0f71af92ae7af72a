import { sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "../db/client";
import { HttpError } from "../http/errors";

// Counters of attempts (sign-ins, e-mailed codes) in the login_attempts table, shared by every app process
// (decisions 004, 007, 008). An attempt is counted BEFORE the thing it tries is checked, in one statement, so a
// burst of concurrent attempts cannot all slip under the limit: the row lock of INSERT ... ON CONFLICT DO UPDATE
// hands out the counts 1, 2, 3 ... one at a time, and only the attempts counted within the limit go on.

export interface CounterRule {
  /** "<kind>:<what>", e.g. "account:dana@example.com"; kinds keep the counters of different limits apart. */
  key: string;
  /** Attempts allowed in one window; the next one starts the block. */
  limit: number;
  windowMs: number;
  blockMs: number;
}

export interface CountedAttempt {
  /** Seconds until every key of the attempt is free again; null when the attempt may go on. */
  blockedForSeconds: number | null;
  /** The count this attempt got per key (unchanged when it was refused and so not counted). */
  counts: Record<string, number>;
}

const seconds = (ms: number) => ms / 1000;

/**
 * Counts one attempt against every key in one statement and answers whether any key is (now) blocked.
 * - A key already blocked refuses the attempt, and a refused attempt counts against none of its keys, so a block
 *   never slides forward and hammering a blocked account does not also block the office's address.
 * - The attempt that goes past a key's limit starts that key's block and is refused itself: exactly `limit`
 *   attempts per window go on, however many arrive at once.
 * - A window that has passed, or a block that has ended, starts the count afresh.
 * Keys are locked in the order given; callers always list them in the same order of kinds, so two attempts
 * cannot wait on each other's rows.
 */
export async function countAttempt(db: Db | Tx, rules: CounterRule[]): Promise<CountedAttempt> {
  const params = sql.join(
    rules.map(
      (r, i) =>
        sql`(${i}::int, ${r.key}::text, ${r.limit}::int, make_interval(secs => ${seconds(r.windowMs)}::float8), make_interval(secs => ${seconds(r.blockMs)}::float8))`,
    ),
    sql`, `,
  );
  // One subquery per parameter: ON CONFLICT DO UPDATE can only name the existing row (a) and excluded.
  const param = (column: "lim" | "win" | "blk") => sql.raw(`(select p.${column} from params p where p.key = a.key)`);
  const refused = sql`(a.blocked_until > now() or (select until from before) is not null)`;
  const fresh = sql`(a.window_start <= now() - ${param("win")} or a.blocked_until <= now())`;
  const next = sql`(case when ${fresh} then 1 else a.failures + 1 end)`;
  const result = await db.execute(sql`
    with params(ord, key, lim, win, blk) as (values ${params}),
    before as (
      select max(blocked_until) as until from login_attempts
      where key in (select key from params) and blocked_until > now()
    ),
    counted as (
      insert into login_attempts as a (key, failures, window_start, blocked_until)
      select p.key,
             case when (select until from before) is null then 1 else 0 end,
             now(),
             case when (select until from before) is null and 1 > p.lim then now() + p.blk end
      from params p
      order by p.ord
      on conflict (key) do update set
        failures = case when ${refused} then a.failures else ${next} end,
        window_start = case when ${refused} then a.window_start when ${fresh} then now() else a.window_start end,
        blocked_until = case
          when ${refused} then a.blocked_until
          when ${next} > ${param("lim")} then now() + ${param("blk")}
          else null
        end
      returning a.key, a.failures, a.blocked_until
    ),
    blocked as (
      select greatest((select until from before), (select max(blocked_until) from counted where blocked_until > now())) as until
    )
    select c.key, c.failures,
           (select ceil(extract(epoch from (until - now())))::int from blocked) as blocked_for
    from counted c
  `);
  const rows = rowsOf<{ key: string; failures: number; blocked_for: number | null }>(result);
  const blockedFor = rows[0]?.blocked_for ?? null;
  return {
    blockedForSeconds: blockedFor === null ? null : Math.max(1, blockedFor),
    counts: Object.fromEntries(rows.map((r) => [r.key, Number(r.failures)])),
  };
}

/**
 * Takes attempts back off keys (the attempt turned out right, or was never really a guess). Never below zero;
 * a block already started stays: it was started by attempts that came after.
 */
export async function giveBackAttempts(db: Db | Tx, amounts: Record<string, number>): Promise<void> {
  const entries = Object.entries(amounts).filter(([, n]) => n > 0);
  if (entries.length === 0) return;
  // One short statement per key: no statement holds one counter's row while waiting for another's, so giving
  // back can never deadlock with countAttempt.
  for (const [key, n] of entries) {
    await db.execute(sql`update login_attempts set failures = greatest(failures - ${n}::int, 0) where key = ${key}`);
  }
}

/** The count of a key in its current window (0 when none), and whether it is blocked now. */
export async function attemptsSoFar(db: Db | Tx, rule: CounterRule): Promise<{ count: number; blocked: boolean }> {
  const result = await db.execute(sql`
    select case when window_start <= now() - make_interval(secs => ${seconds(rule.windowMs)}::float8) or blocked_until <= now()
                then 0 else failures end as count,
           coalesce(blocked_until > now(), false) as blocked
    from login_attempts where key = ${rule.key}
  `);
  const [row] = rowsOf<{ count: number; blocked: boolean }>(result);
  return { count: Number(row?.count ?? 0), blocked: row?.blocked ?? false };
}

/** 429 with Retry-After in seconds. */
export function tooManyAttempts(message: string, blockedForSeconds: number): HttpError {
  return new HttpError(429, message, undefined, { "retry-after": String(blockedForSeconds) });
}
