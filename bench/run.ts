import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { sql, type SQL } from "drizzle-orm";
import pg from "pg";
import { buildApp } from "../src/server/app";
import { SESSION_COOKIE, startSession } from "../src/server/auth/sessions";
import { testConfig } from "../src/server/config";
import { newPglite, openPglite, openPostgres, rowsOf, type Database } from "../src/server/db/client";
import { listLeadsQuery, type Viewer } from "../src/server/leads/queries";
import { BENCH, dealershipId, generate, IncompleteBenchData, userId } from "./generate";

// npm run bench [-- pglite|postgres]: load benchmark of the leads lists and of claiming on 1,000,000 leads over
// 1,000 dealerships, on embedded PGlite and on the PostgreSQL server at 127.0.0.1:5432 (database showroom_bench).
// Each scenario runs BENCH_SECONDS (default 5) with 10 connections against the real app on 127.0.0.1; only this
// machine is contacted. Results and query plans go to bench/RESULTS.md. The data is generated once and reused.

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_DB = "showroom_bench";

interface Row {
  scenario: string;
  p50: number;
  p99: number;
  rps: number;
  requests: number;
  errors: number;
}

async function openTarget(target: "pglite" | "postgres", fresh = false): Promise<Database> {
  if (target === "pglite") {
    const dir = path.join(HERE, ".data", "pglite-1m");
    if (fresh) rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    return openPglite({ client: newPglite(dir) });
  }
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  if (fresh) await admin.query(`drop database if exists ${PG_DB} with (force)`);
  const exists = await admin.query("select 1 from pg_database where datname = $1", [PG_DB]);
  if (exists.rowCount === 0) await admin.query(`create database ${PG_DB}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${PG_DB}`;
  return openPostgres(url.toString(), 10);
}

async function explain(database: Database, query: SQL): Promise<string> {
  const result = await database.db.execute(sql`explain (analyze, costs off, timing off, summary on) ${query}`);
  return rowsOf<Record<string, string>>(result)
    .map((r) => Object.values(r)[0])
    .join("\n");
}

async function load(url: string, cookie: string, extra: Partial<autocannon.Options> = {}): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { cookie }, ...extra });
}

function row(scenario: string, r: autocannon.Result): Row {
  return {
    scenario,
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: Math.round(r.requests.average),
    requests: r.requests.total,
    errors: r.non2xx + r.errors,
  };
}

