import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import sharp from "sharp";
import { afterAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../../src/server/app";
import { restoreBackup, writeBackup } from "../../src/server/backup/backup";
import { askRunningApp, serveControlSocket } from "../../src/server/backup/control-socket";
import { testConfig } from "../../src/server/config";
import { migrateDatabase, newPglite, openPglite, openPostgres, rowsOf, type Database } from "../../src/server/db/client";
import { makeDealership, makeUser } from "../../src/server/db/factories";
import { agent, createTestDatabase, signIn, type Agent } from "../helpers/test-app";
import { totpAt } from "../helpers/totp";

// Backups and the move from the embedded database to a PostgreSQL server (issue 31, decision 212).

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), `showroom-${prefix}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const serverUrl = process.env.TEST_DATABASE_URL;
const hasPgTools = spawnSync("pg_dump", ["--version"]).status === 0 && spawnSync("psql", ["--version"]).status === 0;

function cli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ["--import", "tsx", "src/server/cli.ts", ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", DATABASE_URL: "", ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
}

/** Leads and their lead.created events: a consistent copy has each lead's event and each event's lead. */
async function leadsAndEvents(database: Database) {
  const [row] = rowsOf<{ leads: number; events: number; orphanLeads: number; orphanEvents: number }>(
    await database.db.execute(sql`select
      (select count(*)::int from leads) as leads,
      (select count(*)::int from domain_events where type = 'lead.created') as events,
      (select count(*)::int from leads l where not exists (select 1 from domain_events e where e.type = 'lead.created' and e.payload->'lead'->>'id' = l.id::text)) as "orphanLeads",
      (select count(*)::int from domain_events e where e.type = 'lead.created' and not exists (select 1 from leads l where l.id::text = e.payload->'lead'->>'id')) as "orphanEvents"`),
  );
  return row!;
}

/** Writes leads one after another until stopped; answers how many were answered 201. */
function writeLeads(manager: Agent, dealershipId: string) {
  let stop = false;
  let created = 0;
  const done = (async () => {
    while (!stop) {
      const response = await manager.post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Burst", lastName: `Lead ${created}` });
      if (response.statusCode !== 201) throw new Error(`lead not created: ${response.statusCode} ${response.body}`);
      created++;
    }
    return created;
  })();
  return {
    count: () => created,
    stop: () => {
      stop = true;
      return done;
    },
  };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
};

describe.skipIf(serverUrl)("backups of the embedded database", () => {
  const dataDir = tempDir("backup-source");
  const restoredDir = tempDir("backup-restored");
  const file = path.join(tempDir("backup-file"), "showroom.backup");

  it("are written by the serving process while it takes writes, consistent, and restore", async () => {
    const database = await createTestDatabase();
    const app = await buildApp({ config: testConfig({ dataDir }), database });
    const control = await serveControlSocket({ database, target: { dataDir }, logger: pino({ level: "silent" }) });
    try {
      const dealership = await makeDealership(app.db);
      const user = await makeUser(app.db, { memberships: [{ dealershipId: dealership.id, role: "management" }] });
      writeFileSync(path.join(dataDir, "app-secret.key"), "k".repeat(64));
      const burst = writeLeads(await signIn(app, user), dealership.id);
      await until(() => burst.count() >= 5);
      // What `npm run cli -- backup FILE` does when the app runs: ask it over DATA_DIR/control.sock.
      const answer = await askRunningApp(dataDir, file);
      const total = await burst.stop();
      expect(answer).toMatchObject({ ok: true, summary: { database: "pglite", files: ["app-secret.key"] } });

      await restoreBackup({ dataDir: restoredDir }, file, { force: false });
      const restored = openPglite({ dataDir: path.join(restoredDir, "pglite") });
      try {
        const copy = await leadsAndEvents(restored);
        expect(copy.leads).toBeGreaterThanOrEqual(5);
        expect(copy.leads).toBeLessThanOrEqual(total);
        expect(copy).toMatchObject({ events: copy.leads, orphanLeads: 0, orphanEvents: 0 });
      } finally {
        await restored.close();
      }
      expect(readFileSync(path.join(restoredDir, "app-secret.key"), "utf8")).toBe("k".repeat(64));
    } finally {
      control.close();
      await app.close();
      await database.close();
    }
  }, 120_000);

  it("refuses to restore into a database that has data, unless given --force (which keeps the old one aside)", async () => {
    const refused = cli(["restore", file], { DATA_DIR: restoredDir });
    expect(refused.status, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stderr).toContain("is not empty (it has users or dealerships): restoring would replace them. Add --force to replace it");
    await restoreBackup({ dataDir: restoredDir }, file, { force: true });
    expect(readdirSync(restoredDir).filter((name) => name.startsWith("pglite.before-restore-"))).toHaveLength(1);
    await expect(restoreBackup({ dataDir: restoredDir }, path.join(restoredDir, "nothing-here"), { force: true })).rejects.toThrow("no such file");
  }, 120_000);
});

/** A new, empty database on the test server. */
async function serverDatabase(label: string, template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `showroom_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  await admin.end();
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** Each table of the app's schema: its row count and a checksum of its rows' text, in UTC. */
async function tableChecksums(query: (text: string) => Promise<Array<Record<string, unknown>>>): Promise<Record<string, string>> {
  await query("set timezone = 'UTC'");
  const tables = (await query("select tablename from pg_tables where schemaname = 'public' order by tablename")).map((r) => String(r.tablename));
  const sums: Record<string, string> = {};
  for (const table of tables) {
    const [row] = await query(`select count(*) as n, coalesce(md5(string_agg(md5(t::text), '' order by md5(t::text))), '') as sum from public."${table}" t`);
    sums[table] = `${String(row?.n)} ${String(row?.sum)}`;
  }
  return sums;
}

