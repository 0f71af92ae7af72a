import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { newPglite, openPglite, openPostgres, rowsOf, type Database } from "../src/server/db/client";
import { sql, type SQLWrapper } from "drizzle-orm";
import { listSql, statements, type ListShape, type ListValue } from "./floor-server";
import { BENCH, CLAIMER, dealershipId, generate, IncompleteBenchData, returnClaimedLeads, STORY_LEAD, userId } from "./generate";
import { timedRun, type Load, type Target } from "./load";
import { residentMemory } from "./proc";
import { aloneTable, everyRun, floorTables, loadRange, loopNote, tailTable, type Measured } from "./report";
import { compareServers, type Question } from "./same-answers";
import { BIG_DEALERSHIP, DEEP_CURSOR, DEMO_PEOPLE, demoScenarios, NEW_PAGES, PEOPLE, SCENARIOS, TAKEN_LEAD, type Person, type Scenario } from "./scenarios";
import { activityPageQuery } from "../src/server/leads/activity";
import { agendaSql } from "../src/server/tasks/agenda";
import { listTasksSql } from "../src/server/tasks/queries";
import { viewerOf } from "../src/server/auth/tenancy";
import { encodePageCursor } from "../src/server/http/page-cursor";
import { localToday } from "../src/shared/dealership-clock";
import { REPO, startApp, startFloor, withApplicationName, type RunningServer } from "./servers";

// npm run bench [-- postgres | pglite | demo]
//
// PostgreSQL: the app and the floor server (bench/floor-server.ts, unnamed SQL and prepared statements) on the same
// 1,000,000 leads, interleaved: ROUNDS rounds of every scenario on each of the three in turn (50 connections; the
// first round also 10), after a check that all three answer the same. Prints req/s, p50, p99, app ÷ floor and CPU
// per request (server process + its PostgreSQL backends, from /proc).
// PGlite (embedded, no floor: the database is inside the app's process): the app on the 1,000,000 leads and on the
// demo data of a first `npm start`, with its resident memory after start-up and after the load.
// Results go to bench/RESULTS.md (each target replaces its own section). Servers are child processes, always stopped.

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DATA = path.join(HERE, ".data");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const FEW_CONNECTIONS = 10;
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
// BENCH_PG_DB: another database name, so two people benchmarking different migrations do not drop each other's data.
const PG_DB = process.env.BENCH_PG_DB ?? "showroom_bench";
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? REPO);
const RESULTS = path.join(HERE, "RESULTS.md");
// BENCH_SCENARIOS=claim,new runs only those scenarios (keys in bench/scenarios.ts) and prints them without touching
// RESULTS.md: for trying a change quickly; the recorded table always has every scenario.
const ONLY_SCENARIOS = process.env.BENCH_SCENARIOS?.split(",").map((s) => s.trim()).filter(Boolean);
const EVERY_SCENARIO = [...SCENARIOS, ...NEW_PAGES];
let TIMED = ONLY_SCENARIOS ? EVERY_SCENARIO.filter((s) => ONLY_SCENARIOS.includes(s.key)) : EVERY_SCENARIO;
const LISTS = () => TIMED.filter((s) => !s.alone).map((s) => s.name);
const PAGES = () => TIMED.filter((s) => s.alone).map((s) => s.name);

const running = new Set<RunningServer>();
let serverVersion = "?";

async function started<T extends RunningServer>(server: Promise<T>): Promise<T> {
  const s = await server;
  running.add(s);
  return s;
}

async function stopAll(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()));
  running.clear();
}

function git(args: string[]): string {
  return execFileSync("git", ["-C", APP_DIR, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 256 * 1024 * 1024 }).trim();
}

/** Which app was measured: the commit, and whether its server code had uncommitted changes. */
function appVersion(): string {
  try {
    const hash = git(["rev-parse", "--short", "HEAD"]);
    const dirty = git(["status", "--porcelain", "--", "src", "drizzle", "package.json"]);
    if (!dirty) return hash;
    // Someone's work in progress: name it by a hash of the diff, so two runs can tell whether they ran the same code.
    const diff = createHash("sha256").update(git(["diff", "HEAD", "--", "src", "drizzle", "package.json"])).update(dirty).digest("hex");
    return `${hash} plus uncommitted changes to src/ or drizzle/ (diff ${diff.slice(0, 8)})`;
  } catch {
    return process.env.BENCH_APP_COMMIT ?? "unknown (BENCH_APP_DIR is not a git checkout; set BENCH_APP_COMMIT)";
  }
}

