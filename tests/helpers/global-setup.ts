import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateDatabase, newPglite, openPglite, openPostgres } from "../../src/server/db/client";

// Migrating a fresh database is slow; do it once per run and let each test file copy the result:
// a PGlite data-dir dump, or (with TEST_DATABASE_URL) a PostgreSQL template database.

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `showroom_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const url = new URL(serverUrl);
    url.pathname = `/${template}`;
    const database = openPostgres(url.toString(), 1);
    await migrateDatabase(database);
    await database.close();
    project.provide("postgresTemplate", template);
    project.provide("pgliteTemplate", "");
    return async () => {
      await admin.query(`drop database if exists ${template} with (force)`).catch(() => undefined);
      await admin.end();
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "showroom-test-"));
  const client = newPglite();
  await migrateDatabase(openPglite({ client }));
  const dump = await client.dumpDataDir("none");
  const file = path.join(dir, "template.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  project.provide("pgliteTemplate", file);
  project.provide("postgresTemplate", "");
  return () => rmSync(dir, { recursive: true, force: true });
}