async function benchTarget(target: "pglite" | "postgres"): Promise<{ rows: Row[]; plans: Array<[string, string]>; notes: string[] }> {
  console.log(`\n== ${target}`);
  let database = await openTarget(target);
  const notes: string[] = [];
  const t0 = Date.now();
  const logLine = (line: string) => {
    console.log(line);
    notes.push(line.trim());
  };
  try {
    await generate(database, logLine);
  } catch (error) {
    if (!(error instanceof IncompleteBenchData)) throw error;
    console.log("  incomplete data from an earlier run: starting from an empty database");
    await database.close();
    database = await openTarget(target, true);
    await generate(database, logLine);
  }
  notes.push(`ready after ${Date.now() - t0} ms`);
  // The machine is shared (2 cores): the load before the run says how much else was competing for them.
  notes.push(`load average before the scenarios ${os.loadavg().map((n) => n.toFixed(1)).join(" / ")} (1 / 5 / 15 min)`);

  const app = await buildApp({ config: testConfig({ logLevel: "silent" }), database });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const policy = { idleMs: 86_400_000, absoluteMs: 86_400_000 };
  const cookieFor = async (id: string) => `${SESSION_COOKIE}=${(await startSession(database.db, id, policy)).token}`;

  const big = dealershipId(1);
  const typical = dealershipId(500);
  const rep = userId(1, 1);
  const manager = userId(1, 5);
  const repCookie = await cookieFor(rep);
  const managerCookie = await cookieFor(manager);
  const typicalCookie = await cookieFor(userId(500, 2));

  const scenarios: Array<[string, string, string, Viewer, Parameters<typeof listLeadsQuery>[1]]> = [
    ["New Leads, 100k-lead dealership (sales)", `/api/dealerships/${big}/leads?type=new`, repCookie, { userId: rep, dealershipId: big, role: "sales" }, { type: "new", limit: 100 }],
    ["My Clients, 100k-lead dealership (sales)", `/api/dealerships/${big}/leads?type=my`, repCookie, { userId: rep, dealershipId: big, role: "sales" }, { type: "my", limit: 100 }],
    ["All Clients, 100k-lead dealership (management)", `/api/dealerships/${big}/leads?type=my`, managerCookie, { userId: manager, dealershipId: big, role: "management" }, { type: "my", limit: 100 }],
    ["All Clients search q=garc + status=contacted (management)", `/api/dealerships/${big}/leads?type=my&q=garc&status=contacted`, managerCookie, { userId: manager, dealershipId: big, role: "management" }, { type: "my", q: "garc", status: "contacted", limit: 100 }],
    ["New Leads, 900-lead dealership (sales)", `/api/dealerships/${typical}/leads?type=new`, typicalCookie, { userId: userId(500, 2), dealershipId: typical, role: "sales" }, { type: "new", limit: 100 }],
  ];

  const rows: Row[] = [];
  const plans: Array<[string, string]> = [];
  for (const [name, url, cookie, viewer, options] of scenarios) {
    await load(base + url, cookie, { duration: 1 }); // warm-up
    const r = await load(base + url, cookie);
    rows.push(row(name, r));
    console.log(`  ${name}: p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${Math.round(r.requests.average)} req/s, non-2xx ${r.non2xx}`);
    plans.push([name, await explain(database, listLeadsQuery(viewer, options))]);
  }

  // Claiming: each request claims a different new lead of the big dealership; afterwards they go back to the pool.
  const pool = rowsOf<{ id: string }>(
    await database.db.execute(sql`select id from leads where dealership_id = ${big} and status = 'new' order by id limit 40000`),
  ).map((r) => r.id);
  let next = 0;
  const claimCookie = await cookieFor(userId(1, 2));
  const claim = await load(`${base}/api/leads/${pool[0]}/claim`, claimCookie, {
    method: "POST",
    requests: [
      {
        method: "POST",
        setupRequest: (req) => ({ ...req, path: `/api/leads/${pool[next++ % pool.length]}/claim` }),
      },
    ],
  });
  rows.push(row("Claim a new lead (conditional UPDATE … RETURNING)", claim));
  console.log(`  claim: p50 ${claim.latency.p50} ms, p99 ${claim.latency.p99} ms, ${Math.round(claim.requests.average)} req/s, non-2xx ${claim.non2xx}`);
  if (next > pool.length) notes.push(`claim scenario wrapped around the pool: ${next - pool.length} requests answered 409`);
  const claimSql = sql`update leads set status = 'claimed', claimed_by = ${userId(1, 3)}, claimed_at = now()
    where id = ${pool[pool.length - 1]} and status = 'new' and claimed_by is null returning *`;
  plans.push(["Claim", await explain(database, claimSql)]);
  await database.db.execute(
    sql`update leads set status = 'new', claimed_by = null, claimed_at = null where dealership_id = ${big} and claimed_by in (${userId(1, 2)}, ${userId(1, 3)}) and claimed_at > now() - interval '1 hour'`,
  );

  await app.close();
  await database.db.execute(sql`delete from sessions`);
  await database.close();
  return { rows, plans, notes };
}

function table(rows: Row[]): string {
  const lines = ["| Scenario | p50 (ms) | p99 (ms) | req/s | requests | non-2xx/errors |", "|---|---:|---:|---:|---:|---:|"];
  for (const r of rows) lines.push(`| ${r.scenario} | ${r.p50} | ${r.p99} | ${r.rps} | ${r.requests} | ${r.errors} |`);
  return lines.join("\n");
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const targets = (["pglite", "postgres"] as const).filter((t) => !only || t === only);
  const sections: string[] = [];
  for (const target of targets) {
    const { rows, plans, notes } = await benchTarget(target);
    sections.push(
      `## ${target === "pglite" ? "PGlite (embedded, one connection)" : "PostgreSQL 15 server (pool of 10)"}\n\n${table(rows)}\n\n` +
        `Data: ${notes.join("; ")}\n\n### Query plans (EXPLAIN ANALYZE)\n\n` +
        plans.map(([name, plan]) => `**${name}**\n\n\`\`\`\n${plan}\n\`\`\``).join("\n\n"),
    );
  }
  const header = `# Leads benchmark\n\nRun: \`npm run bench\` (or \`npm run bench -- pglite\` / \`-- postgres\`), ${new Date().toISOString().slice(0, 16)} UTC, on this project's 2-core machine.\n` +
    `Data: ${BENCH.totalLeads.toLocaleString("en")} leads over ${BENCH.dealerships} dealerships (one with ${BENCH.bigDealershipLeads.toLocaleString("en")}, the rest ${BENCH.leadsPerDealership} each), 30% new, made by \`bench/generate.ts\` with generate_series.\n` +
    `Each scenario: autocannon, ${CONNECTIONS} connections, ${SECONDS} s, after a 1 s warm-up, against the real app (sessions, tenancy guard, JSON) on 127.0.0.1. Pages are the default 100 rows.\n`;
  const file = path.join(HERE, only ? `RESULTS-${only}.md` : "RESULTS.md");
  writeFileSync(file, `${header}\n${sections.join("\n\n")}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
