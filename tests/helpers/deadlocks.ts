import type pg from "pg";
import type { TestApp } from "./test-app";

// How many deadlocks PostgreSQL has counted in a test's database (pg_stat_database.deadlocks), for race tests that must
// show none, including in work no request answers for (the dispatcher's transactions). A backend publishes its counts
// at most once a second, when it next goes idle: so wait a second, then run a statement on every connection of the
// app's pool, and read the total.

export async function deadlocksCounted(t: TestApp): Promise<number> {
  const pool = (t.database as { pool?: pg.Pool }).pool;
  if (!pool) throw new Error("deadlocksCounted needs the PostgreSQL server (TEST_DATABASE_URL)");
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const clients = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
  try {
    await Promise.all(clients.map((client) => client.query("select 1")));
  } finally {
    for (const client of clients) client.release();
  }
  const result = await pool.query<{ deadlocks: string }>("select deadlocks from pg_stat_database where datname = current_database()");
  return Number(result.rows[0]?.deadlocks ?? 0);
}
