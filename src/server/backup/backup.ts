import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { migrateDatabase, MIGRATIONS_FOLDER, openPglite, openPostgres, rowsOf, type Database } from "../db/client";

// Backups and restores (issue 31, decision 212). One file, a tar archive holding:
// - manifest.json: where it came from, at which migration, and what is inside;
// - the database: from a PostgreSQL server, pg_dump's custom format (database.dump), restored by pg_restore; from the
//   embedded database, each table of the app's schema in COPY's text format (tables/*.copy), read inside one
//   transaction (PGlite has one connection, so nothing else runs meanwhile), loaded by psql's \copy into a server or by
//   COPY into PGlite;
// - files/: the uploaded files of DATA_DIR (avatars) and DATA_DIR/app-secret.key, without which no two-factor code
//   verifies (unless APP_SECRET is set, which the target then needs too).

const run = promisify(execFile);
const FORMAT = 1;
/** Files of DATA_DIR a backup carries (the embedded database itself is dumped, not copied). */
const DATA_FILES = ["avatars", "app-secret.key"];

export interface BackupTarget {
  /** DATA_DIR: uploaded files, the key file, and (without databaseUrl) the embedded database under pglite/. */
  dataDir: string;
  databaseUrl?: string | undefined;
}

interface TableDump {
  schema: string;
  name: string;
  columns: string[];
  file: string;
  rows: number;
}

interface Manifest {
  format: number;
  database: "pglite" | "postgres";
  /** Migrations applied in the backed-up database: a restore migrates to this first, then to the current build. */
  migrations: number;
  createdAt: string;
  tables?: TableDump[];
  sequences?: Array<{ name: string; value: string }>;
  files: string[];
}

export interface BackupSummary {
  database: "pglite" | "postgres";
  tables: number;
  rows: number;
  files: string[];
}

export class BackupError extends Error {}

