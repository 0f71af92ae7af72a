import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pino from "pino";
import { buildApp } from "../src/server/app";
import { hashPassword } from "../src/server/auth/passwords";
import { testConfig } from "../src/server/config";
import { rowsOf, type Database } from "../src/server/db/client";
import { createMailer } from "../src/server/mail/mailer";
import { onFreshPglite, onFreshPostgres } from "./fresh-database";

// 300 new leads arriving at once, handed out to 3 reps on the floor (issue 27 "Bench": "300 parallel arrivals
// distributed"; decision 201). The app is built in-process (as bench/my-day.ts) with its event dispatcher running, on a
// fresh database; a manager posts 300 leads at the same moment (POST /api/dealerships/{id}/leads, through inject), for
// each mode: "off" (the lead waits in New Leads: what distribution adds is measured against it), "round_robin" and
// "fewest_open". Each run is a new dealership (3 reps on the floor, 1 off it), rounds interleave the modes. Recorded:
// all 300 answered in (first request to last answer), leads per second, each request's p50 / p99, the leads each rep
// got (the spread must be ≤ 1, the rep off the floor none), lead.assigned events, deadlocks (PostgreSQL), and how long
// after the last answer the dispatcher had sent every event on (bell and push). Medians of the rounds.
// Results replace the "distribution" section of bench/RESULTS.md.
//
//   node --import tsx bench/distribution.ts [pglite|postgres]     (default: both)
//   BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres; the data goes into database showroom_bench_distribution)
//   BENCH_DISTRIBUTION_ROUNDS (3), BENCH_DISTRIBUTION_ARRIVALS (300)

const RESULTS = fileURLToPath(new URL("RESULTS.md", import.meta.url));
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_DATABASE = "showroom_bench_distribution";
/** The app's own pool size (DATABASE_POOL default): the arrivals compete for connections as in production. */
const PG_POOL = 10;
const ROUNDS = Number(process.env.BENCH_DISTRIBUTION_ROUNDS ?? 3);
const ARRIVALS = Number(process.env.BENCH_DISTRIBUTION_ARRIVALS ?? 300);
const MODES = ["off", "round_robin", "fewest_open"] as const;
type Mode = (typeof MODES)[number];
const REPS = ["bench_dist_rep_1", "bench_dist_rep_2", "bench_dist_rep_3"];
const OFF_FLOOR = "bench_dist_off_floor";
const MANAGER = { id: "bench_dist_manager", email: "manager@distribution.bench.example", password: "benchpass" };
const DRAIN_TIMEOUT_MS = 300_000;

async function generate(database: Database): Promise<void> {
  const db = database.db;
  const hash = await hashPassword(MANAGER.password);
  await db.execute(sql`insert into users (id, email, password, first_name, last_name) values
    (${MANAGER.id}, ${MANAGER.email}, ${hash}, 'Morgan', 'Manager'),
    (${REPS[0]}, 'rep1@distribution.bench.example', ${hash}, 'Oluwaseun', 'Adeyemi-Okonkwo'),
    (${REPS[1]}, 'rep2@distribution.bench.example', ${hash}, 'Maria Guadalupe', 'Wojciechowski-Hernández'),
    (${REPS[2]}, 'rep3@distribution.bench.example', ${hash}, 'Riley', 'Chen'),
    (${OFF_FLOOR}, 'off@distribution.bench.example', ${hash}, 'Olive', 'Off')`);
}

/** A new dealership for one run: the manager, 3 reps on the floor and one off it, distribution in `mode`. */
async function dealershipFor(database: Database, id: string, mode: Mode): Promise<void> {
  const db = database.db;
  await db.execute(sql`insert into dealerships (id, name, timezone) values (${id}, ${`Distribution ${id}`}, 'America/Toronto')`);
  await db.execute(sql`insert into dealership_users (user_id, dealership_id, role) values
    (${MANAGER.id}, ${id}, 'management'), (${REPS[0]}, ${id}, 'sales'), (${REPS[1]}, ${id}, 'sales'), (${REPS[2]}, ${id}, 'sales'), (${OFF_FLOOR}, ${id}, 'sales')`);
  await db.execute(sql`insert into rep_availability (dealership_id, user_id, on_floor) values
    (${id}, ${REPS[0]}, true), (${id}, ${REPS[1]}, true), (${id}, ${REPS[2]}, true), (${id}, ${OFF_FLOOR}, false)`);
  if (mode !== "off") await db.execute(sql`insert into lead_distribution (dealership_id, mode) values (${id}, ${mode})`);
}

