import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { migrateDatabase, openPostgres } from "../../src/server/db/client";
import { createMailer } from "../../src/server/mail/mailer";

// The real process: start-up with demo data, health, graceful SIGTERM, and migrations from two processes at once.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const START_TIMEOUT_MS = 180_000;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  // A cold start migrates and seeds the demo data: on a busy 2-core machine that can take well over a minute.
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (ok) return { child, port, output: () => output };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL"); // a server left running would outlive the test run
  throw new Error(`server did not start:\n${output}`);
}

// The embedded database's start-up: the PGlite run covers it; the PostgreSQL run (TEST_DATABASE_URL) would start the
// same embedded database again, so it leaves this case out.
describe.skipIf(process.env.TEST_DATABASE_URL)("the server process", () => {
  it("starts on an empty embedded database with demo data, prints the demo logins, and stops cleanly on SIGTERM", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "showroom-proc-"));
    dirs.push(dataDir);
    const { child, port, output } = await startServer({ DATA_DIR: dataDir, SEED_DEMO: "", DATABASE_URL: "", PLATFORM_ADMIN_EMAILS: "frontdesk@demo.showroom" });

    expect(output()).toContain("sales@demo.showroom");
    const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "manager@demo.showroom", password: "showroom123" }),
    });
    expect(login.status).toBe(200);

    // PLATFORM_ADMIN_EMAILS is granted at start to users who already exist.
    const frontDesk = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "frontdesk@demo.showroom", password: "showroom123" }),
    });
    const cookie = frontDesk.headers.get("set-cookie")!.split(";")[0]!;
    const status = await fetch(`http://127.0.0.1:${port}/api/user/platform-admin-status`, { headers: { cookie } });
    expect(await status.json()).toEqual({ isPlatformAdmin: true });
    // Logs never carry a password or a cookie.
    expect(output()).not.toContain("showroom123\"}");
    expect(output()).not.toContain("showroom.sid=");

    // "close": after the exit and after the last of its output has been read.
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const started = Date.now();
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The log is written asynchronously, and all of it is out by the exit: the request lines and the last words.
    const log = output();
    expect(log).toMatch(/"url":"\/api\/login","status":200/);
    expect(log).toContain('"msg":"shutting down"');
    expect(log).toContain('"msg":"stopped"');
    expect(log).not.toContain("showroom123\"}");
    expect(log).not.toContain("showroom.sid=");

    // The command line grants platform admin on the same data.
    const cli = spawnSync(process.execPath, ["--import", "tsx", "src/server/cli.ts", "grant-platform-admin", "sales@demo.showroom"], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      encoding: "utf8",
    });
    expect(cli.stdout).toContain("sales@demo.showroom is now a platform admin");
    expect(cli.status).toBe(0);
    const unknown = spawnSync(process.execPath, ["--import", "tsx", "src/server/cli.ts", "grant-platform-admin", "nobody@example.com"], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      encoding: "utf8",
    });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("No user with the e-mail nobody@example.com");
  }, START_TIMEOUT_MS + 60_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)("SIGTERM on a PostgreSQL server while queued mail goes out", () => {
  it("stops the mail workers before the connection pool closes: no delivery error, and every mail is sent or still queued", async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const name = `showroom_sigterm_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = openPostgres(url.toString(), 2);
    const total = 3000;
    try {
      await migrateDatabase(database);
      // A backlog left by an earlier run: the server starts on it at once and, stopped at once, leaves it half done.
      const mailer = createMailer({ database, logger: pino({ level: "silent" }), from: "Showroom <no-reply@showroom.test>", worker: false });
      await mailer.start();
      await database.db.transaction(async (tx) => {
        for (let i = 0; i < total; i++) {
          await mailer.queue({ to: `n${i}@backlog.example`, subject: "New Lead", text: "A lead", emailType: "lead_created", notification: true }, tx);
        }
      });
      await mailer.close();

      // Without SMTP_URL each mail is a log line: the backlog goes as fast as the database allows.
      const { child, output } = await startServer({ DATABASE_URL: url.toString(), SMTP_URL: "", SEED_DEMO: "false" });
      const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      const log = output();
      expect(log).toContain('"msg":"stopped"');
      // The mailer's delivery at close used to run on after app.close() and hit the ended pool.
      expect(log).not.toContain("mail delivery at close failed");
      expect(log).not.toContain("Cannot use a pool after calling end");

      // Nothing lost: each mail is recorded as sent or still waits in the queue for the next start.
      const recorded = await database.pool.query("select count(*)::int as n from emails_log");
      const queued = await database.pool.query("select count(*)::int as n from pgboss.job where name = 'mail'");
      expect(recorded.rows[0].n).toBeGreaterThan(0);
      expect(recorded.rows[0].n + queued.rows[0].n).toBe(total);
    } finally {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)("migrations on a PostgreSQL server", () => {
  it("are applied once when two processes start at the same time", async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const name = `showroom_migrate_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const a = openPostgres(url.toString(), 2);
    const b = openPostgres(url.toString(), 2);
    try {
      await Promise.all([migrateDatabase(a), migrateDatabase(b)]);
      const applied = await a.pool.query("select count(*)::int as n from drizzle.__drizzle_migrations");
      const files = (await import("node:fs")).readdirSync("drizzle").filter((f) => f.endsWith(".sql"));
      expect(applied.rows[0].n).toBe(files.length);
    } finally {
      await a.close();
      await b.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 60_000);
});