/** Writes a backup of a database the caller holds open (the serving process's PGlite, or any server). */
export async function writeBackup(database: Database, target: BackupTarget, file: string): Promise<BackupSummary> {
  const staging = mkdtempSync(path.join(os.tmpdir(), "showroom-backup-"));
  try {
    let manifest: Manifest;
    if (database.kind === "pglite") {
      manifest = await dumpPglite(clientOf(database) as PGlite, staging);
    } else {
      if (!target.databaseUrl) throw new BackupError("a server backup needs DATABASE_URL");
      const migrations = await appliedMigrations(database);
      await tool("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${path.join(staging, "database.dump")}`, `--dbname=${target.databaseUrl}`]);
      manifest = { format: FORMAT, database: "postgres", migrations, createdAt: new Date().toISOString(), files: [] };
    }
    manifest.files = copyDataFiles(target.dataDir, path.join(staging, "files"));
    writeFileSync(path.join(staging, "manifest.json"), JSON.stringify(manifest, null, 2));
    // Written beside the target and renamed: a backup cut short never looks like a whole one.
    const partial = `${path.resolve(file)}.partial`;
    await tool("tar", ["-cf", partial, "-C", staging, "."]);
    renameSync(partial, path.resolve(file));
    const tables = manifest.tables ?? [];
    return { database: manifest.database, tables: tables.length, rows: tables.reduce((n, t) => n + t.rows, 0), files: manifest.files };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Restores a backup into DATABASE_URL, or into DATA_DIR/pglite. Refuses a database that holds users or dealerships
 * unless `force`: then a server's schemas are dropped first, and an embedded database is moved aside (kept).
 */
export async function restoreBackup(target: BackupTarget, file: string, options: { force: boolean }): Promise<BackupSummary> {
  if (!existsSync(file)) throw new BackupError(`no such file: ${file}`);
  const staging = mkdtempSync(path.join(os.tmpdir(), "showroom-restore-"));
  try {
    await tool("tar", ["-xf", path.resolve(file), "-C", staging]);
    const manifestFile = path.join(staging, "manifest.json");
    if (!existsSync(manifestFile)) throw new BackupError(`${file} is not a Showroom backup (no manifest.json)`);
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
    if (manifest.format !== FORMAT) throw new BackupError(`${file} is a backup of format ${manifest.format}; this version reads format ${FORMAT}`);
    const shipped = journalEntries().length;
    if (manifest.migrations > shipped) {
      throw new BackupError(`the backup is from a newer version of Showroom (${manifest.migrations} migrations, this one has ${shipped}): upgrade first`);
    }

    if (target.databaseUrl) await restoreIntoServer(target.databaseUrl, manifest, staging, options.force);
    else await restoreIntoPglite(path.join(target.dataDir, "pglite"), manifest, staging, options.force);

    restoreDataFiles(path.join(staging, "files"), target.dataDir, manifest.files);
    const tables = manifest.tables ?? [];
    return { database: manifest.database, tables: tables.length, rows: tables.reduce((n, t) => n + t.rows, 0), files: manifest.files };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

// ---- The embedded database ----

/** Every table of the app's schema, parents before the tables whose foreign keys point at them. */
const TABLES_SQL = `
  select c.oid::int as oid, n.nspname as schema, c.relname as name,
    (select coalesce(json_agg(a.attname order by a.attnum), '[]'::json) from pg_attribute a
      where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = '') as columns,
    (select coalesce(json_agg(distinct f.confrelid::int), '[]'::json) from pg_constraint f
      where f.conrelid = c.oid and f.contype = 'f' and f.confrelid <> c.oid) as parents
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind in ('r', 'p')`;

interface TableRow {
  oid: number;
  schema: string;
  name: string;
  columns: string[];
  parents: number[];
}

function inLoadOrder(tables: TableRow[]): TableRow[] {
  const byOid = new Map(tables.map((t) => [t.oid, t]));
  const ordered: TableRow[] = [];
  const state = new Map<number, "visiting" | "done">();
  const visit = (table: TableRow) => {
    if (state.get(table.oid) === "done") return;
    if (state.get(table.oid) === "visiting") throw new BackupError(`foreign keys form a cycle through ${table.name}`);
    state.set(table.oid, "visiting");
    for (const parent of table.parents) {
      const found = byOid.get(parent);
      if (found) visit(found);
    }
    state.set(table.oid, "done");
    ordered.push(table);
  };
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(table);
  return ordered;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const qualified = (t: { schema: string; name: string }) => `${ident(t.schema)}.${ident(t.name)}`;
const columnList = (columns: string[]) => columns.map(ident).join(", ");

async function dumpPglite(client: PGlite, staging: string): Promise<Manifest> {
  mkdirSync(path.join(staging, "tables"));
  // One transaction: PGlite runs nothing else until it ends, so every table is read at the same moment.
  return client.transaction(async (tx) => {
    const tables = inLoadOrder((await tx.query<TableRow>(TABLES_SQL)).rows);
    const dumps: TableDump[] = [];
    for (const [index, table] of tables.entries()) {
      const result = await tx.query(`copy ${qualified(table)} (${columnList(table.columns)}) to '/dev/blob'`);
      const data = result.blob ? Buffer.from(await result.blob.arrayBuffer()) : Buffer.alloc(0);
      const fileName = `tables/${String(index).padStart(3, "0")}-${table.name}.copy`;
      writeFileSync(path.join(staging, fileName), data);
      dumps.push({ schema: table.schema, name: table.name, columns: table.columns, file: fileName, rows: result.affectedRows ?? 0 });
    }
    const sequences = (
      await tx.query<{ name: string; value: string | null }>(
        `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name, last_value::text as value from pg_sequences where schemaname = 'public'`,
      )
    ).rows.filter((s): s is { name: string; value: string } => s.value !== null);
    const [applied] = (await tx.query<{ n: number }>(`select count(*)::int as n from drizzle.__drizzle_migrations`)).rows;
    return { format: FORMAT, database: "pglite", migrations: applied?.n ?? 0, createdAt: new Date().toISOString(), tables: dumps, sequences, files: [] };
  });
}

/** The statements that empty the app's tables and set the sequences, around the loads. */
function truncateStatement(tables: TableDump[]): string {
  return `truncate ${tables.map(qualified).join(", ")} cascade`;
}
function sequenceStatements(manifest: Manifest): string[] {
  return (manifest.sequences ?? []).map((s) => `select setval('${s.name.replace(/'/g, "''")}', ${Number(s.value)}, true)`);
}

async function restoreIntoPglite(pgliteDir: string, manifest: Manifest, staging: string, force: boolean): Promise<void> {
  if (manifest.database !== "pglite") {
    throw new BackupError("a PostgreSQL server's backup restores into a PostgreSQL server: set DATABASE_URL");
  }
  if (existsSync(pgliteDir)) {
    const existing = openPglite({ dataDir: pgliteDir });
    const occupied = await holdsData(existing).finally(() => existing.close());
    if (occupied && !force) throw notEmpty(`the embedded database in ${pgliteDir}`);
    // Kept, not deleted: a restore given --force by mistake can be undone by moving it back.
    renameSync(pgliteDir, `${pgliteDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  }
  const database = openPglite({ dataDir: pgliteDir });
  try {
    await migrateToBackup(database, manifest.migrations);
    const client = clientOf(database) as PGlite;
    const tables = manifest.tables ?? [];
    await client.transaction(async (tx) => {
      await tx.query(truncateStatement(tables));
      for (const table of tables) {
        const data = readFileSync(path.join(staging, table.file));
        await tx.query(`copy ${qualified(table)} (${columnList(table.columns)}) from '/dev/blob'`, [], { blob: new Blob([data]) });
      }
      for (const statement of sequenceStatements(manifest)) await tx.query(statement);
    });
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
}

// ---- A PostgreSQL server ----

async function restoreIntoServer(url: string, manifest: Manifest, staging: string, force: boolean): Promise<void> {
  const database = openPostgres(url, 2);
  try {
    if ((await holdsData(database)) && !force) throw notEmpty("the database at DATABASE_URL");
    // The app's three schemas, and nothing else of the database, are replaced.
    await database.pool.query("drop schema if exists public, drizzle, pgboss cascade; create schema public");
    if (manifest.database === "postgres") {
      await tool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${url}`, path.join(staging, "database.dump")]);
    } else {
      await migrateToBackup(database, manifest.migrations);
      const tables = manifest.tables ?? [];
      const script = [
        truncateStatement(tables) + ";",
        ...tables.map((t) => `\\copy ${qualified(t)} (${columnList(t.columns)}) from '${path.join(staging, t.file).replace(/'/g, "''")}'`),
        ...sequenceStatements(manifest).map((s) => `${s};`),
      ].join("\n");
      writeFileSync(path.join(staging, "load.sql"), script);
      await tool("psql", ["--no-psqlrc", "--quiet", "--single-transaction", "--set=ON_ERROR_STOP=1", `--dbname=${url}`, `--file=${path.join(staging, "load.sql")}`]);
    }
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
}

// ---- Shared ----

async function holdsData(database: Database): Promise<boolean> {
  const result = await database.db.execute(
    sql`select (to_regclass('public.users') is not null or to_regclass('public.dealerships') is not null) as "hasTables"`,
  );
  if (!rowsOf<{ hasTables: boolean }>(result)[0]?.hasTables) return false;
  const rows = await database.db.execute(sql`select exists (select 1 from users) or exists (select 1 from dealerships) as occupied`);
  return rowsOf<{ occupied: boolean }>(rows)[0]?.occupied ?? false;
}

function notEmpty(what: string): BackupError {
  return new BackupError(`${what} is not empty (it has users or dealerships): restoring would replace them. Add --force to replace it`);
}

function journalEntries(folder = MIGRATIONS_FOLDER): unknown[] {
  return (JSON.parse(readFileSync(path.join(folder, "meta/_journal.json"), "utf8")) as { entries: unknown[] }).entries;
}

async function appliedMigrations(database: Database): Promise<number> {
  const result = await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}

/** The schema exactly as the backup's: this build's first `count` migrations (the data then fits its columns). */
async function migrateToBackup(database: Database, count: number): Promise<void> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "showroom-migrations-"));
  try {
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journal = JSON.parse(readFileSync(path.join(folder, "meta/_journal.json"), "utf8")) as { entries: unknown[] };
    journal.entries = journal.entries.slice(0, count);
    writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify(journal));
    await migrateDatabase(database, folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function copyDataFiles(dataDir: string, into: string): string[] {
  mkdirSync(into, { recursive: true });
  const copied: string[] = [];
  for (const name of DATA_FILES) {
    const from = path.join(dataDir, name);
    if (!existsSync(from)) continue;
    cpSync(from, path.join(into, name), { recursive: true });
    copied.push(name);
  }
  return copied;
}

function restoreDataFiles(from: string, dataDir: string, names: string[]): void {
  mkdirSync(dataDir, { recursive: true });
  for (const name of names) {
    const to = path.join(dataDir, name);
    rmSync(to, { recursive: true, force: true });
    cpSync(path.join(from, name), to, { recursive: true });
  }
}

function clientOf(database: Database): unknown {
  return (database.db as unknown as { $client: unknown }).$client;
}

/** Runs one of PostgreSQL's tools (or tar); a missing program is named, with the package that has it. */
async function tool(program: string, args: string[]): Promise<void> {
  try {
    await run(program, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === "ENOENT") {
      throw new BackupError(`${program} is not installed${program === "tar" ? "" : " (Debian: apt-get install postgresql-client)"}`);
    }
    throw new BackupError(`${program} failed: ${(failure.stderr ?? failure.message).trim()}`);
  }
}
