import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { fromDrizzle, fromPglite, PgBoss, type ConstructorOptions, type Db as BossDb, type DrizzleTransactionLike } from "pg-boss";
import pino, { type Logger } from "pino";
import type { Database, Db, Tx } from "../db/client";

// Work that must outlive the request and the process (mail now, web push later) is a pg-boss job in the app's own
// database: the embedded PGlite or the PostgreSQL server, in the `pgboss` schema (decision 045).

export interface JobQueue {
  boss: PgBoss;
  /** Connects pg-boss to the database (creating or upgrading its schema when needed) and starts its upkeep. */
  start(): Promise<void>;
  /** Stops polling and upkeep; a job still running gets `graceMs` to finish, then counts as a failed try. */
  stop(graceMs: number): Promise<void>;
  /** pg-boss's handle on a drizzle executor, so a job inserted through it commits with the caller's transaction. */
  within(executor: Db | Tx): BossDb;
}

export function createJobQueue(database: Database, logger: Logger, options: Partial<ConstructorOptions> = {}): JobQueue {
  const boss = new PgBoss({ ...connectionOf(database), schedule: false, ...options });
  // An EventEmitter's unheard "error" would crash the process; pg-boss reports its upkeep failures here.
  boss.on("error", (error) => logger.error({ err: error }, "job queue error"));
  boss.on("warning", (warning) => logger.warn({ warning: warning.message }, "job queue warning"));
  let started = false;
  return {
    boss,
    async start() {
      await boss.start();
      started = true;
    },
    async stop(graceMs) {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: graceMs > 0, timeout: graceMs, close: false });
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
  // Only start() runs here, and it throws what goes wrong: nothing for a logger to hear.
  const options: Partial<ConstructorOptions> = { supervise: false, ...(connection ? { db: onConnection(connection) } : {}) };
  const queue = createJobQueue(database, pino({ level: "silent" }), options);
  await queue.start();
  await queue.stop(0);
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
