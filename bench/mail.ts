import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { migrateDatabase, openPglite, openPostgres, type Database } from "../src/server/db/client";
import { makeUser } from "../src/server/db/factories";
import { createMailer } from "../src/server/mail/mailer";
import { mailLayout } from "../src/server/mail/layout";
import { REPO, startApp } from "./servers";
import { replaceResultsSection, RESULTS } from "./results-file";

// npm run bench:mail [-- pglite | postgres]
//
// The mail queue under a notification backlog (decision 173): NOTIFICATIONS "New Lead" mails are queued before the
// app starts (as an earlier run, or one 500-prospect import before decision 174, would leave them); the app
// (`src/server/main.ts`, a child process) starts sending them at once to a local SMTP receiver in this process, and
// as soon as it answers /api/health a password reset is asked for over HTTP. Measured: notifications per second (first
// to last arrival), the reset's arrival after its request, how many notifications were still to come when it arrived,
// and the SMTP connections opened. Both databases by default. Results replace the mail section of bench/RESULTS.md.

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_DB = "showroom_bench_mail";
const PGLITE_DIR = path.join(HERE, ".data", "mail");
const NOTIFICATIONS = Number(process.env.BENCH_MAIL_NOTIFICATIONS ?? 1000);
const RESET_EMAIL = "forgot@bench-mail.example";
const RESET_SUBJECT = /^Subject: Reset your Showroom password/m;

interface Receiver {
  url: string;
  arrivals: number[];
  resetAt: () => number | null;
  /** Notifications that had arrived when the reset did. */
  beforeReset: () => number;
  connections: () => number;
  waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void>;
  close(): Promise<void>;
}

