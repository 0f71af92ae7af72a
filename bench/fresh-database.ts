import pg from "pg";
import { migrateDatabase, newPglite, openPglite, openPostgres, rowsOf, type Database } from "../src/server/db/client";

// The query benches' databases (analytics, my-day, timeline): a fresh migrated database, filled by the bench's own
// generator, handed to its measurement as "target" (the name its report shows), then closed; on the server it is a
// database of its own, dropped before and after.

type Fill = (database: Database) => Promise<void>;
type Use<T> = (database: Database, target: string) => Promise<T>;

async function filled<T>(database: Database, label: string, fill: Fill, use: () => Promise<T>): Promise<T> {
  await migrateDatabase(database);
  const started = Date.now();
  await fill(database);
  console.log(`${label}: data made in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return use();
}

/** An in-memory PGlite database. */
export async function onFreshPglite<T>(fill: Fill, use: Use<T>): Promise<T> {
  const database = openPglite({ client: newPglite() });
  try {
    return await filled(database, "PGlite", fill, () => use(database, "PGlite (embedded, in memory)"));
  } finally {
    await database.close();
  }
}

async function onServer(url: string, query: string): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return rowsOf<{ v: string }>(await admin.query(query))[0]?.v ?? "";
  } finally {
    await admin.end();
  }
}

/** Database `name` on the server at `serverUrl` (BENCH_PG_URL), made anew and dropped after; `poolSize` connections. */
export async function onFreshPostgres<T>(serverUrl: string, name: string, fill: Fill, use: Use<T>, poolSize = 4): Promise<T> {
  const version = (await onServer(serverUrl, "select split_part(version(), ' on ', 1) as v")) || "PostgreSQL";
  await onServer(serverUrl, `drop database if exists ${name} with (force)`);
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = openPostgres(url.toString(), poolSize);
  try {
    return await filled(database, "PostgreSQL", fill, () => use(database, `${version} server`));
  } finally {
    await database.close();
    await onServer(serverUrl, `drop database if exists ${name} with (force)`);
  }
}