const loadNow = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ");

async function signIn(base: string, person: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(person),
  });
  if (!response.ok) throw new Error(`signing in ${person.email} answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("showroom.sid="));
  if (!cookie) throw new Error(`signing in ${person.email} set no session cookie`);
  return cookie;
}

async function signOut(base: string, cookies: string[]): Promise<void> {
  for (const cookie of cookies) await fetch(`${base}/api/logout`, { method: "POST", headers: { cookie } }).catch(() => undefined);
}

type Query = (text: string, values: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** The new leads of the big dealership, each claimed once per run and put back afterwards. */
async function newLeadPool(database: Database): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await database.db.execute(sql`select id from leads where dealership_id = ${BIG_DEALERSHIP} and status = 'new' order by id`),
  );
  return rows.map((r) => r.id);
}

/**
 * After a claim run: autocannon stops at the deadline, but the server still finishes the claims in flight, so wait
 * for them before putting the leads back. The run's events and bell rows go too, and the tables are vacuumed and
 * analysed, so every round finds them as the first did: this machine's PostgreSQL runs without autovacuum, the
 * dispatcher's pending query walks every dead entry of its partial index since the last vacuum (51 ms a call after a
 * few runs), and statistics never refreshed left the app at 0.3 of the floor after a few runs (2.2 ms of PostgreSQL
 * CPU per claim against 1.4 after `vacuum full analyze`; 2026-11-27, bench/README.md).
 */
async function putBackClaims(database: Database): Promise<void> {
  await new Promise((r) => setTimeout(r, 1500));
  await returnClaimedLeads(database);
  await database.db.execute(sql`delete from notifications where created_by = ${CLAIMER.id}`);
  await database.db.execute(sql`delete from domain_events where actor_id = ${CLAIMER.id} and dispatched_at is not null`);
  for (const table of ["leads", "domain_events", "notifications", "sessions"]) await database.db.execute(sql.raw(`vacuum (analyze) ${table}`));
}

/** Fills (or checks) the data; a half-made or outdated database is dropped and made again. */
async function readyData(open: (fresh: boolean) => Promise<Database>, log: string[]): Promise<Database> {
  const t0 = Date.now();
  const note = (line: string) => {
    console.log(line);
    log.push(line.trim());
  };
  let database = await open(false);
  try {
    await generate(database, note);
  } catch (error) {
    if (!(error instanceof IncompleteBenchData)) throw error;
    console.log(`  ${error.message}: starting from an empty database`);
    await database.close();
    database = await open(true);
    await generate(database, note);
  }
  log.push(`ready after ${Date.now() - t0} ms`);
  return database;
}

/**
 * A scenario's load. Claims take the pool's leads in turn from `cursor`: a fresh cursor where the leads were put
 * back since the last claim run, a shared one where they were not (PGlite: the app holds the database until it stops).
 */
function loadFor(
  scenario: Pick<Scenario, "path" | "method" | "claim">,
  cookie: string,
  connections: number,
  pool: string[],
  cursor = { next: 0 },
): Load {
  return {
    path: scenario.claim ? `/api/leads/${pool[0] ?? "none"}/claim` : scenario.path,
    method: scenario.method,
    cookie,
    connections,
    seconds: SECONDS,
    ...(scenario.claim ? { nextPath: () => `/api/leads/${pool[cursor.next++ % pool.length]}/claim` } : {}),
  };
}

// ---- The query plans (the floor's statements, which are the app's SQL written out) ----

const PLAN_SHAPES: Array<[string, ListShape, Partial<Record<ListValue, unknown>>]> = [
  ["New Leads (sales)", { seeAll: false, type: "new", status: false, q: false, cursor: false }, {}],
  ["My Clients (sales)", { seeAll: false, type: "my", status: false, q: false, cursor: false }, {}],
  ["All Clients (management)", { seeAll: true, type: undefined, status: false, q: false, cursor: false }, {}],
  ["All Clients, search garc + status contacted (management)", { seeAll: true, type: "my", status: true, q: true, cursor: false }, { status: "contacted", q: "%garc%" }],
];

async function plans(query: Query, claimLead: string): Promise<string> {
  const explain = async (text: string, values: unknown[]) =>
    (await query(`explain (analyze, costs off, timing off, summary on) ${text}`, values)).map((r) => Object.values(r)[0]).join("\n");
  const out: string[] = [];
  for (const [name, shape, extra] of PLAN_SHAPES) {
    const { text, order } = listSql(shape);
    const values: Record<ListValue, unknown> = { dealership: BIG_DEALERSHIP, user: userId(1, 1), take: 101, status: undefined, q: undefined, cursorAt: undefined, cursorId: undefined, ...extra };
    out.push(`**${name}**\n\n\`\`\`\n${await explain(text, order.map((k) => values[k]))}\n\`\`\``);
  }
  out.push(`**Claim**\n\n\`\`\`\n${await explain(statements("s.user_id").claim, [claimLead, CLAIMER.id])}\n\`\`\``);
  return out.join("\n\n");
}

