import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { SESSION_COOKIE, startSession } from "../src/server/auth/sessions";
import { migrateDatabase, openPglite, openPostgres, type Database } from "../src/server/db/client";
import { makeDealership, makeUser } from "../src/server/db/factories";
import { replaceResultsSection, RESULTS } from "./results-file";
import { REPO, startApp } from "./servers";

// npm run bench:webhooks [-- postgres | pglite]
//
// Webhook delivery under a burst (issue 28, decision 227): EVENTS leads are created over HTTP (CONCURRENCY requests at
// a time) in a dealership with 5 webhooks on lead.created, each to its own local HTTP endpoint in this process
// (WEBHOOKS_ALLOW_PRIVATE=1): 4 answer 200 at once, 1 always answers 500. The app (`src/server/main.ts`, a child
// process, as `npm start` runs it, its queue polled as in production) sends them through the durable job queue. The
// run ends when each healthy endpoint has every event and the failing one has every event RETRIES + 1 times (its
// first try and its retries, 30 s apart and doubling), or after TIMEOUT. Every delivery's signature is verified with
// the `standardwebhooks` package. Measured, for the healthy endpoints' first receipt of each event: the time from
// the event's commit (its `timestamp`, the event row's time in the committing transaction) to the endpoint, p50 / p99
// / max; also from the POST's answer (which comes after the commit). For the failing endpoint: the time from an
// event's first try to its first retry. PostgreSQL by default. Results replace the webhook section of
// bench/RESULTS.md.

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_DB = "showroom_bench_webhooks";
const PGLITE_DIR = path.join(HERE, ".data", "webhooks");
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 10);
const RETRIES = Number(process.env.BENCH_WEBHOOK_RETRIES ?? 1);
const TIMEOUT_MS = Number(process.env.BENCH_WEBHOOK_TIMEOUT_S ?? 900) * 1000;
const HEALTHY = 4;

interface Receipt {
  id: string;
  at: number;
  /** The event's timestamp (ms since the epoch) from the body. */
  committedAt: number;
  leadId: string;
  valid: boolean;
}

interface Endpoint {
  name: string;
  url: string;
  failing: boolean;
  receipts: Receipt[];
  /** Receipts per webhook-id. */
  seen: Map<string, Receipt[]>;
  verifier: StandardWebhook | null;
  close(): Promise<void>;
}

