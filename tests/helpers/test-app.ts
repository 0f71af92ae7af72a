import { readFileSync } from "node:fs";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { nanoid } from "nanoid";
import pg from "pg";
import pino from "pino";
import { inject } from "vitest";
import { buildApp } from "../../src/server/app";
import { testConfig, type Config } from "../../src/server/config";
import { newPglite, openPglite, openPostgres, type Database, type Db } from "../../src/server/db/client";
import type { MailRetry } from "../../src/server/mail/mail-queue";
import { createMailer } from "../../src/server/mail/mailer";

// A fresh database per call (a copy of the migrated template) and the real app on it, driven with inject.

export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<Database & { drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = inject("postgresTemplate");
  if (serverUrl && template) {
    const name = `showroom_test_${nanoid(10).toLowerCase().replace(/[^a-z0-9]/g, "x")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = openPostgres(url.toString(), options.poolSize ?? 20);
    return {
      ...database,
      async drop() {
        await database.close();
        const a = new pg.Client({ connectionString: serverUrl });
        await a.connect();
        await a.query(`drop database if exists ${name} with (force)`);
        await a.end();
      },
    };
  }
  const tar = readFileSync(inject("pgliteTemplate"));
  const client = newPglite(undefined, { loadDataDir: new Blob([tar]) });
  const database = openPglite({ client });
  return { ...database, drop: () => database.close() };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: Database;
  close(): Promise<void>;
}

/** Failed mail is tried again at once, so the final outcome is in emails_log when `mailer.drain()` resolves. */
export const TEST_MAIL_RETRY: MailRetry = { tries: 3, delaySeconds: 0, backoff: false };

export async function createTestApp(config: Partial<Config> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const appConfig = testConfig(config);
  // close() delivers nothing more: a test reads its mail after drain().
  const mailer = createMailer({
    database,
    logger: pino({ level: appConfig.logLevel }),
    smtpUrl: appConfig.smtpUrl,
    from: appConfig.mailFrom,
    retry: TEST_MAIL_RETRY,
    closeDrainMs: 0,
  });
  // An answer its route's schema does not describe fails the test with a 500 (decision 190).
  const app = await buildApp({ config: appConfig, database, mailer, answerMismatch: "refuse" });
  await app.mailer.start();
  await app.ready();
  return {
    app,
    db: database.db,
    database,
    async close() {
      // The app's onClose hook stops the mail queue (and its timers) before the database goes.
      await app.close();
      await database.drop();
    },
  };
}

/** A signed-in client for inject: logs in once and sends the session cookie with every request. */
export interface Agent {
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

export function agent(app: FastifyInstance, cookie?: string): Agent {
  const request = (options: InjectOptions) =>
    app.inject({ ...options, headers: { ...(cookie ? { cookie } : {}), ...(options.headers ?? {}) } });
  const withBody = (method: "POST" | "PATCH" | "PUT") => (url: string, payload?: unknown) =>
    request({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    request,
    get: (url) => request({ method: "GET", url }),
    post: withBody("POST"),
    patch: withBody("PATCH"),
    put: withBody("PUT"),
    delete: (url) => request({ method: "DELETE", url }),
  };
}

/** Signs in through POST /api/login and answers an agent carrying that session. */
export async function signIn(app: FastifyInstance, user: { email: string; password: string }): Promise<Agent> {
  const response = await app.inject({ method: "POST", url: "/api/login", payload: { email: user.email, password: user.password } });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const setCookie = response.headers["set-cookie"];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return agent(app, first?.split(";")[0]);
}

export const anonymous = (app: FastifyInstance): Agent => agent(app);
