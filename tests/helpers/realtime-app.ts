import type { FastifyInstance } from "fastify";
import pino, { type Logger } from "pino";
import { buildApp } from "../../src/server/app";
import { testConfig, type Config } from "../../src/server/config";
import type { Database } from "../../src/server/db/client";
import { createMailer } from "../../src/server/mail/mailer";
import type { RealtimeOptions } from "../../src/server/realtime/socket-route";
import { TEST_MAIL_RETRY } from "./test-app";
import { socketUrl } from "./ws-client";

// The real app listening on 127.0.0.1 (a WebSocket needs a real port, inject cannot upgrade), on a database the test
// owns: two of these on one PostgreSQL server are two app instances with their own pools and LISTEN connections.

export interface ListeningApp {
  app: FastifyInstance;
  /** ws://127.0.0.1:port/ws */
  wsUrl: string;
  close(): Promise<void>;
}

export async function startListeningApp(
  database: Database,
  /** logger: the app's (a test that reads what was logged); otherwise one made from the config (silent). */
  options: { config?: Partial<Config>; realtime?: Partial<RealtimeOptions>; logger?: Logger } = {},
): Promise<ListeningApp> {
  const config = testConfig(options.config);
  const mailer = createMailer({ database, logger: pino({ level: "silent" }), smtpUrl: config.smtpUrl, from: config.mailFrom, retry: TEST_MAIL_RETRY, closeDrainMs: 0 });
  const app = await buildApp({
    config,
    database,
    mailer,
    ...(options.realtime ? { realtime: options.realtime } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  // The job queue's start is slow on a busy machine; started first, as createTestApp does, it cannot time out onReady.
  await app.mailer.start();
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, wsUrl: socketUrl(app), close: () => app.close() };
}

/** Signs in through POST /api/login and answers the session cookie ("showroom.sid=..."). */
export async function sessionCookie(app: FastifyInstance, user: { email: string; password: string }): Promise<string> {
  const response = await app.inject({ method: "POST", url: "/api/login", payload: { email: user.email, password: user.password } });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const setCookie = response.headers["set-cookie"];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return first!.split(";")[0]!;
}

/** An inject call carrying a session cookie. */
export function call(app: FastifyInstance, cookie: string, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object) {
  return app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
}