// ---- The new pages (issue 32): timed on the app alone, their statements explained as the app writes them ----

/** The cursor of the story lead's 9,000th entry, as the Link header of the page before would carry it. */
async function deepCursor(database: Database): Promise<{ at: Date; id: number; text: string }> {
  const [row] = rowsOf<{ at: Date | string; id: number | string }>(
    await database.db.execute(sql`select at, id from lead_activity where lead_id = ${STORY_LEAD} order by at desc, id desc offset 8999 limit 1`),
  );
  if (!row) throw new Error(`${STORY_LEAD} has fewer than 9,000 timeline entries`);
  const at = new Date(row.at);
  return { at, id: Number(row.id), text: encodePageCursor([at.toISOString(), String(row.id)]) };
}

/** Puts the deep page's cursor into its path. */
async function placeDeepCursor(database: Database): Promise<void> {
  const cursor = await deepCursor(database);
  TIMED = TIMED.map((s) => (s.path.includes(DEEP_CURSOR) ? { ...s, path: s.path.replace(DEEP_CURSOR, encodeURIComponent(cursor.text)) } : s));
}

/** Every new page must answer 200 with entries before it is timed. */
async function checkNewPages(base: string, cookies: Record<Person, string>): Promise<void> {
  for (const page of TIMED.filter((s) => s.alone)) {
    const response = await fetch(base + page.path, { headers: { cookie: cookies[page.who] } });
    const body = (await response.json()) as unknown;
    const items = Array.isArray(body) ? body.length : Array.isArray((body as { items?: unknown[] }).items) ? (body as { items: unknown[] }).items.length : -1;
    if (response.status !== 200 || items < 1) throw new Error(`${page.name}: ${response.status} with ${items} entries; the data is not what the page needs`);
    console.log(`  ${page.name}: 200, ${items} entries`);
  }
}

async function newPagePlans(database: Database): Promise<string> {
  const explain = async (query: SQLWrapper) =>
    rowsOf<Record<string, string>>(await database.db.execute(sql`explain (analyze, costs off, timing off, summary on) ${query}`))
      .map((r) => Object.values(r)[0])
      .join("\n");
  const rep = viewerOf(userId(1, 1), BIG_DEALERSHIP, "sales");
  const manager = viewerOf(userId(1, 5), BIG_DEALERSHIP, "management");
  const timezone = "America/Toronto";
  const clock = { now: new Date(), timezone };
  const cursor = await deepCursor(database);
  const shown: Array<[string, SQLWrapper]> = [
    ["Lead activity, first page", activityPageQuery(database.db, STORY_LEAD, { limit: 30, filter: "all" })],
    ["Lead activity, the page after entry 9,000", activityPageQuery(database.db, STORY_LEAD, { limit: 30, filter: "all", cursor })],
    ["My Day: today's agenda", agendaSql(rep, { date: localToday(timezone, clock.now), scope: "mine" }, clock)],
    ["My Day: upcoming tasks", listTasksSql(rep, { scope: "mine", due: "upcoming", status: "open" }, clock)],
    ["Everyone's open tasks", listTasksSql(manager, { scope: "all", status: "open" }, clock)],
  ];
  const out: string[] = [];
  for (const [name, query] of shown) out.push(`**${name}**\n\n\`\`\`\n${await explain(query)}\n\`\`\``);
  return out.join("\n\n");
}

// ---- PostgreSQL: the app beside the floor ----

