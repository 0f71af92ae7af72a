import { sql } from "drizzle-orm";
import pino from "pino";
import { salesRepAnalyticsSql, testDriveAnalyticsSql, type Period } from "../src/server/analytics/queries";
import { buildApp } from "../src/server/app";
import { hashPassword } from "../src/server/auth/passwords";
import { testConfig } from "../src/server/config";
import { rowsOf, type Database } from "../src/server/db/client";
import { onFreshPglite, onFreshPostgres } from "./fresh-database";
import { createMailer } from "../src/server/mail/mailer";
import { localToday } from "../src/shared/dealership-clock";
import { replaceResultsSection } from "./results-file";

// Both analytics endpoints on a dealership with 100,000 leads and 100,000 test drives (issue 9 "Benchmark"), on PGlite
// and on the PostgreSQL server: p50/p99 of sequential requests through the real app (inject: routing, session,
// tenancy, the query, JSON), then each statement's plan with EXPLAIN (ANALYZE, BUFFERS) for the 90- and 365-day
// periods. Data: a year of activity made with generate_series; a second dealership of 20,000 drives and leads beside
// it, so the indexes have to pick the right dealership. Results replace the "analytics" section of bench/RESULTS.md.
//
//   node --import tsx bench/analytics.ts [pglite|postgres]     (default: both)
//   BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres; the data goes into database showroom_bench_analytics)
//   BENCH_ANALYTICS_REQUESTS (60 per endpoint and period)

const REQUESTS = Number(process.env.BENCH_ANALYTICS_REQUESTS ?? 60);
const WARMUP = 5;
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_DATABASE = "showroom_bench_analytics";
const BIG = "bench_analytics_big_dealer";
/** The statements as the big dealership's management runs them. */
const MANAGEMENT = { dealershipId: BIG, role: "management" } as const;
const SMALL = "bench_analytics_small_dealer";
const MANAGER = { id: "bench_analytics_manager", email: "analytics.manager@bench.example", password: "benchpass" };
const REPS = 20;
const TZ = "America/Toronto";

const CASES: Array<{ label: string; path: (d: string) => string; days: number; kind: "drives" | "reps" }> = [
  ...[1, 7, 30, 90].map((days) => ({ label: `Test drive analytics, ${days} d`, path: (d: string) => `/api/dealerships/${d}/test-drives/analytics/${days}`, days, kind: "drives" as const })),
  ...[7, 30, 90, 365].map((days) => ({ label: `Sales rep analytics, ${days} d`, path: (d: string) => `/api/dealerships/${d}/sales-rep-analytics/${days}`, days, kind: "reps" as const })),
];

/** A year of a dealership's activity, generated in the database: leads, appointments, test drives. */
async function generate(database: Database): Promise<void> {
  const db = database.db;
  const hash = await hashPassword(MANAGER.password);
  await db.execute(sql`insert into dealerships (id, name, timezone) values (${BIG}, 'Analytics Motors', ${TZ}), (${SMALL}, 'Beside Motors', ${TZ})`);
  await db.execute(sql`insert into users (id, email, password, first_name, last_name)
    values (${MANAGER.id}, ${MANAGER.email}, ${hash}, 'Bench', 'Manager')`);
  await db.execute(sql`insert into users (id, email, password, first_name, last_name)
    select 'bench_analytics_rep_' || g, 'rep' || g || '@analytics.bench.example', ${hash}, 'Rep', 'Number ' || g from generate_series(1, ${REPS + 2}) g`);
  await db.execute(sql`insert into dealership_users (user_id, dealership_id, role)
    values (${MANAGER.id}, ${BIG}, 'management')`);
  await db.execute(sql`insert into dealership_users (user_id, dealership_id, role)
    select 'bench_analytics_rep_' || g, case when g <= ${REPS} then ${BIG} else ${SMALL} end, 'sales' from generate_series(1, ${REPS + 2}) g`);
  const rep = (g: string) => sql.raw(`'bench_analytics_rep_' || (1 + (${g} % ${REPS}))`);
  // 100,000 leads: 30% new, the rest claimed by one of the 20 reps at some moment of the last year.
  await db.execute(sql`insert into leads (id, dealership_id, first_name, last_name, email, status, claimed_by, claimed_at, created_at)
    select 'bench_analytics_lead_' || g, ${BIG}, 'First' || (g % 997), 'Last' || (g % 991), 'lead' || g || '@example.com',
      case when g % 10 < 3 then 'new' else 'claimed' end,
      case when g % 10 < 3 then null else ${rep("g")} end,
      case when g % 10 < 3 then null else now() - (g % 365) * interval '1 day' - (g % 600) * interval '1 minute' end,
      now() - (g % 365) * interval '1 day' - interval '12 hours'
    from generate_series(1, 100000) g`);
  await db.execute(sql`insert into leads (id, dealership_id, first_name, last_name, status, created_at)
    select 'bench_analytics_small_lead_' || g, ${SMALL}, 'Small', 'Lead' || g, 'new', now() - (g % 365) * interval '1 day'
    from generate_series(1, 20000) g`);
  // 20,000 appointments over the year.
  await db.execute(sql`insert into appointments (id, dealership_id, title, first_name, last_name, date, time, created_by, assigned_to, created_at)
    select 'bench_analytics_appt_' || g, ${BIG}, 'Test drive', 'Client', 'No ' || g, (now() - (g % 365) * interval '1 day')::date, '10:00',
      ${rep("g")}, ${rep("g")}, now() - (g % 365) * interval '1 day' - (g % 480) * interval '1 minute'
    from generate_series(1, 20000) g`);
  // 100,000 test drives over the year on 60 vehicles, returned after 15-89 minutes; 20,000 at the dealership beside.
  await db.execute(sql`insert into dealership_testdrives (id, dealership_id, client_type, first_name, last_name, vehicle_type,
      vehicle_driven, stock_number, status, taken_out_by, taken_out_at, returned_by, returned_at, duration, test_drive_date, test_drive_time)
    select 'bench_analytics_drive_' || g, ${BIG}, 'new', 'Client', 'No ' || g, 'manual',
      (2018 + g % 8) || ' ' || (array['Honda Civic','Toyota RAV4','Ford F-150','Mazda CX-5','Kia EV6','Hyundai Tucson'])[1 + g % 6],
      'STK-' || (g % 60), 'completed', ${rep("g")},
      now() - (g % 365) * interval '1 day' - (g % 700) * interval '1 minute',
      ${rep("g")},
      now() - (g % 365) * interval '1 day' - (g % 700) * interval '1 minute' + (15 + g % 75) * interval '1 minute',
      15 + g % 75, to_char(now(), 'YYYY-MM-DD'), '10:00'
    from generate_series(1, 100000) g`);
  await db.execute(sql`insert into dealership_testdrives (id, dealership_id, client_type, first_name, last_name, vehicle_driven, stock_number,
      status, taken_out_at, returned_at, duration)
    select 'bench_analytics_small_drive_' || g, ${SMALL}, 'new', 'Small', 'Client', 'Car', 'S-' || (g % 10), 'completed',
      now() - (g % 365) * interval '1 day', now() - (g % 365) * interval '1 day' + interval '30 minutes', 30
    from generate_series(1, 20000) g`);
  await db.execute(sql`vacuum analyze`);
}

