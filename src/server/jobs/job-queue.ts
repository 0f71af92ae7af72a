import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { fromDrizzle, fromPglite, PgBoss, type ConstructorOptions, type Db as BossDb, type DrizzleTransactionLike } from "pg-boss";
import type { Logger } from "pino";
import type { Database, Db, Tx } from "../db/client";

// Work that must outlive the request and the process (mail, web push, the unattended-leads and task-reminder checks)
// is a pg-boss job in the app's own database: the embedded PGlite or the PostgreSQL server, in the `pgboss` schema
// (decision 045). A process runs ONE pg-boss instance per database (decision 187): each user (the mail queue, push,
// each scheduled check) takes a handle on it; the instance starts with the first handle started and stops with the
// last one stopped; a handle stopped before that stops only its own workers. The one instance runs the scheduler
// (cron), which the scheduled checks need.

export interface JobQueue {
  /** The process's one instance; `work` through it is this handle's worker, stopped by this handle's stop(). */
  boss: PgBoss;
  /** Connects pg-boss to the database (creating or upgrading its schema when needed) and starts its upkeep. */
  start(): Promise<void>;
  /** Stops polling and upkeep; a job still running gets `graceMs` to finish, then counts as a failed try. */
  stop(graceMs: number): Promise<void>;
  /** pg-boss's handle on a drizzle executor, so a job inserted through it commits with the caller's transaction. */
  within(executor: Db | Tx): BossDb;
}

interface Shared {
  boss: PgBoss;
  /** Handles started and not stopped. */
  users: number;
  starting: Promise<void> | null;
}

const instances = new WeakMap<Database, Shared>();
let instancesMade = 0;

/** How many running pg-boss instances this process has made so far (one per database; tests count them). */
export function jobQueueInstancesMade(): number {
  return instancesMade;
}

function instanceFor(database: Database, logger: Logger): Shared {
  let shared = instances.get(database);
  if (!shared) {
    const boss = new PgBoss({ ...connectionOf(database), schedule: true });
    instancesMade++;
    // An EventEmitter's unheard "error" would crash the process; pg-boss reports its upkeep failures here.
    boss.on("error", (error) => logger.error({ err: error }, "job queue error"));
    boss.on("warning", (warning) => logger.warn({ warning: warning.message }, "job queue warning"));
    instances.set(database, (shared = { boss, users: 0, starting: null }));
  }
  return shared;
}

/** Waits for the promise, but no longer than `ms`. */
function within(ms: number, promise: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, Math.max(ms, 0))));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * A handle on the process's one pg-boss instance for `database`. `options` is kept for callers that asked for the
 * scheduler: the one instance always runs it.
 */
export function createJobQueue(database: Database, logger: Logger, _options: Pick<ConstructorOptions, "schedule"> = {}): JobQueue {
  const shared = instanceFor(database, logger);
  /** This handle's workers (queue and id), so stopping it stops only them while others still use the instance. */
  const workers: Array<{ name: string; id: string }> = [];
  // The instance as this handle's users see it: the same object, except that work() records the worker it starts.
  const boss = new Proxy(shared.boss, {
    get(target, property) {
      if (property === "work") {
        return async (name: string, ...rest: unknown[]) => {
          const id = await (target.work as (name: string, ...rest: unknown[]) => Promise<string>)(name, ...rest);
          workers.push({ name, id });
          return id;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  let started = false;
  return {
    boss,
    async start() {
      if (started) return;
      started = true;
      if (shared.users++ === 0) shared.starting = shared.boss.start().then(() => undefined);
      try {
        await shared.starting;
      } catch (error) {
        started = false;
        shared.users--;
        throw error;
      }
    },
    async stop(graceMs) {
      if (!started) return;
      started = false;
      const mine = workers.splice(0);
      if (--shared.users === 0) {
        await shared.boss.stop({ graceful: graceMs > 0, timeout: graceMs, close: false });
        return;
      }
      // Others still use the instance: stop this handle's workers, their jobs in flight within the grace.
      await within(graceMs, Promise.all(mine.map(({ name, id }) => shared.boss.offWork(name, { id, wait: true }))));
    },
    within(executor) {
      // Both drivers answer db.execute with { rows }, which is all pg-boss reads; drizzle's types leave it generic.
      return fromDrizzle(executor as unknown as DrizzleTransactionLike, sql);
    },
  };
}

/**
 * Creates or upgrades pg-boss's schema. Part of the app's migration step, so a process (or a test's copy of the
 * migrated template) starts the queue without doing this work. On a server, `connection` is the one holding the
 * migration lock.
 */
export async function installJobQueue(database: Database, connection?: pg.ClientBase): Promise<void> {
  // An instance of its own, started and stopped at once on the migration's connection: not the process's running one.
  // Only start() runs here, and it throws what goes wrong: nothing for a logger to hear.
  const boss = new PgBoss({ ...connectionOf(database), schedule: false, supervise: false, ...(connection ? { db: onConnection(connection) } : {}) });
  boss.on("error", () => undefined);
  await boss.start();
  await boss.stop({ graceful: false, close: false });
}

/** pg-boss runs on the app's own connection: PGlite's single one, or the server pool drizzle uses. */
function connectionOf(database: Database): Pick<ConstructorOptions, "db" | "backend"> {
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === "pglite") return { db: fromPglite(client as PGlite), backend: "pglite" };
  return { db: onConnection(client as pg.Pool), backend: "postgres" };
}

/**
 * pg-boss on a node-postgres pool or connection. A statement without values goes out as a simple query, so pg-boss's
 * multi-statement DDL runs as it does on pg-boss's own pool.
 */
function onConnection(connection: pg.Pool | pg.ClientBase): BossDb {
  return { executeSql: (text, values) => connection.query(text, values) };
}