async function benchDatabaseUrl(fresh: boolean): Promise<string> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  if (fresh) await admin.query(`drop database if exists ${PG_DB} with (force)`);
  const exists = await admin.query("select 1 from pg_database where datname = $1", [PG_DB]);
  if (exists.rowCount === 0) await admin.query(`create database ${PG_DB}`);
  const version = (await admin.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]?.v;
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${PG_DB}`;
  serverVersion = version ?? "?";
  return url.toString();
}

async function postgresTarget(): Promise<string> {
  console.log("\n== PostgreSQL server: app and floor, interleaved");
  const notes: string[] = [];
  const database = await readyData(async (fresh) => openPostgres(await benchDatabaseUrl(fresh), 2), notes);
  const url = await benchDatabaseUrl(false);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const version = appVersion();
  const startedAt = new Date().toISOString().slice(0, 16);
  const runs: Measured[] = [];
  let planText = "";
  let pagePlans = "";
  try {
    await returnClaimedLeads(database);
    const pool = await newLeadPool(database);
    await placeDeepCursor(database);
    const app = await started(startApp({ name: "app-postgres", appDir: APP_DIR, env: { DATABASE_URL: withApplicationName(url, "bench_app"), SEED_DEMO: "0" } }));
    const unnamed = await started(startFloor("floor-unnamed", withApplicationName(url, "bench_floor_unnamed"), "unnamed"));
    const prepared = await started(startFloor("floor-prepared", withApplicationName(url, "bench_floor_prepared"), "prepared"));
    const targets: Target[] = [
      { name: "app", pid: app.pid, base: app.base, backends: "bench_app", loop: app.loop },
      { name: "floor, unnamed SQL", pid: unnamed.pid, base: unnamed.base, backends: "bench_floor_unnamed" },
      { name: "floor, prepared", pid: prepared.pid, base: prepared.base, backends: "bench_floor_prepared" },
    ];
    const cookies = {} as Record<Person, string>;
    for (const who of Object.keys(PEOPLE) as Person[]) cookies[who] = await signIn(app.base, PEOPLE[who]);
    try {
      await checkSameAnswers(targets, cookies, database, pool);
      console.log("  app and floor answer every scenario the same (status, body, Link)");
      await checkNewPages(app.base, cookies);
      for (let round = 1; round <= ROUNDS; round++) {
        for (const scenario of TIMED) {
          for (const connections of round === 1 ? [CONNECTIONS, FEW_CONNECTIONS] : [CONNECTIONS]) {
            const servers = scenario.alone ? targets.slice(0, 1) : targets;
            for (let i = 0; i < servers.length; i++) {
              // Each round starts with a different server, so none always runs first (or after the claims' writes).
              const target = servers[(i + round - 1) % servers.length]!;
              const figures = await timedRun(target, loadFor(scenario, cookies[scenario.who], connections, pool), admin);
              if (scenario.claim) await putBackClaims(database);
              runs.push({ scenario: scenario.name, connections, server: target.name, round, figures });
              const per = (s: number) => ((s * 1000) / (figures.requests || 1)).toFixed(2);
              console.log(
                `  r${round} ${scenario.key} c${connections} ${target.name}: ${figures.rps} req/s, p50 ${figures.p50} p99 ${figures.p99} ms, ` +
                  `CPU ${per(figures.serverCpu)} + ${per(figures.databaseCpu)} ms/req, failed ${figures.failures}, load ${figures.load.toFixed(1)}${loopNote(figures)}`,
              );
            }
          }
        }
      }
    } finally {
      await signOut(app.base, Object.values(cookies));
    }
    await stopAll();
    planText = await plans(async (text, values) => (await admin.query(text, values)).rows, pool[pool.length - 1] ?? "none");
    pagePlans = await newPagePlans(database);
    await returnClaimedLeads(database);
  } finally {
    await stopAll();
    await admin.end();
    await database.close();
  }

  const names: [string, string, string] = ["app", "floor, unnamed SQL", "floor, prepared"];
  const scenarioNames = LISTS();
  const section = [
    `## PostgreSQL ${serverVersion} server: the app beside the floor`,
    "",
    `Run ${startedAt} UTC on app commit **${version}**; ${ROUNDS} interleaved rounds of ${SECONDS} s per server and scenario ` +
      `(after a 1 s warm-up each); load average ${loadRange(runs.map((r) => r.figures.load))} before the runs. Data: ${notes.join("; ")}.`,
    "",
    floorTables(runs, scenarioNames, CONNECTIONS, names),
    "",
    floorTables(runs, scenarioNames, FEW_CONNECTIONS, names),
    "",
    "The tail (50 connections): each round's app p99 over the prepared floor's p99 in the same round (median of the rounds), and",
    "the app's event loop and garbage collection during its runs (bench/loop-probe.ts).",
    "",
    tailTable(runs, scenarioNames, CONNECTIONS, "app", "floor, prepared"),
    "",
    "### The pages added since the lists, on the app alone in the same rounds (the floor serves only the lists)",
    "",
    "Rep 1 has 10,000 tasks and 2,000 appointments, and the story lead 10,000 timeline entries (bench/generate.ts ensureNewPagesData).",
    "",
    aloneTable(runs, PAGES(), [CONNECTIONS, FEW_CONNECTIONS], "app"),
    "",
    tailTable(runs, PAGES(), CONNECTIONS, "app"),
    "",
    "<details><summary>Every run</summary>",
    "",
    everyRun(runs),
    "",
    "</details>",
    "",
    "### Query plans of the floor's statements (the app's SQL written out), EXPLAIN ANALYZE",
    "",
    planText,
    "",
    "### Query plans of the new pages' statements (as the app writes them), EXPLAIN ANALYZE",
    "",
    pagePlans,
  ].join("\n");
  return section;
}