/** An SMTP server that only notes when each message arrives (and whether it is the reset): it must not be the bottleneck. */
async function startReceiver(): Promise<Receiver> {
  const arrivals: number[] = [];
  let resetAt: number | null = null;
  let beforeReset = 0;
  let connections = 0;
  const wakers = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, _session, callback) {
      let head = "";
      stream.on("data", (chunk: Buffer) => {
        if (head.length < 4096) head += chunk.toString("utf8");
      });
      stream.on("end", () => {
        const now = performance.now();
        if (RESET_SUBJECT.test(head)) {
          resetAt = now;
          beforeReset = arrivals.length;
        } else arrivals.push(now);
        for (const wake of wakers) wake();
        callback();
      });
    },
  });
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    arrivals,
    resetAt: () => resetAt,
    beforeReset: () => beforeReset,
    connections: () => connections,
    waitFor(check, timeoutMs, what) {
      return new Promise((resolve, reject) => {
        const wake = () => {
          if (!check()) return;
          clearTimeout(timer);
          wakers.delete(wake);
          resolve();
        };
        const timer = setTimeout(() => {
          wakers.delete(wake);
          reject(new Error(`${what} did not arrive within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        wakers.add(wake);
        wake();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The backlog and the person who forgot their password, written before the app starts. */
async function prepare(database: Database): Promise<void> {
  await migrateDatabase(database);
  await makeUser(database.db, { email: RESET_EMAIL, firstName: "Forgetful" });
  const mailer = createMailer({ database, logger: pino({ level: "silent" }), from: "Showroom <no-reply@bench.example>", worker: false });
  await mailer.start();
  const html = mailLayout(
    "New Lead: Jordan Bench",
    `<p>A new lead was added: Jordan Bench.</p><table>${"<tr><td>Customer</td><td>Jordan Bench</td></tr>".repeat(5)}</table>`,
  );
  await database.db.transaction(async (tx) => {
    for (let i = 0; i < NOTIFICATIONS; i++) {
      const text = `A new lead was added: Jordan Bench ${i}.\n\nCustomer: Jordan Bench ${i}\nEmail: jordan${i}@buyer.example\n`;
      await mailer.queue({ to: `manager${i % 2}@bench-mail.example`, subject: `New Lead: Jordan Bench ${i} — Bench Motors`, text, html, emailType: "lead_created", notification: true }, tx);
    }
  });
  await mailer.close();
  await database.close();
}

interface Outcome {
  label: string;
  notifications: number;
  perSecond: number;
  drainSeconds: number;
  resetMs: number;
  stillToCome: number;
  connections: number;
  load: string;
}

async function measure(label: string, env: Record<string, string>): Promise<Outcome> {
  const receiver = await startReceiver();
  const load = os.loadavg().map((n) => n.toFixed(1)).join(" / ");
  const app = await startApp({ name: `mail-${label}`, appDir: REPO, env: { ...env, SMTP_URL: receiver.url, SEED_DEMO: "false" } });
  try {
    const asked = performance.now();
    const response = await fetch(`${app.base}/api/auth/password-reset/request`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.base },
      body: JSON.stringify({ email: RESET_EMAIL }),
    });
    if (!response.ok) throw new Error(`the reset request answered ${response.status}: ${await response.text()}`);
    await receiver.waitFor(() => receiver.resetAt() !== null, 120_000, "the password reset");
    await receiver.waitFor(() => receiver.arrivals.length >= NOTIFICATIONS, 600_000, `${NOTIFICATIONS} notifications`);
    const first = receiver.arrivals[0]!;
    const last = receiver.arrivals[NOTIFICATIONS - 1]!;
    const drainSeconds = (last - first) / 1000;
    return {
      label,
      notifications: NOTIFICATIONS,
      perSecond: (NOTIFICATIONS - 1) / drainSeconds,
      drainSeconds,
      resetMs: receiver.resetAt()! - asked,
      stillToCome: NOTIFICATIONS - receiver.beforeReset(),
      connections: receiver.connections(),
      load,
    };
  } finally {
    await app.stop();
    await receiver.close();
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
  await prepare(openPostgres(url.toString(), 2));
  return measure(`PostgreSQL ${version}`, { DATABASE_URL: url.toString() });
}

async function onPglite(): Promise<Outcome> {
  rmSync(PGLITE_DIR, { recursive: true, force: true });
  mkdirSync(PGLITE_DIR, { recursive: true });
  await prepare(openPglite({ dataDir: path.join(PGLITE_DIR, "pglite") }));
  return measure("PGlite", { DATA_DIR: PGLITE_DIR, DATABASE_URL: "" });
}

function record(outcomes: Outcome[]): void {
  const commit = execFileSync("git", ["-C", REPO, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const section = [
    "## Mail: a notification backlog and a password reset behind it",
    "",
    `Run ${new Date().toISOString().slice(0, 16)} UTC on app commit **${commit}** (\`npm run bench:mail\`). ${NOTIFICATIONS} "New Lead" mails ` +
      "queued before the app starts; the app (`npm start`'s process) sends them to an SMTP receiver in the benchmark's process on the same " +
      "2 cores, and a password reset is asked for over HTTP as soon as the app answers. Mails per second: notifications, first to last arrival. " +
      "The reset: from sending its request to its arrival. Decision 173.",
    "",
    "| Database | notifications | mails/s | all sent in | reset arrived after | notifications still to come then | SMTP connections | load average before (1 / 5 / 15 min) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...outcomes.map(
      (o) =>
        `| ${o.label} | ${o.notifications} | ${o.perSecond.toFixed(0)} | ${o.drainSeconds.toFixed(1)} s | ${(o.resetMs / 1000).toFixed(2)} s | ` +
        `${o.stillToCome} | ${o.connections} | ${o.load} |`,
    ),
  ].join("\n");
  replaceResultsSection("mail", section);
}

async function main(): Promise<void> {
  const which = process.argv[2];
  const outcomes: Outcome[] = [];
  if (!which || which === "pglite") outcomes.push(await onPglite());
  if (!which || which === "postgres") outcomes.push(await onPostgres());
  for (const o of outcomes) console.log(JSON.stringify(o));
  record(outcomes);
  console.log(`recorded in ${path.relative(REPO, RESULTS)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
