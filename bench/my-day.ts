import { sql, type SQL } from "drizzle-orm";
import pino from "pino";
import { buildApp } from "../src/server/app";
import { viewerOf } from "../src/server/auth/tenancy";
import { hashPassword } from "../src/server/auth/passwords";
import { testConfig } from "../src/server/config";
import { rowsOf, type Database } from "../src/server/db/client";
import { onFreshPglite, onFreshPostgres } from "./fresh-database";
import { createMailer } from "../src/server/mail/mailer";
import { agendaSql } from "../src/server/tasks/agenda";
import { listTasksSql } from "../src/server/tasks/queries";
import { localToday } from "../src/shared/dealership-clock";
import { replaceResultsSection } from "./results-file";

// My Day for a rep with 10,000 tasks (issue 27 "Bench": the My Day query takes ≤ 5 ms of database time). One
// dealership of 20 reps with 10,000 tasks each (200,000: a year before and after today, 90% done or cancelled), 5,000
// appointments, and the rep's own clients. My Day is two statements: today's agenda (tasks due today and every open
// one overdue, appointments, test drives) and the upcoming tasks. Database time is EXPLAIN (ANALYZE, TIMING OFF)'s
// execution time of each statement as the app writes it (median of the runs); the endpoints' p50/p99 go through the
// app (inject).
// Results replace the "my-day" section of bench/RESULTS.md.
//
//   node --import tsx bench/my-day.ts [pglite|postgres]     (default: both)
//   BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres; the data goes into database showroom_bench_my_day)

const RUNS = Number(process.env.BENCH_MY_DAY_RUNS ?? 40);
const WARMUP = 5;
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_DATABASE = "showroom_bench_my_day";
const DEALER = "bench_my_day_dealer";
const REPS = 20;
const TASKS_PER_REP = 10_000;
const REP = { id: "bench_my_day_rep_1", email: "rep1@myday.bench.example", password: "benchpass" };
const TZ = "America/Toronto";
const BUDGET_MS = 5;

async function generate(database: Database): Promise<void> {
  const db = database.db;
  const hash = await hashPassword(REP.password);
  await db.execute(sql`insert into dealerships (id, name, timezone) values (${DEALER}, 'My Day Motors', ${TZ})`);
  await db.execute(sql`insert into users (id, email, password, first_name, last_name)
    select 'bench_my_day_rep_' || g, 'rep' || g || '@myday.bench.example', ${hash}, 'Rep', 'Number ' || g from generate_series(1, ${REPS}) g`);
  await db.execute(sql`insert into dealership_users (user_id, dealership_id, role)
    select 'bench_my_day_rep_' || g, ${DEALER}, 'sales' from generate_series(1, ${REPS}) g`);
  // 50 clients per rep: lead k is rep (k % REPS)'s.
  await db.execute(sql`insert into leads (id, dealership_id, first_name, last_name, status, claimed_by, claimed_at)
    select 'bench_my_day_lead_' || k, ${DEALER}, 'Client', 'Number ' || k, 'claimed', 'bench_my_day_rep_' || (1 + k % ${REPS}), now()
    from generate_series(0, ${REPS * 50 - 1}) k`);
  // 10,000 tasks per rep over a year before and after now: 10% open, the rest done (9 in 10) or cancelled.
  await db.execute(sql`insert into tasks (id, dealership_id, lead_id, type, due_at, assignee_id, status, completed_at, created_at)
    select 'bench_my_day_task_' || g, ${DEALER}, 'bench_my_day_lead_' || ((g % ${REPS}) + ${REPS} * ((g / ${REPS}) % 50)),
      (array['call','email','visit','other'])[1 + g % 4], now() + ((g * 7919) % 525600 - 262800) * interval '1 minute',
      'bench_my_day_rep_' || (1 + g % ${REPS}),
      case when (g / ${REPS}) % 10 = 0 then 'open' when (g / ${REPS}) % 100 = 1 then 'cancelled' else 'done' end,
      case when (g / ${REPS}) % 10 = 0 then null else now() end, now() - interval '1 year'
    from generate_series(1, ${REPS * TASKS_PER_REP}) g`);
  await db.execute(sql`insert into appointments (id, dealership_id, title, first_name, last_name, date, time, assigned_to, created_by, lead_id)
    select 'bench_my_day_appt_' || g, ${DEALER}, 'Walkaround', 'Client', 'Number ' || g, current_date + (g % 365 - 182),
      lpad((9 + g % 8)::text, 2, '0') || ':00', 'bench_my_day_rep_' || (1 + g % ${REPS}), 'bench_my_day_rep_' || (1 + g % ${REPS}),
      'bench_my_day_lead_' || ((g % ${REPS}) + ${REPS} * ((g / ${REPS}) % 50))
    from generate_series(1, 5000) g`);
  await db.execute(sql`analyze`);
}