async function deadlocks(database: Database): Promise<number | null> {
  if (!("pool" in database)) return null;
  const [row] = rowsOf<{ deadlocks: string }>(await database.db.execute(sql`select deadlocks from pg_stat_database where datname = current_database()`));
  return Number(row?.deadlocks ?? 0);
}

interface Run {
  mode: Mode;
  wallMs: number;
  p50: number;
  p99: number;
  perRep: number[];
  offFloor: number;
  waiting: number;
  assignedEvents: number;
  deadlocks: number | null;
  drainedMs: number;
  load: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(database: Database, target: string): Promise<string> {
  const config = testConfig({ logLevel: "silent" });
  const mailer = createMailer({ database, logger: pino({ level: "silent" }), smtpUrl: undefined, from: config.mailFrom, worker: false });
  const app = await buildApp({ config, database, mailer });
  await app.ready();
  const runs: Run[] = [];
  try {
    const login = await app.inject({ method: "POST", url: "/api/login", payload: { email: MANAGER.email, password: MANAGER.password } });
    if (login.statusCode !== 200) throw new Error(`sign-in failed: ${login.statusCode} ${login.body}`);
    const cookie = String([login.headers["set-cookie"]].flat()[0]).split(";")[0] as string;

    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with a different mode.
      const order = MODES.map((_, i) => MODES[(i + round) % MODES.length] as Mode);
      for (const mode of order) {
        const id = `bench_dist_${mode}_${round}`;
        await dealershipFor(database, id, mode);
        const load = loadavg()[0] ?? 0;
        const before = await deadlocks(database);
        const latencies: number[] = [];
        const started = performance.now();
        const answers = await Promise.all(
          Array.from({ length: ARRIVALS }, async (_, i) => {
            const sent = performance.now();
            const response = await app.inject({
              method: "POST",
              url: `/api/dealerships/${id}/leads`,
              headers: { cookie, "content-type": "application/json" },
              payload: { firstName: "Walk", lastName: `In ${i}`, email: "", phone: "", description: "" },
            });
            latencies.push(performance.now() - sent);
            return response.statusCode;
          }),
        );
        const wallMs = performance.now() - started;
        const failed = answers.filter((s) => s !== 201);
        if (failed.length > 0) throw new Error(`${mode}: ${failed.length} arrivals not 201 (${[...new Set(failed)].join(", ")})`);
        // Bell and push follow from the events: how long until the dispatcher has sent them all on.
        const drainStarted = performance.now();
        for (;;) {
          const [left] = rowsOf<{ n: string }>(await database.db.execute(sql`select count(*) as n from domain_events where dispatched_at is null and dealership_id = ${id}`));
          if (Number(left?.n ?? 0) === 0) break;
          if (performance.now() - drainStarted > DRAIN_TIMEOUT_MS) throw new Error(`${mode}: events not dispatched within ${DRAIN_TIMEOUT_MS / 1000} s`);
          await sleep(50);
        }
        const drainedMs = performance.now() - drainStarted;
        const counts = new Map(
          rowsOf<{ rep: string | null; n: string }>(await database.db.execute(sql`select claimed_by as rep, count(*) as n from leads where dealership_id = ${id} group by claimed_by`)).map((r) => [r.rep, Number(r.n)]),
        );
        const [assigned] = rowsOf<{ n: string }>(await database.db.execute(sql`select count(*) as n from domain_events where type = 'lead.assigned' and dealership_id = ${id}`));
        // pg_stat_database is published when a backend next goes idle, at most once a second.
        await sleep(1_100);
        const after = await deadlocks(database);
        latencies.sort((a, b) => a - b);
        const run: Run = {
          mode,
          wallMs,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          perRep: REPS.map((rep) => counts.get(rep) ?? 0),
          offFloor: counts.get(OFF_FLOOR) ?? 0,
          waiting: counts.get(null) ?? 0,
          assignedEvents: Number(assigned?.n ?? 0),
          deadlocks: before === null || after === null ? null : after - before,
          drainedMs,
          load,
        };
        console.log(
          `${target} round ${round + 1} ${mode}: ${ARRIVALS} in ${wallMs.toFixed(0)} ms, p50 ${run.p50.toFixed(0)} p99 ${run.p99.toFixed(0)} ms, reps ${run.perRep.join("/")}, off ${run.offFloor}, waiting ${run.waiting}, assigned events ${run.assignedEvents}, deadlocks ${run.deadlocks ?? "-"}, dispatched ${drainedMs.toFixed(0)} ms later, load ${load.toFixed(1)}`,
        );
        runs.push(run);
      }
    }
  } finally {
    await app.close();
  }

