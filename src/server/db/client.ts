import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { installJobQueue } from "../jobs/job-queue";
import { PROJECT_ROOT } from "../project-root";
import * as schema from "./schema/index";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle: the same query surface as Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** Connections running a statement and statements waiting for one, now (metrics). */
  load(): { inUse: number; waiting: number };
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(PROJECT_ROOT, "drizzle");
// Any constant shared by all app processes: only one of them applies migrations at a time.
const MIGRATION_LOCK_KEY = 7_470_012_345;

/**
 * Extensions the migrations create (pg_trgm and btree_gin: leads search, decisions 011 and 226). Every PGlite instance that opens the
 * app's data must be made with these, or queries touching them fail: use `newPglite`.
 */
export const PGLITE_EXTENSIONS = { pg_trgm, btree_gin };

/**
 * PGlite runs each statement synchronously inside the process, and a request waiting for the one connection resumes
 * as a promise continuation: under load, the whole queue of waiting statements ran back to back without the event
 * loop reaching its poll phase, so new connections were accepted about one per queue drain (about 100 ms) and their
 * first requests waited 1-4 s while open connections were served (2026-11-27, bench/README.md). One turn of the
 * event loop after taking the connection, before each statement or transaction, lets waiting connections in. Always,
 * not only when statements queue: connections still in the accept queue are not waiting for the connection yet, and
 * yielding only then left p99 at 2-3.5 s (decision 166).
 */
class TakingTurnsPGlite extends PGlite {
  /** Statements and transactions asked for and not finished: one runs, the rest wait (metrics). */
  asked = 0;
  override async _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> {
    this.asked++;
    try {
      return await super._runExclusiveTransaction(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return fn();
      });
    } finally {
      this.asked--;
    }
  }
}

export function newPglite(dataDir?: string, options: PGliteOptions = {}): PGlite {
  // PostgreSQL's default 128 MB of shared buffers live inside PGlite's WebAssembly memory, which never shrinks. 16 MB
  // keeps about 110 MB less resident at no CPU cost on a million leads: the pages it does not keep are read from the
  // operating system's cache (decision 061). Durability is unchanged.
  const startParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];
  // PGlite ignores the options argument when the first one is not a string: always pass one object.
  return new TakingTurnsPGlite({ startParams, ...options, ...(dataDir ? { dataDir } : {}), extensions: { ...PGLITE_EXTENSIONS, ...options.extensions } });
}

/** Embedded PostgreSQL (PGlite). dataDir undefined means in memory; a PGlite instance may be passed (tests). */
export function openPglite(options: { dataDir?: string; client?: PGlite }): Database {
  if (options.dataDir) mkdirSync(path.dirname(options.dataDir), { recursive: true });
  const client = options.client ?? newPglite(options.dataDir);
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    ping: async () => {
      await client.query("select 1");
    },
    load: () => {
      const asked = client instanceof TakingTurnsPGlite ? client.asked : 0;
      return { inUse: Math.min(asked, 1), waiting: Math.max(asked - 1, 0) };
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

export function openPostgres(connectionString: string, poolSize = 10): Database & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle connection dropped by the server (restart, failover) must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    pool,
    kind: "postgres",
    ping: async () => {
      await pool.query("select 1");
    },
    load: () => ({ inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

/**
 * Applies pending migrations and creates or upgrades the job queue's schema (pg-boss, decision 045). On a server, an
 * advisory lock lets several processes start at once safely.
 */
export async function migrateDatabase(database: Database, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  if (database.kind === "pglite") {
    await migratePglite(database.db as never, { migrationsFolder });
    await installJobQueue(database);
    return;
  }
  const pool = (database as Database & { pool: pg.Pool }).pool;
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg({ client }), { migrationsFolder });
    // On the locked connection: two processes creating pg-boss's schema at once collide.
    await installJobQueue(database, client);
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}

/** True when every migration this build ships is applied (readiness: a process never serves an older schema). */
export async function migrationsDone(db: Db): Promise<boolean> {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as { entries: unknown[] };
  const result = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return (rowsOf<{ n: number }>(result)[0]?.n ?? 0) >= journal.entries.length;
}

export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const result = await db.execute(sql`select count(*)::int as n from dealerships`);
  return (rowsOf<{ n: number }>(result)[0]?.n ?? 0) === 0;
}

/** Rows of a db.execute result: node-postgres and PGlite both answer { rows }. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