interface Timing {
  label: string;
  p50: number;
  p99: number;
  mean: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function measure(database: Database): Promise<{ timings: Timing[]; plans: string[] }> {
  const config = testConfig({ logLevel: "silent" });
  const mailer = createMailer({ database, logger: pino({ level: "silent" }), smtpUrl: undefined, from: config.mailFrom, worker: false });
  const app = await buildApp({ config, database, mailer });
  await app.ready();
  try {
    const login = await app.inject({ method: "POST", url: "/api/login", payload: { email: MANAGER.email, password: MANAGER.password } });
    if (login.statusCode !== 200) throw new Error(`sign-in failed: ${login.statusCode} ${login.body}`);
    const cookie = String([login.headers["set-cookie"]].flat()[0]).split(";")[0] as string;
    const timings: Timing[] = [];
    for (const c of CASES) {
      const samples: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const started = process.hrtime.bigint();
        const response = await app.inject({ method: "GET", url: c.path(BIG), headers: { cookie } });
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (response.statusCode !== 200) throw new Error(`${c.label}: ${response.statusCode} ${response.body}`);
        if (i >= WARMUP) samples.push(ms);
      }
      samples.sort((a, b) => a - b);
      timings.push({ label: c.label, p50: percentile(samples, 50), p99: percentile(samples, 99), mean: samples.reduce((s, x) => s + x, 0) / samples.length });
      console.log(`${c.label}: p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms`);
    }
    const today = localToday(TZ);
    const plans: string[] = [];
    for (const [label, query] of [
      ["Test drive analytics, 90 days", testDriveAnalyticsSql(MANAGEMENT, { today, days: 90, timezone: TZ } satisfies Period)],
      ["Sales rep analytics, 365 days", salesRepAnalyticsSql(MANAGEMENT, { today, days: 365, timezone: TZ })],
      ["Sales rep analytics, 30 days", salesRepAnalyticsSql(MANAGEMENT, { today, days: 30, timezone: TZ })],
    ] as const) {
      const result = await database.db.execute(sql`explain (analyze, buffers, costs off, summary on) ${query}`);
      plans.push(`${label}:\n\n\`\`\`\n${rowsOf<Record<string, string>>(result).map((r) => Object.values(r)[0]).join("\n")}\n\`\`\``);
    }
    return { timings, plans };
  } finally {
    await app.close();
  }
}

const onPglite = () => onFreshPglite(generate, async (database, target) => report(target, await measure(database)));
const onPostgres = () => onFreshPostgres(PG_URL, PG_DATABASE, generate, async (database, target) => report(target, await measure(database)));

function report(target: string, result: { timings: Timing[]; plans: string[] }): string {
  const rows = result.timings.map((t) => `| ${t.label} | ${t.p50.toFixed(1)} | ${t.p99.toFixed(1)} | ${t.mean.toFixed(1)} |`).join("\n");
  return `### ${target}

| endpoint, period | p50 ms | p99 ms | mean ms |
|---|---:|---:|---:|
${rows}

<details><summary>Query plans (EXPLAIN ANALYZE, BUFFERS)</summary>

${result.plans.join("\n\n")}

</details>
`;
}

async function main(): Promise<void> {
  const which = process.argv[2];
  const load = (await import("node:os")).loadavg()[0]?.toFixed(1);
  const parts: string[] = [];
  if (!which || which === "pglite") parts.push(await onPglite());
  if (!which || which === "postgres") parts.push(await onPostgres());
  const header = `# Analytics benchmark

\`node --import tsx bench/analytics.ts\` (\`pglite\` or \`postgres\` for one). One dealership with 100,000 leads (70% claimed
by 20 reps over a year), 20,000 appointments and 100,000 test drives over a year; a second dealership with 20,000 leads
and drives beside it. ${REQUESTS} sequential requests per endpoint and period through the app (inject, signed in as its
manager) after ${WARMUP} warm-up requests. Run ${new Date().toISOString().slice(0, 16)} UTC; load average ${load} before the run
(2 cores, shared).

`;
  replaceResultsSection("analytics", header + parts.join("\n"));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