  const rows = MODES.map((mode) => {
    const of = runs.filter((r) => r.mode === mode);
    const spread = Math.max(...of.map((r) => Math.max(...r.perRep) - Math.min(...r.perRep)));
    const fair = mode === "off" ? of.every((r) => r.waiting === ARRIVALS) : of.every((r) => r.waiting === 0 && r.offFloor === 0 && Math.max(...r.perRep) - Math.min(...r.perRep) <= 1);
    const wall = median(of.map((r) => r.wallMs));
    const counts = of.map((r) => (mode === "off" ? `${r.waiting} waiting` : r.perRep.join(" / "))).join("; ");
    const deadlockText = of.some((r) => r.deadlocks === null) ? "–" : String(of.reduce((n, r) => n + (r.deadlocks ?? 0), 0));
    return `| ${mode} | ${wall.toFixed(0)} | ${((ARRIVALS / wall) * 1000).toFixed(0)} | ${median(of.map((r) => r.p50)).toFixed(0)} | ${median(of.map((r) => r.p99)).toFixed(0)} | ${counts} | ${mode === "off" ? "–" : spread} | ${of.map((r) => r.offFloor).join(", ")} | ${of.map((r) => r.assignedEvents).join(", ")} | ${deadlockText} | ${median(of.map((r) => r.drainedMs)).toFixed(0)} | ${of.map((r) => r.load.toFixed(1)).join(", ")} | ${fair ? "yes" : "**no**"} |`;
  });
  return `### ${target}

| mode | all ${ARRIVALS} answered in, ms (median) | leads/s | request p50 ms | request p99 ms | leads per rep on the floor, each round | largest spread | to the rep off the floor | lead.assigned events | deadlocks | events sent on after, ms | load average before each round | fair (±1, none off the floor) |
|---|---:|---:|---:|---:|---|---:|---|---|---:|---:|---|---|
${rows.join("\n")}
`;
}

const onPglite = () => onFreshPglite(generate, measure);
const onPostgres = () => onFreshPostgres(PG_URL, PG_DATABASE, generate, measure, PG_POOL);

function writeSection(body: string): void {
  const start = "<!-- distribution:start -->";
  const end = "<!-- distribution:end -->";
  const current = readFileSync(RESULTS, "utf8");
  const section = `${start}\n${body}${end}`;
  const next = current.includes(start) ? current.replace(new RegExp(`${start}[\\s\\S]*?${end}`), () => section) : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(RESULTS, next);
}

async function main(): Promise<void> {
  const which = process.argv[2];
  const load = loadavg().map((l) => l.toFixed(1)).join(" / ");
  const parts: string[] = [];
  if (!which || which === "pglite") parts.push(await onPglite());
  if (!which || which === "postgres") parts.push(await onPostgres());
  const header = `## Lead distribution: ${ARRIVALS} arrivals at once among 3 reps on the floor

\`node --import tsx bench/distribution.ts\` (\`pglite\` or \`postgres\` for one). The app in-process with its event
dispatcher; a manager posts ${ARRIVALS} leads at the same moment (\`POST /api/dealerships/{id}/leads\`), a new dealership per
run (3 reps on the floor, 1 off it), ${ROUNDS} rounds interleaving the modes; \`off\` is the same arrivals with nobody
handed anything (the cost of distribution is the difference). Run ${new Date().toISOString().slice(0, 16)} UTC; load
average ${load} (1 / 5 / 15 min) before the run (2 cores, shared). Decision 201.

`;
  writeSection(header + parts.join("\n"));
}

await main();