/** The app and both floors must give the same answers before anything is timed; a difference ends the run. */
async function checkSameAnswers(targets: Target[], cookies: Record<Person, string>, database: Database, pool: string[]): Promise<void> {
  const questions: Question[] = SCENARIOS.filter((s) => !s.claim).map((s) => ({ what: s.name, method: s.method, path: s.path, cookie: cookies[s.who] }));
  const firstPage = await fetch(targets[0]!.base + SCENARIOS[0]!.path, { headers: { cookie: cookies.rep } });
  const next = /<([^>]+)>; rel="next"/.exec(firstPage.headers.get("link") ?? "")?.[1];
  if (next) questions.push({ what: "New Leads, second page", method: "GET", path: next, cookie: cookies.rep });
  const claimed = pool[pool.length - 1] ?? "none";
  questions.push(
    { what: "signed out", method: "GET", path: SCENARIOS[0]!.path, cookie: undefined },
    { what: "another dealership's leads", method: "GET", path: `/api/dealerships/${dealershipId(2)}/leads?type=new`, cookie: cookies.rep },
    { what: "claim", method: "POST", path: `/api/leads/${claimed}/claim`, cookie: cookies.claimer, claim: true, before: async () => void (await returnClaimedLeads(database)) },
    { what: "claim of a lead another rep holds", method: "POST", path: `/api/leads/${TAKEN_LEAD}/claim`, cookie: cookies.claimer },
    { what: "claim of a missing lead", method: "POST", path: "/api/leads/bench_lead_missing/claim", cookie: cookies.claimer },
  );
  const mismatches = await compareServers(targets, questions);
  await returnClaimedLeads(database);
  if (mismatches.length > 0) {
    console.error("\n!!! THE FLOOR DOES NOT ANSWER AS THE APP DOES: the comparison would be meaningless.");
    for (const m of mismatches) console.error(`!!! ${m}`);
    console.error("!!! Bring bench/floor-server.ts in line with the app, then run again.\n");
    throw new Error(`${mismatches.length} answers differ between the app and the floor`);
  }
}

// ---- PGlite: the app alone, and its memory ----

