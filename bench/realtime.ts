import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import WebSocket from "ws";
import { SESSION_COOKIE, startSession } from "../src/server/auth/sessions";
import { migrateDatabase, openPostgres } from "../src/server/db/client";
import { makeDealership, makeUser, type MadeUser } from "../src/server/db/factories";
import { residentMemory } from "./proc";
import { REPO, startApp, type RunningServer } from "./servers";
import { replaceResultsSection, RESULTS } from "./results-file";

// npm run bench:realtime
//
// 1,000 sockets on /ws, each signed in with its own session and scoped to one dealership, then WRITES leads created
// over HTTP one after another: the time from sending the write to each socket receiving its lead_created (p50, p99
// over every socket and write, and the slowest socket per write), and the server's resident memory per socket (RSS
// after the sockets opened minus before, divided by their number). Twice: one app process holding every socket, then
// two processes on the same PostgreSQL server, half the sockets on each, the writes through the first (so half of the
// deliveries cross processes through LISTEN/NOTIFY). The sockets live in this process, which shares the machine's
// cores with the servers and PostgreSQL. Results replace the real-time section of bench/RESULTS.md.

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_DB = "showroom_bench_realtime";
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const WRITES = Number(process.env.BENCH_WRITES ?? 30);
const PEOPLE = 100;
const POLICY = { idleMs: 86_400_000, absoluteMs: 86_400_000 };

interface Socket {
  ws: WebSocket;
  /** Arrival time of each lead (by last name). */
  arrivals: Map<string, number>;
}

function databaseUrl(): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${PG_DB}`;
  return url.toString();
}

async function freshDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${PG_DB} with (force)`);
  await admin.query(`create database ${PG_DB}`);
  await admin.end();
}

/** A dealership, PEOPLE members of every role, and SOCKETS sessions spread over them (as many tabs and phones). */
async function seed(): Promise<{ dealershipId: string; cookies: string[]; writer: string }> {
  const database = openPostgres(databaseUrl(), 5);
  const { id: dealershipId } = await makeDealership(database.db, { name: "Bench Motors" });
  const roles = ["sales", "sales", "sales", "frontDesk", "management"] as const;
  const users: MadeUser[] = [];
  for (let i = 0; i < PEOPLE; i++) users.push(await makeUser(database.db, { memberships: [{ dealershipId, role: roles[i % roles.length]! }] }));
  const cookies: string[] = [];
  for (let i = 0; i < SOCKETS; i += 50) {
    const batch = Array.from({ length: Math.min(50, SOCKETS - i) }, (_, j) => startSession(database.db, users[(i + j) % PEOPLE]!.id, POLICY));
    for (const { token } of await Promise.all(batch)) cookies.push(`${SESSION_COOKIE}=${token}`);
  }
  const desk = await makeUser(database.db, { memberships: [{ dealershipId, role: "frontDesk" }] });
  const { token } = await startSession(database.db, desk.id, POLICY);
  await database.close();
  return { dealershipId, cookies, writer: `${SESSION_COOKIE}=${token}` };
}

async function server(name: string): Promise<RunningServer> {
  return startApp({ name, appDir: REPO, env: { DATABASE_URL: databaseUrl(), SEED_DEMO: "0", LOG_LEVEL: "warn", DATA_DIR: path.join(HERE, ".data", name) } });
}

function connect(base: string, cookie: string, dealershipId: string): Promise<Socket> {
  const url = `${base.replace(/^http/, "ws")}/ws`;
  const ws = new WebSocket(url, { headers: { cookie }, origin: base });
  const socket: Socket = { ws, arrivals: new Map() };
  return new Promise((resolve, reject) => {
    ws.once("error", reject);
    ws.on("message", (data) => {
      const message = JSON.parse(String(data)) as { type: string; data: { lastName?: string } };
      if (message.type === "authenticated") return resolve(socket);
      if (message.type === "error") return reject(new Error(JSON.stringify(message)));
      if (message.type === "lead_created" && message.data.lastName) socket.arrivals.set(message.data.lastName, performance.now());
    });
    ws.once("open", () => ws.send(JSON.stringify({ type: "auth", dealershipId })));
  });
}

async function connectAll(bases: string[], cookies: string[], dealershipId: string): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < cookies.length; i += 100) {
    const batch = cookies.slice(i, i + 100).map((cookie, j) => connect(bases[(i + j) % bases.length]!, cookie, dealershipId));
    sockets.push(...(await Promise.all(batch)));
  }
  return sockets;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Outcome {
  label: string;
  sockets: number;
  deliveries: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
  lastSocketP50: number;
  /** Median time until the POST itself answered (the write committed). */
  writeP50: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  kbPerSocket: number;
  load: string;
}