interface Measured {
  label: string;
  rows: number;
  dbMedian: number;
  dbMax: number;
  plan: string;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

async function explain(database: Database, label: string, query: SQL): Promise<Measured> {
  const times: number[] = [];
  let plan = "";
  let rows = 0;
  const linesOf = async (options: SQL) =>
    rowsOf<Record<string, string>>(await database.db.execute(sql`explain (${options}) ${query}`)).map((r) => Object.values(r)[0] as string);
  // Timed without per-node timing: on PGlite (WebAssembly) reading the clock at every row of every node costs more
  // than the query itself. The plan shown is one more run with timing and buffers.
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const lines = await linesOf(sql`analyze, timing off, costs off, summary on`);
    const execution = Number(/Execution Time: ([\d.]+) ms/.exec(lines.join("\n"))?.[1]);
    if (i >= WARMUP) times.push(execution);
    rows = Number(/rows=(\d+)/.exec(lines[0] ?? "")?.[1] ?? 0);
  }
  plan = (await linesOf(sql`analyze, buffers, costs off, summary on`)).join("\n");
  return { label, rows, dbMedian: median(times), dbMax: Math.max(...times), plan };
}

async function measure(database: Database, target: string): Promise<string> {
  const viewer = viewerOf(REP.id, DEALER, "sales");
  const now = new Date();
  const clock = { now, timezone: TZ };
  const statements = [
    await explain(database, "Today's agenda (tasks due today and every open one overdue, appointments, drives)", agendaSql(viewer, { date: localToday(TZ, now), scope: "mine" }, clock)),
    await explain(database, "Upcoming tasks (open, due after today)", listTasksSql(viewer, { scope: "mine", due: "upcoming", status: "open" }, clock)),
  ];
  for (const s of statements) console.log(`${target}: ${s.label}: ${s.rows} rows, database ${s.dbMedian.toFixed(2)} ms median, ${s.dbMax.toFixed(2)} ms max`);

  const config = testConfig({ logLevel: "silent" });
  const mailer = createMailer({ database, logger: pino({ level: "silent" }), smtpUrl: undefined, from: config.mailFrom, worker: false });
  const app = await buildApp({ config, database, mailer });
  await app.ready();
  const endpoints: string[] = [];
  try {
    const login = await app.inject({ method: "POST", url: "/api/login", payload: { email: REP.email, password: REP.password } });
    if (login.statusCode !== 200) throw new Error(`sign-in failed: ${login.statusCode} ${login.body}`);
    const cookie = String([login.headers["set-cookie"]].flat()[0]).split(";")[0] as string;
    for (const [label, url] of [
      ["GET agenda (today, mine)", `/api/dealerships/${DEALER}/agenda`],
      ["GET tasks?due=upcoming", `/api/dealerships/${DEALER}/tasks?due=upcoming`],
    ] as const) {
      const samples: number[] = [];
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const started = process.hrtime.bigint();
        const response = await app.inject({ method: "GET", url, headers: { cookie } });
        if (response.statusCode !== 200) throw new Error(`${label}: ${response.statusCode} ${response.body}`);
        if (i >= WARMUP) samples.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      samples.sort((a, b) => a - b);
      endpoints.push(`| ${label} | ${percentile(samples, 50).toFixed(1)} | ${percentile(samples, 99).toFixed(1)} |`);
    }
  } finally {
    await app.close();
  }
  const within = statements.every((s) => s.dbMedian <= BUDGET_MS);
  return `### ${target}

| statement | rows | database ms (median) | database ms (max) |
|---|---:|---:|---:|
${statements.map((s) => `| ${s.label} | ${s.rows} | ${s.dbMedian.toFixed(2)} | ${s.dbMax.toFixed(2)} |`).join("\n")}

Budget ${BUDGET_MS} ms of database time per statement: ${within ? "met" : "**not met**"}.

| endpoint, through the app | p50 ms | p99 ms |
|---|---:|---:|
${endpoints.join("\n")}

<details><summary>Query plans (EXPLAIN ANALYZE, BUFFERS)</summary>

${statements.map((s) => `${s.label}:\n\n\`\`\`\n${s.plan}\n\`\`\``).join("\n\n")}

</details>
`;
}

const onPglite = () => onFreshPglite(generate, measure);
const onPostgres = () => onFreshPostgres(PG_URL, PG_DATABASE, generate, measure);

async function main(): Promise<void> {
  const which = process.argv[2];
  const load = (await import("node:os")).loadavg()[0]?.toFixed(1);
  const parts: string[] = [];
  if (!which || which === "pglite") parts.push(await onPglite());
  if (!which || which === "postgres") parts.push(await onPostgres());
  const header = `## My Day: a rep with 10,000 tasks

\`node --import tsx bench/my-day.ts\` (\`pglite\` or \`postgres\` for one). One dealership of ${REPS} reps with
${TASKS_PER_REP.toLocaleString("en-US")} tasks each (a year before and after the run, 10% open), 5,000 appointments; the rep
asks for My Day. Database time: EXPLAIN (ANALYZE, TIMING OFF) execution time, median of ${RUNS} runs after ${WARMUP}. Run
${new Date().toISOString().slice(0, 16)} UTC; load average ${load} before the run (2 cores, shared).

`;
  replaceResultsSection("my-day", header + parts.join("\n"));
}

await main();