async function pgliteTarget(): Promise<string> {
  console.log("\n== PGlite (embedded): the app on 1,000,000 leads");
  const home = path.join(DATA, "1m");
  const dir = path.join(home, "pglite");
  // Earlier runs kept the data in bench/.data/pglite-1m; the app looks for DATA_DIR/pglite.
  if (existsSync(path.join(DATA, "pglite-1m")) && !existsSync(dir)) {
    mkdirSync(home, { recursive: true });
    renameSync(path.join(DATA, "pglite-1m"), dir);
  }
  const open = async (fresh: boolean) => {
    if (fresh) rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    return openPglite({ client: newPglite(dir) });
  };
  const notes: string[] = [];
  let database = await readyData(open, notes);
  await returnClaimedLeads(database);
  const pool = await newLeadPool(database);
  await placeDeepCursor(database);
  await database.close();

  const version = appVersion();
  const startedAt = new Date().toISOString().slice(0, 16);
  const runs: Measured[] = [];
  let memory = "";
  try {
    if (notes.some((n) => n.startsWith("the new pages' data") || n.startsWith("1,000,000 leads loaded"))) {
      // The first start on data just made does one-off work (the job queue's schema, the first checks over the new
      // rows) that held the one connection for seconds: measured, it was a run of 0 requests a second.
      const first = await started(startApp({ name: "app-pglite-first-start", appDir: APP_DIR, env: { DATA_DIR: home, SEED_DEMO: "0" } }));
      await new Promise((r) => setTimeout(r, 20_000));
      await first.stop();
      running.delete(first);
    }
    const app = await started(startApp({ name: "app-pglite", appDir: APP_DIR, env: { DATA_DIR: home, SEED_DEMO: "0" } }));
    const atStart = residentMemory(app.pid);
    const cookies = {} as Record<Person, string>;
    for (const who of Object.keys(PEOPLE) as Person[]) cookies[who] = await signIn(app.base, PEOPLE[who]);
    await checkNewPages(app.base, cookies);
    const target: Target = { name: "app", pid: app.pid, base: app.base, loop: app.loop };
    const claimed = { next: 0 };
    for (const scenario of TIMED) {
      for (const connections of [CONNECTIONS, FEW_CONNECTIONS]) {
        const figures = await timedRun(target, loadFor(scenario, cookies[scenario.who], connections, pool, claimed));
        runs.push({ scenario: scenario.name, connections, server: "app", round: 1, figures });
        console.log(
          `  ${scenario.key} c${connections}: ${figures.rps} req/s, p50 ${figures.p50} p99 ${figures.p99} ms, failed ${figures.failures}, load ${figures.load.toFixed(1)}${loopNote(figures)}`,
        );
      }
    }
    const afterLoad = residentMemory(app.pid);
    memory = `Resident memory of the app process: ${atStart?.rssMb} MiB after start-up, ${afterLoad?.rssMb} MiB after the load (peak ${afterLoad?.peakMb} MiB).`;
    await signOut(app.base, Object.values(cookies));
  } finally {
    await stopAll();
  }
  const client = newPglite(dir);
  database = openPglite({ client });
  let planText = "";
  try {
    await putBackClaims(database);
    planText = await plans(async (text, values) => (await client.query<Record<string, unknown>>(text, values)).rows, pool[pool.length - 1] ?? "none");
    planText += `\n\n${await newPagePlans(database)}`;
    await returnClaimedLeads(database);
  } finally {
    await database.close();
  }
  console.log(`  ${memory}`);
  const demo = await demoTarget();
  return [
    "## PGlite (embedded; one connection inside the app's process, so no floor)",
    "",
    `Run ${startedAt} UTC on app commit **${version}**, one round of ${SECONDS} s per scenario after a 1 s warm-up. Data: ${notes.join("; ")}.`,
    "",
    "### 1,000,000 leads",
    "",
    aloneTable(runs, TIMED.map((s) => s.name), [CONNECTIONS, FEW_CONNECTIONS], "app"),
    "",
    "The app's event loop and garbage collection during each run (bench/loop-probe.ts):",
    "",
    tailTable(runs, TIMED.map((s) => s.name), [CONNECTIONS, FEW_CONNECTIONS], "app"),
    "",
    memory,
    "",
    demo,
    "",
    "### Query plans on PGlite (the floor's statements), EXPLAIN ANALYZE",
    "",
    planText,
  ].join("\n");
}

