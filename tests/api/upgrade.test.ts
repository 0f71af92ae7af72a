import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app";
import { restoreBackup } from "../../src/server/backup/backup";
import { testConfig } from "../../src/server/config";
import { MIGRATIONS_FOLDER, openPglite, openPostgres, rowsOf, type Database } from "../../src/server/db/client";
import { signIn } from "../helpers/test-app";

// Upgrades (issue 31): the previous release's demo data, in a database migrated up to that release, takes this build's
// migrations and the app reads it. tests/fixtures/previous-release-demo.backup was written from commit 70f4001 (the
// last before migration 0020), its seedDemo and its 20 migrations; decision 213 says how to make the next one.

const FIXTURE = path.resolve("tests/fixtures/previous-release-demo.backup");
const DEMO_PASSWORD = "showroom123";
const serverUrl = process.env.TEST_DATABASE_URL;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("upgrading from the previous release", () => {
  it("applies the new migrations to its demo data, and people sign in and read their lists and leads", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "showroom-upgrade-"));
    dirs.push(dataDir);
    let database: Database;
    let dropDatabase = async () => undefined as unknown;
    if (serverUrl) {
      const name = `showroom_upgrade_${process.pid}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      await restoreBackup({ dataDir, databaseUrl: url.toString() }, FIXTURE, { force: false });
      database = openPostgres(url.toString(), 4);
      dropDatabase = async () => {
        const a = new pg.Client({ connectionString: serverUrl });
        await a.connect();
        await a.query(`drop database if exists ${name} with (force)`);
        await a.end();
      };
    } else {
      await restoreBackup({ dataDir }, FIXTURE, { force: false });
      database = openPglite({ dataDir: path.join(dataDir, "pglite") });
    }
    try {
      // Every migration this build ships is applied over the previous release's 20.
      const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as { entries: unknown[] };
      const [applied] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
      expect(journal.entries.length).toBeGreaterThan(20);
      expect(applied?.n).toBe(journal.entries.length);

      const app = await buildApp({ config: testConfig({ dataDir }), database });
      try {
        const sales = await signIn(app, { email: "sales@demo.showroom", password: DEMO_PASSWORD });
        const dealerships = (await sales.get("/api/dealerships")).json<Array<{ id: string; name: string }>>();
        const northside = dealerships.find((d) => d.name === "Northside Motors");
        expect(northside).toBeTruthy();
        const newLeads = await sales.get(`/api/dealerships/${northside!.id}/leads?type=new`);
        expect(newLeads.statusCode, newLeads.body).toBe(200);
        const mine = await sales.get(`/api/dealerships/${northside!.id}/leads?type=my`);
        expect(mine.statusCode, mine.body).toBe(200);
        const leads = [...newLeads.json<Array<{ id: string; firstName: string }>>(), ...mine.json<Array<{ id: string; firstName: string }>>()];
        expect(leads.length).toBeGreaterThan(0);
        for (const lead of leads.slice(0, 5)) {
          const detail = await sales.get(`/api/leads/${lead.id}`);
          expect(detail.statusCode, detail.body).toBe(200);
          expect(detail.json()).toMatchObject({ id: lead.id, firstName: lead.firstName });
        }
        // A phone written before the E.164 migration reads in the new form.
        const phones = leads.map((l) => (l as { phone?: string | null }).phone).filter(Boolean);
        expect(phones.every((p) => String(p).startsWith("+"))).toBe(true);

        const manager = await signIn(app, { email: "manager@demo.showroom", password: DEMO_PASSWORD });
        for (const url of [
          `/api/dealerships/${northside!.id}/leads`,
          `/api/dealerships/${northside!.id}/appointments`,
          `/api/dealerships/${northside!.id}/test-drives`,
          `/api/dealerships/${northside!.id}/notifications`,
        ]) {
          const response = await manager.get(url);
          expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
        }
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
      await dropDatabase();
    }
  }, 120_000);
});