/** WRITES leads through `writerBase`, one after another, each waiting until every socket has it (or 5 s). */
async function measure(label: string, servers: RunningServer[], writerBase: string, writer: string, cookies: string[], dealershipId: string): Promise<Outcome> {
  const load = os.loadavg()[0]!.toFixed(1);
  // Warm each server (prepared statements, JIT) before reading its memory.
  for (const s of servers) for (let i = 0; i < 20; i++) await fetch(`${s.base}/api/health`);
  await settle(1000);
  const rss = () => servers.reduce((sum, s) => sum + (residentMemory(s.pid)?.rssMb ?? 0), 0);
  const rssBeforeMb = rss();
  const sockets = await connectAll(servers.map((s) => s.base), cookies, dealershipId);
  await settle(2000);
  const rssAfterMb = rss();

  const latencies: number[] = [];
  const slowest: number[] = [];
  const writes: number[] = [];
  for (let w = 0; w < WRITES; w++) {
    const lastName = `Bench${label.replace(/\W/g, "")}${w}`;
    const started = performance.now();
    const response = await fetch(`${writerBase}/api/dealerships/${dealershipId}/leads`, {
      method: "POST",
      headers: { cookie: writer, "content-type": "application/json" },
      body: JSON.stringify({ firstName: "Rt", lastName, phone: `41655${String(10000 + w).slice(-5)}` }),
    });
    if (response.status !== 201) throw new Error(`create lead: ${response.status} ${await response.text()}`);
    writes.push(performance.now() - started);
    const deadline = performance.now() + 5000;
    while (performance.now() < deadline && sockets.some((s) => !s.arrivals.has(lastName))) await settle(5);
    const times = sockets.map((s) => s.arrivals.get(lastName)).filter((t): t is number => t !== undefined).map((t) => t - started);
    latencies.push(...times);
    slowest.push(Math.max(...times));
    await settle(50);
  }
  for (const s of sockets) s.ws.terminate();
  latencies.sort((a, b) => a - b);
  slowest.sort((a, b) => a - b);
  return {
    label,
    sockets: sockets.length,
    deliveries: latencies.length,
    expected: sockets.length * WRITES,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1]!,
    lastSocketP50: percentile(slowest, 50),
    writeP50: percentile(writes.sort((a, b) => a - b), 50),
    rssBeforeMb,
    rssAfterMb,
    kbPerSocket: ((rssAfterMb - rssBeforeMb) * 1024) / sockets.length,
    load,
  };
}

function record(outcomes: Outcome[], serverVersion: string): void {
  const commit = execFileSync("git", ["-C", REPO, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const ms = (n: number) => (n < 10 ? n.toFixed(1) : n.toFixed(0));
  const lines = [
    "## Real-time socket: 1,000 sockets, from the write to every socket",
    "",
    `Run ${new Date().toISOString().slice(0, 16)} UTC on app commit **${commit}** (\`npm run bench:realtime\`); PostgreSQL ${serverVersion}. ` +
      `${SOCKETS} sockets (one session each, ${PEOPLE} people of every role in one dealership), ${WRITES} leads created over HTTP one after another; ` +
      "the time runs from sending the POST to the lead_created message arriving on a socket. The sockets live in the benchmark's own process on the " +
      "same 2 cores as the servers and PostgreSQL. Memory per socket is the servers' resident memory after the sockets opened minus before, per socket.",
    "",
    "| Setup | sockets | delivered | p50 ms | p99 ms | max ms | last socket, p50 ms | the POST answered, p50 ms | RSS before → after (MiB) | KiB per socket | load average before |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...outcomes.map(
      (o) =>
        `| ${o.label} | ${o.sockets} | ${o.deliveries} / ${o.expected} | ${ms(o.p50)} | ${ms(o.p99)} | ${ms(o.max)} | ${ms(o.lastSocketP50)} | ${ms(o.writeP50)} | ` +
        `${o.rssBeforeMb.toFixed(0)} → ${o.rssAfterMb.toFixed(0)} | ${o.kbPerSocket.toFixed(1)} | ${o.load} |`,
    ),
  ];
  const section = lines.join("\n");
  replaceResultsSection("realtime", section);
}

async function main(): Promise<void> {
  await freshDatabase();
  const migrating = openPostgres(databaseUrl(), 1);
  await migrateDatabase(migrating);
  await migrating.close();
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  const serverVersion = ((await admin.query("show server_version")).rows[0] as { server_version: string }).server_version;
  await admin.end();
  const running: RunningServer[] = [];
  try {
    // The first server starts while the people and sessions are written (it only needs the migrated schema).
    const [a, { dealershipId, cookies, writer }] = await Promise.all([server("realtime-a"), seed()]);
    running.push(a);
    const outcomes = [await measure("1 process", [a], a.base, writer, cookies, dealershipId)];
    // Fresh processes, so the memory of the first run's sockets does not hide the second's.
    await a.stop();
    const [a2, b] = await Promise.all([server("realtime-a2"), server("realtime-b")]);
    running.push(a2, b);
    outcomes.push(await measure("2 processes (writes through the first)", [a2, b], a2.base, writer, cookies, dealershipId));
    for (const o of outcomes) console.log(JSON.stringify(o));
    record(outcomes, serverVersion);
    console.log(`recorded in ${path.relative(REPO, RESULTS)}`);
  } finally {
    await Promise.all(running.map((s) => s.stop()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