/** A local endpoint that records each delivery (arrival, webhook-id, the event's time and lead) and answers 200 or 500. */
async function startEndpoint(name: string, failing: boolean): Promise<Endpoint> {
  const endpoint: Endpoint = { name, url: "", failing, receipts: [], seen: new Map(), verifier: null, close: async () => undefined };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(request.headers["webhook-id"] ?? "");
      let valid = false;
      try {
        endpoint.verifier!.verify(body, {
          "webhook-id": id,
          "webhook-timestamp": String(request.headers["webhook-timestamp"] ?? ""),
          "webhook-signature": String(request.headers["webhook-signature"] ?? ""),
        });
        valid = true;
      } catch {
        valid = false;
      }
      const parsed = JSON.parse(body) as { timestamp: string; data: { lead: { id: string } } };
      const receipt = { id, at, committedAt: Date.parse(parsed.timestamp), leadId: parsed.data.lead.id, valid };
      endpoint.receipts.push(receipt);
      const list = endpoint.seen.get(id);
      if (list) list.push(receipt);
      else endpoint.seen.set(id, [receipt]);
      response.writeHead(failing ? 500 : 200, { "content-type": "text/plain" });
      response.end(failing ? "down for the bench" : "ok");
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${name}`;
  endpoint.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return endpoint;
}

/** The dealership and its manager, with a session cookie, written before the app starts. */
async function prepare(database: Database): Promise<{ dealershipId: string; cookie: string }> {
  await migrateDatabase(database);
  const { id: dealershipId } = await makeDealership(database.db, { name: "Bench Motors" });
  const manager = await makeUser(database.db, { email: "manager@bench-webhooks.example", memberships: [{ dealershipId, role: "management" }] });
  const { token } = await startSession(database.db, manager.id, { idleMs: 86_400_000, absoluteMs: 86_400_000 });
  await database.close();
  return { dealershipId, cookie: `${SESSION_COOKIE}=${token}` };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface Outcome {
  label: string;
  events: number;
  postSeconds: number;
  healthyDelivered: number;
  healthyExpected: number;
  duplicates: number;
  invalidSignatures: number;
  commitP50: number;
  commitP99: number;
  commitMax: number;
  answerP50: number;
  answerP99: number;
  lastHealthySeconds: number;
  firstTriesPerSecond: number;
  failingAttempts: number;
  failingEventsRetried: number;
  retryDelayMin: number;
  retryDelayP50: number;
  retryDelayMax: number;
  seconds: number;
  load: string;
}

async function measure(label: string, env: Record<string, string>, prepared: { dealershipId: string; cookie: string }): Promise<Outcome> {
  const endpoints: Endpoint[] = [];
  for (let i = 0; i < HEALTHY; i++) endpoints.push(await startEndpoint(`healthy-${i + 1}`, false));
  endpoints.push(await startEndpoint("failing", true));
  const load = os.loadavg().map((n) => n.toFixed(1)).join(" / ");
  const app = await startApp({ name: `webhooks-${label.split(" ")[0]!.toLowerCase()}`, appDir: REPO, env: { ...env, WEBHOOKS_ALLOW_PRIVATE: "1", SEED_DEMO: "false" } });
  try {
    const headers = { "content-type": "application/json", origin: app.base, cookie: prepared.cookie };
    for (const endpoint of endpoints) {
      const response = await fetch(`${app.base}/api/dealerships/${prepared.dealershipId}/webhooks`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: endpoint.url, events: ["lead.created"], description: endpoint.name }),
      });
      if (response.status !== 201) throw new Error(`adding the webhook answered ${response.status}: ${await response.text()}`);
      endpoint.verifier = new StandardWebhook(((await response.json()) as { secret: string }).secret);
    }

    // The burst: EVENTS leads, CONCURRENCY requests at a time; each lead's POST answer time, by lead id.
    const answeredAt = new Map<string, number>();
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < EVENTS) {
          const n = next++;
          const response = await fetch(`${app.base}/api/dealerships/${prepared.dealershipId}/leads`, {
            method: "POST",
            headers,
            body: JSON.stringify({ firstName: "Webhook", lastName: `Bench ${n}`, email: `bench${n}@buyer.example` }),
          });
          if (response.status !== 201) throw new Error(`creating lead ${n} answered ${response.status}: ${await response.text()}`);
          answeredAt.set(((await response.json()) as { id: string }).id, Date.now());
        }
      }),
    );
    const postSeconds = (Date.now() - started) / 1000;
    console.log(`${label}: ${EVENTS} leads created in ${postSeconds.toFixed(1)} s; waiting for the deliveries`);

    const healthy = endpoints.filter((e) => !e.failing);
    const failing = endpoints.find((e) => e.failing)!;
    const done = () =>
      healthy.every((e) => e.seen.size >= EVENTS) && failing.seen.size >= EVENTS && [...failing.seen.values()].every((list) => list.length >= RETRIES + 1);
    const deadline = started + TIMEOUT_MS;
    let lastReport = Date.now();
    while (!done() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        const retried = [...failing.seen.values()].filter((list) => list.length >= RETRIES + 1).length;
        console.log(`  ${((Date.now() - started) / 1000).toFixed(0)} s: healthy ${healthy.map((e) => e.seen.size).join(" / ")}, failing ${failing.seen.size} tried, ${retried} retried`);
      }
    }
    const seconds = (Date.now() - started) / 1000;

    const firsts = healthy.flatMap((e) => [...e.seen.values()].map((list) => list[0]!));
    const fromCommit = firsts.map((r) => r.at - r.committedAt).sort((a, b) => a - b);
    const fromAnswer = firsts.map((r) => r.at - (answeredAt.get(r.leadId) ?? NaN)).filter((n) => !Number.isNaN(n)).sort((a, b) => a - b);
    const lastHealthy = Math.max(...firsts.map((r) => r.at));
    const retryDelays = [...failing.seen.values()].filter((list) => list.length >= 2).map((list) => list[1]!.at - list[0]!.at).sort((a, b) => a - b);
    const all = endpoints.flatMap((e) => e.receipts);
    // Every endpoint's first copy of each event: the sending rate, from the first lead's POST to the last of them.
    const firstTries = endpoints.flatMap((e) => [...e.seen.values()].map((list) => list[0]!));
    return {
      label,
      events: EVENTS,
      postSeconds,
      healthyDelivered: firsts.length,
      healthyExpected: EVENTS * HEALTHY,
      duplicates: healthy.reduce((sum, e) => sum + e.receipts.length - e.seen.size, 0),
      invalidSignatures: all.filter((r) => !r.valid).length,
      commitP50: percentile(fromCommit, 50),
      commitP99: percentile(fromCommit, 99),
      commitMax: fromCommit[fromCommit.length - 1] ?? NaN,
      answerP50: percentile(fromAnswer, 50),
      answerP99: percentile(fromAnswer, 99),
      lastHealthySeconds: (lastHealthy - started) / 1000,
      firstTriesPerSecond: firstTries.length / ((Math.max(...firstTries.map((r) => r.at)) - started) / 1000),
      failingAttempts: failing.receipts.length,
      failingEventsRetried: [...failing.seen.values()].filter((list) => list.length >= RETRIES + 1).length,
      retryDelayMin: retryDelays[0] ?? NaN,
      retryDelayP50: percentile(retryDelays, 50),
      retryDelayMax: retryDelays[retryDelays.length - 1] ?? NaN,
      seconds,
      load,
    };
  } finally {
    await app.stop();
    await Promise.all(endpoints.map((e) => e.close()));
  }
}

async function onPostgres(): Promise<Outcome> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${PG_DB} with (force)`);
  await admin.query(`create database ${PG_DB}`);
  const version = ((await admin.query("show server_version")).rows[0] as { server_version: string }).server_version.split(" ")[0];
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${PG_DB}`;
  const prepared = await prepare(openPostgres(url.toString(), 2));
  return measure(`PostgreSQL ${version}`, { DATABASE_URL: url.toString() }, prepared);
}

async function onPglite(): Promise<Outcome> {
  rmSync(PGLITE_DIR, { recursive: true, force: true });
  mkdirSync(PGLITE_DIR, { recursive: true });
  const prepared = await prepare(openPglite({ dataDir: path.join(PGLITE_DIR, "pglite") }));
  return measure("PGlite", { DATA_DIR: PGLITE_DIR, DATABASE_URL: "" }, prepared);
}

function record(outcomes: Outcome[]): void {
  const commit = execFileSync("git", ["-C", REPO, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const s = (ms: number) => (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
  const section = [
    "## Webhooks: 1,000 events to 5 endpoints, one of them failing",
    "",
    `Run ${new Date().toISOString().slice(0, 16)} UTC on app commit **${commit}** (\`npm run bench:webhooks\`). ${EVENTS} leads created over HTTP, ` +
      `${CONCURRENCY} requests at a time, in a dealership with 5 webhooks on lead.created, each to its own HTTP endpoint in the benchmark's process ` +
      "(`WEBHOOKS_ALLOW_PRIVATE=1`, the same 2 cores): 4 answer 200, 1 always 500. The app runs as `npm start` runs it, its queue polled as in " +
      `production. The run ends when every healthy endpoint has every event and the failing one has each event ${RETRIES + 1} times (first try and ` +
      `${RETRIES} retr${RETRIES === 1 ? "y" : "ies"}). From commit: from the event's timestamp (its row's time in the committing transaction) to the ` +
      "healthy endpoint's receipt of its first copy; from the answer: from the POST's answer (after the commit). Every signature verified with the " +
      "`standardwebhooks` package. Decisions 227 and 232.",
    "",
    "| Database | events posted in | healthy deliveries | repeats at healthy endpoints | bad signatures | from commit p50 / p99 / max | from the answer p50 / p99 | last healthy delivery after | first tries/s (all 5) | failing endpoint: requests, events retried | first retry after (min / p50 / max) | load average before (1 / 5 / 15 min) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...outcomes.map(
      (o) =>
        `| ${o.label} | ${o.postSeconds.toFixed(1)} s | ${o.healthyDelivered} / ${o.healthyExpected} | ${o.duplicates} | ${o.invalidSignatures} | ` +
        `${s(o.commitP50)} / **${s(o.commitP99)}** / ${s(o.commitMax)} s | ${s(o.answerP50)} / ${s(o.answerP99)} s | ${o.lastHealthySeconds.toFixed(1)} s | ` +
        `${o.firstTriesPerSecond.toFixed(0)} | ${o.failingAttempts}, ${o.failingEventsRetried} / ${o.events} | ${s(o.retryDelayMin)} / ${s(o.retryDelayP50)} / ${s(o.retryDelayMax)} s | ${o.load} |`,
    ),
  ].join("\n");
  replaceResultsSection("webhooks", section);
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? "postgres";
  const outcomes: Outcome[] = [];
  if (which === "pglite") outcomes.push(await onPglite());
  else if (which === "postgres") outcomes.push(await onPostgres());
  else throw new Error(`npm run bench:webhooks [-- postgres | pglite], not ${which}`);
  for (const o of outcomes) console.log(JSON.stringify(o));
  const complete = outcomes.every((o) => o.healthyDelivered === o.healthyExpected && o.failingEventsRetried === o.events && o.invalidSignatures === 0);
  if (!complete) {
    process.exitCode = 1;
    console.error("incomplete: a healthy endpoint missed events, the failing one missed retries, or a signature was bad (RESULTS.md left alone)");
    return;
  }
  record(outcomes);
  console.log(`recorded in ${path.relative(REPO, RESULTS)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