if (serverUrl && !hasPgTools) {
  describe("backups on a PostgreSQL server", () => {
    it.skip("need pg_dump, pg_restore and psql (Debian: apt-get install postgresql-client): skipped", () => undefined);
  });
}

describe.runIf(serverUrl && hasPgTools)("backups on a PostgreSQL server", () => {
  it("are consistent while the app takes writes (pg_dump), and restore with pg_restore", async () => {
    // The source is a copy of the migrated template, as the app's tests use.
    const source = await serverDatabase("backup_src", inject("postgresTemplate"));
    const target = await serverDatabase("backup_dst");
    const dataDir = tempDir("server-backup");
    const file = path.join(dataDir, "server.backup");
    try {
      const serving = openPostgres(source.url);
      const app = await buildApp({ config: testConfig({ dataDir, databaseUrl: source.url }), database: serving });
      try {
        const dealership = await makeDealership(app.db);
        const user = await makeUser(app.db, { memberships: [{ dealershipId: dealership.id, role: "management" }] });
        const burst = writeLeads(await signIn(app, user), dealership.id);
        await until(() => burst.count() >= 5);
        const summary = await writeBackup(serving, { dataDir, databaseUrl: source.url }, file);
        const total = await burst.stop();
        expect(summary.database).toBe("postgres");

        await restoreBackup({ dataDir: tempDir("server-restored"), databaseUrl: target.url }, file, { force: false });
        const restored = openPostgres(target.url, 1);
        try {
          const copy = await leadsAndEvents(restored);
          expect(copy.leads).toBeGreaterThanOrEqual(5);
          expect(copy.leads).toBeLessThanOrEqual(total);
          expect(copy).toMatchObject({ events: copy.leads, orphanLeads: 0, orphanEvents: 0 });
        } finally {
          await restored.close();
        }
        await expect(restoreBackup({ dataDir: tempDir("server-restored"), databaseUrl: target.url }, file, { force: false })).rejects.toThrow(
          "the database at DATABASE_URL is not empty (it has users or dealerships): restoring would replace them. Add --force to replace it",
        );
        await restoreBackup({ dataDir: tempDir("server-restored"), databaseUrl: target.url }, file, { force: true });
      } finally {
        await app.close();
        await serving.close();
      }
    } finally {
      await source.drop();
      await target.drop();
    }
  }, 120_000);

  it("moves the embedded database to a server with everything in it: rows, files, passwords, two-factor, sessions", async () => {
    const sourceDir = tempDir("move-source");
    const targetDir = tempDir("move-target");
    const file = path.join(tempDir("move-file"), "move.backup");
    const target = await serverDatabase("move");
    try {
      // The embedded database as a dealership left it: a manager with two-factor on and a photo, a signed-in rep, leads.
      mkdirSync(sourceDir, { recursive: true });
      // (This run provides a server template only: the embedded database is migrated here.)
      const client = newPglite(path.join(sourceDir, "pglite"));
      const source = openPglite({ client });
      await migrateDatabase(source);
      const app = await buildApp({ config: testConfig({ dataDir: sourceDir }), database: source });
      const dealership = await makeDealership(app.db, { name: "Lakeshore Honda" });
      const manager = await makeUser(app.db, { memberships: [{ dealershipId: dealership.id, role: "management" }] });
      const rep = await makeUser(app.db, { memberships: [{ dealershipId: dealership.id, role: "sales" }] });
      const managerSession = await signIn(app, manager);
      const setup = (await managerSession.post("/api/auth/2fa/setup")).json<{ secret: string }>();
      const now = Date.now();
      expect((await managerSession.post("/api/auth/2fa/verify-setup", { secret: setup.secret, token: totpAt(setup.secret, now) })).statusCode).toBe(200);
      const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 20, g: 90, b: 160 } } }).png().toBuffer();
      const boundary = "----move-boundary";
      const uploaded = await managerSession.request({
        method: "POST",
        url: "/api/user/avatar",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`),
          photo,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const avatarUrl = uploaded.json<{ profileImageUrl: string }>().profileImageUrl;
      const avatarBytes = (await managerSession.get(avatarUrl)).rawPayload;
      for (let i = 0; i < 5; i++) await managerSession.post(`/api/dealerships/${dealership.id}/leads`, { firstName: "Moved", lastName: `Lead ${i}` });
      const repLogin = await app.inject({ method: "POST", url: "/api/login", payload: { email: rep.email, password: rep.password } });
      const repCookie = String(repLogin.headers["set-cookie"]).split(";")[0]!;
      await app.events.flush();
      await app.close();
      const before = await tableChecksums(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
      await source.close();

      // The documented commands: a backup of DATA_DIR, restored into DATABASE_URL.
      const backedUp = cli(["backup", file], { DATA_DIR: sourceDir });
      expect(backedUp.status, backedUp.stdout + backedUp.stderr).toBe(0);
      const restored = cli(["restore", file], { DATA_DIR: targetDir, DATABASE_URL: target.url });
      expect(restored.status, restored.stdout + restored.stderr).toBe(0);

      const server = openPostgres(target.url, 2);
      try {
        const after = await tableChecksums(async (text) => (await server.pool.query(text)).rows as Array<Record<string, unknown>>);
        expect(after).toEqual(before);
        expect(Number(before.leads?.split(" ")[0])).toBeGreaterThanOrEqual(5);

        const moved = await buildApp({ config: testConfig({ dataDir: targetDir, databaseUrl: target.url }), database: server });
        try {
          // The manager signs in with password and authenticator code (the next step: the last one was used).
          const withoutCode = await moved.inject({ method: "POST", url: "/api/login", payload: { email: manager.email, password: manager.password } });
          expect(withoutCode.json()).toEqual({ requiresTwoFactor: true });
          const login = await moved.inject({
            method: "POST",
            url: "/api/login",
            payload: { email: manager.email, password: manager.password, twoFactorCode: totpAt(setup.secret, Math.max(Date.now(), now + 30_000)) },
          });
          expect(login.statusCode, login.body).toBe(200);
          const managerHere = agent(moved, String(login.headers["set-cookie"]).split(";")[0]);
          expect((await managerHere.get(avatarUrl)).rawPayload.equals(avatarBytes)).toBe(true);
          expect((await managerHere.get(`/api/dealerships/${dealership.id}/leads?status=new`)).statusCode).toBe(200);
          // Sessions move with the database (decision 212): the rep is still signed in.
          const repHere = await agent(moved, repCookie).get("/api/user");
          expect(repHere.statusCode).toBe(200);
          expect(repHere.json()).toMatchObject({ email: rep.email });
        } finally {
          await moved.close();
        }
      } finally {
        await server.close();
      }
      expect(existsSync(path.join(targetDir, "avatars"))).toBe(true);
    } finally {
      await target.drop();
    }
  }, 180_000);
});