/** `npm start` on an empty data directory (demo data), its memory after start-up and after the leads screens' load. */
async function demoTarget(): Promise<string> {
  console.log("\n== PGlite (embedded): the app on the demo data of a first start");
  const home = path.join(DATA, "demo");
  rmSync(home, { recursive: true, force: true });
  const runs: Measured[] = [];
  let seeded = "";
  try {
    const first = await started(startApp({ name: "app-demo-first-start", appDir: APP_DIR, env: { DATA_DIR: home, SEED_DEMO: "1" } }));
    const firstMemory = residentMemory(first.pid);
    seeded = `${firstMemory?.rssMb} MiB after the first start (peak ${firstMemory?.peakMb} MiB while making the database and the demo data)`;
    await first.stop();
    running.delete(first);

    const app = await started(startApp({ name: "app-demo", appDir: APP_DIR, env: { DATA_DIR: home, SEED_DEMO: "1" } }));
    const atStart = residentMemory(app.pid);
    const cookies = { rep: await signIn(app.base, DEMO_PEOPLE.rep), manager: await signIn(app.base, DEMO_PEOPLE.manager) };
    const mine = (await (await fetch(`${app.base}/api/dealerships`, { headers: { cookie: cookies.rep } })).json()) as Array<{ id: string; name: string }>;
    const dealership = mine.find((d) => d.name === "Northside Motors") ?? mine[0];
    if (!dealership) throw new Error("the demo sales rep belongs to no dealership");
    const target: Target = { name: "app", pid: app.pid, base: app.base, loop: app.loop };
    for (const scenario of demoScenarios(dealership.id)) {
      const figures = await timedRun(target, loadFor(scenario, cookies[scenario.who], CONNECTIONS, []));
      runs.push({ scenario: scenario.name, connections: CONNECTIONS, server: "app", round: 1, figures });
      console.log(`  demo ${scenario.key}: ${figures.rps} req/s, p50 ${figures.p50} p99 ${figures.p99} ms, failed ${figures.failures}`);
    }
    const afterLoad = residentMemory(app.pid);
    await signOut(app.base, Object.values(cookies));
    const memory =
      `Resident memory of the app process (\`npm start\`, embedded): ${seeded}; after a restart ${atStart?.rssMb} MiB after start-up, ` +
      `${afterLoad?.rssMb} MiB after the load (peak ${afterLoad?.peakMb} MiB).`;
    console.log(`  ${memory}`);
    return ["### Demo data (`npm start` on an empty data directory)", "", aloneTable(runs, demoScenarios("").map((s) => s.name), [CONNECTIONS], "app"), "", memory].join("\n");
  } finally {
    await stopAll();
  }
}

// ---- RESULTS.md: a fixed head, then one section per target that each run replaces ----

const HEAD = `# Leads benchmark

\`npm run bench\` (or \`npm run bench -- postgres\` / \`-- pglite\`); what is measured and how: [README.md](README.md).
Data: ${BENCH.totalLeads.toLocaleString("en")} leads over ${BENCH.dealerships} dealerships (dealership 1 holds ${BENCH.bigDealershipLeads.toLocaleString("en")}, the others ${BENCH.leadsPerDealership} each), 30% new.
Machine: ${os.cpus().length} cores, shared with the load generator (autocannon) and whatever else runs; the load average before each run is recorded.
`;

function writeSection(key: "postgres" | "pglite", body: string): void {
  const start = `<!-- ${key}:start -->`;
  const end = `<!-- ${key}:end -->`;
  let text = existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : "";
  if (!text.includes("<!-- postgres:start -->") || !text.includes("<!-- pglite:start -->")) {
    text = `${HEAD}\n<!-- postgres:start -->\n(not run yet)\n<!-- postgres:end -->\n\n<!-- pglite:start -->\n(not run yet)\n<!-- pglite:end -->\n`;
  }
  const before = text.slice(0, text.indexOf(start) + start.length);
  const after = text.slice(text.indexOf(end));
  writeFileSync(RESULTS, `${before}\n${body}\n${after}`);
}

async function main(): Promise<void> {
  const only = process.argv[2];
  if (only && !["postgres", "pglite", "demo"].includes(only)) throw new Error(`unknown target ${only}: postgres, pglite or demo`);
  console.log(`app: ${APP_DIR} (${appVersion()}); ${SECONDS} s per run; load average ${loadNow()}`);
  if (only === "demo") {
    await demoTarget(); // prints its figures; RESULTS.md keeps the demo with the rest of the PGlite section
    return;
  }
  const record = (key: "postgres" | "pglite", section: string) => (ONLY_SCENARIOS ? console.log(`\n${section}`) : writeSection(key, section));
  if (!only || only === "postgres") record("postgres", await postgresTarget());
  if (!only || only === "pglite") record("pglite", await pgliteTarget());
  if (!ONLY_SCENARIOS) console.log(`\nwrote ${path.relative(process.cwd(), RESULTS)}`);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the servers`);
    void stopAll().then(() => process.exit(1));
  });
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  await stopAll();
  process.exitCode = 1;
});
