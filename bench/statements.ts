import pg from "pg";
import pino from "pino";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { openPostgres, rowsOf } from "../src/server/db/client";
import { createMailer } from "../src/server/mail/mailer";
import { sql } from "drizzle-orm";
import { returnClaimedLeads } from "./generate";
import { BIG_DEALERSHIP, PEOPLE } from "./scenarios";

// npm run bench:statements — the SQL statements (round trips to PostgreSQL) one request costs, with every event
// handler and listener the app registers on main, counted on the benchmark's data (run `npm run bench -- postgres`
// once first). A count does not move with the machine's load the way req/s and CPU time do (decision 120).
//
// The app runs in this process (app.inject, no sockets); pg.Client.prototype.query counts what is sent, grouped by
// the statement's first words. Claims go CLAIMS at a time in parallel, as a busy lot claims, then the events are
// dispatched and heard; the totals are divided by the number of requests.

const URL_ = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CLAIMS = Number(process.env.BENCH_STATEMENT_CLAIMS ?? 200);
const PARALLEL = 10;

const counts = new Map<string, number>();
let counting = false;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) {
    const first = args[0] as string | { text?: string; name?: string };
    const text = typeof first === "string" ? first : (first?.text ?? `(prepared ${first?.name})`);
    const key = text.replace(/\s+/g, " ").trim().slice(0, 70);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

function report(what: string, requests: number): void {
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((n, [, c]) => n + c, 0);
  console.log(`\n${what}: ${(total / requests).toFixed(2)} statements per request (${total} for ${requests})`);
  for (const [text, n] of rows) console.log(`  ${(n / requests).toFixed(2)}  ${text}`);
  counts.clear();
}

async function main(): Promise<void> {
  const url = new URL(URL_);
  url.pathname = "/showroom_bench";
  const database = openPostgres(url.toString(), 10);
  const config = { ...loadConfig({ ...process.env, DATABASE_URL: url.toString(), SEED_DEMO: "0" }), logLevel: "silent" };
  const mailer = createMailer({ database, logger: pino({ level: "silent" }), from: config.mailFrom, closeDrainMs: 0 });
  const app = await buildApp({ config, database, mailer });
  await app.ready();
  try {
    await returnClaimedLeads(database);
    const login = await app.inject({ method: "POST", url: "/api/login", payload: PEOPLE.claimer });
    const cookie = login.cookies.find((c) => c.name === "showroom.sid");
    if (!cookie) throw new Error(`sign-in answered ${login.statusCode}`);
    const headers = { cookie: `showroom.sid=${cookie.value}`, origin: config.appUrl };
    const pool = rowsOf<{ id: string }>(
      await database.db.execute(sql`select id from leads where dealership_id = ${BIG_DEALERSHIP} and status = 'new' order by id limit ${CLAIMS}`),
    ).map((r) => r.id);
    await app.events.flush();

    counting = true;
    for (let i = 0; i < pool.length; i += PARALLEL) {
      const answers = await Promise.all(
        pool.slice(i, i + PARALLEL).map((id) => app.inject({ method: "POST", url: `/api/leads/${id}/claim`, headers })),
      );
      const bad = answers.find((a) => a.statusCode !== 200);
      if (bad) throw new Error(`a claim answered ${bad.statusCode}: ${bad.body}`);
    }
    await new Promise((r) => setTimeout(r, 200)); // the dispatch and the listeners' read run a moment after the commits
    await app.events.flush();
    counting = false;
    report(`Claim (${PARALLEL} at a time, every registered handler and listener)`, pool.length);

    counting = true;
    for (let i = 0; i < 100; i++) {
      const answer = await app.inject({ method: "GET", url: `/api/dealerships/${BIG_DEALERSHIP}/leads?type=new`, headers });
      if (answer.statusCode !== 200) throw new Error(`New Leads answered ${answer.statusCode}`);
    }
    counting = false;
    report("New Leads", 100);
  } finally {
    await returnClaimedLeads(database);
    await app.close();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
