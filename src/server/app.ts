import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import helmet from "helmet";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { areaRoutes, areaSubscribers } from "./areas";
import { authRoutes } from "./auth/routes";
import { resumeRequestSession } from "./auth/request-session";
import { bearerOf, resumeTokenRequest } from "./integrations/token-requests";
import { createEventBus } from "./events/dispatcher";
import type { Config } from "./config";
import { migrationsDone, type Database } from "./db/client";
import { HttpError } from "./http/errors";
import "./fastify-types";
import { assertCleanBody, assertCleanUrlInput } from "./http/input-guard";
import { useRouteContracts, type AnswerMismatch } from "./http/contract";
import { healthSchema, readySchema } from "../shared/schemas/responses/platform";
import { createLogger } from "./http/logging";
import { createMetrics, hasBearer } from "./http/metrics";
import { createMailer, type Mailer } from "./mail/mailer";
import { createPushService, type PushService } from "./push/push-service";
import { createWebhookService, type WebhookServiceOptions } from "./integrations/webhooks";
import { registerWebApp } from "./http/static";
import { realtimeRoutes, type RealtimeOptions } from "./realtime/socket-route";
import { PROJECT_ROOT } from "./project-root";

export interface AppDeps {
  config: Config;
  database: Database;
  mailer?: Mailer;
  /** Web push (decision 112); tests pass one that trusts their local push endpoint. */
  push?: PushService;
  /** Built SPA to serve; tests leave it out. */
  clientDir?: string;
  /** A pino logger to use (the process's); otherwise one is made from the config. */
  logger?: Logger;
  /** Webhook delivery options (tests: retry at once). */
  webhooks?: Pick<WebhookServiceOptions, "retryDelaySeconds" | "worker" | "pollingIntervalSeconds">;
  /** Real-time socket timings (tests shorten them). */
  realtime?: Partial<RealtimeOptions>;
  /** An answer its route's schema does not describe: a 500 ("refuse", tests) or a logged error ("log", default). */
  answerMismatch?: AnswerMismatch;
}

export const DEFAULT_CLIENT_DIR = path.join(PROJECT_ROOT, "dist/client");
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // Never log a password, cookie, code or a failed query's parameters: bodies are not logged, and the logger redacts.
  const logger = deps.logger ?? createLogger(deps.config.logLevel);
  const app = Fastify({
    loggerInstance: logger,
    // Fastify's own two lines per request are off; the onResponse hook below writes one.
    logController: new Fastify.LogController({ disableRequestLogging: true }),
    // X-Forwarded-* only from the configured proxies: otherwise any client could choose its address (decision 038).
    trustProxy: proxyTrust(deps.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // onReady starts the job queue (pg-boss creates or checks its schema): on a busy machine or a slow database server
    // that takes longer than Fastify's default 10 s, and a start should wait for it rather than fail.
    pluginTimeout: 60_000,
  });
  // Routes declare their schemas; these compilers run them (decision 190).
  useRouteContracts(app as unknown as FastifyInstance, deps.answerMismatch ?? "log");

  app.decorate("db", deps.database.db);
  app.decorate("config", deps.config);
  app.decorate("mailer", deps.mailer ?? createMailer({ database: deps.database, logger, smtpUrl: deps.config.smtpUrl, from: deps.config.mailFrom }));
  // Registered before the event bus's: onClose hooks run last-first, so events stop queueing mail before it closes.
  app.addHook("onClose", () => app.mailer.close());
  app.decorate("push", deps.push ?? createPushService({ database: deps.database, logger, config: deps.config }));
  app.addHook("onClose", () => app.push.close());
  app.decorate("webhooks", createWebhookService({ database: deps.database, logger, config: deps.config, mailer: app.mailer, ...deps.webhooks }));
  app.addHook("onClose", () => app.webhooks.close());
  app.decorate("events", createEventBus({ db: deps.database.db, logger }));
  // Each area subscribes its once-only work to the event types it cares about (decision 186).
  for (const subscribe of areaSubscribers) subscribe(app as unknown as FastifyInstance);
  // Events queue mail: the mail queue must be running before the first event is dispatched (start is idempotent).
  app.addHook("onReady", async () => {
    await app.mailer.start();
    await app.push.start();
    await app.webhooks.start();
    await app.events.start();
  });
  app.addHook("onClose", () => app.events.close());
  app.decorateRequest("session", null);
  app.decorateRequest("userCache", undefined);

  // Every route, for the access tests that check no API route is reachable without the right session.
  const routeList: Array<{ method: string; url: string }> = [];
  app.decorate("routeList", routeList);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) if (method !== "HEAD") routeList.push({ method, url: route.url });
  });

  await app.register(cookie);
  // The first load is ~870 KiB of JS and CSS and ~250 KiB compressed (bench/BUNDLE.md): compress for phones on the lot.
  // Brotli at quality 5 compresses about as well as gzip -9 at a fraction of the default quality's CPU.
  await app.register(compress, { threshold: 1024, brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } } });
  // helmet's headers worked out once: they are the same for every response (no per-request nonce), and running its
  // dozen middlewares per request showed in the claim's CPU profile (issue 13), as @fastify/helmet's rebuilding did.
  const securityHeaders = fixedHeadersOf(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:", "blob:"],
          connectSrc: ["'self'", "ws:", "wss:"],
          fontSrc: ["'self'", "data:"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: deps.config.secureCookies ? [] : null,
        },
      },
      // HSTS only makes sense when served over HTTPS.
      strictTransportSecurity: deps.config.secureCookies,
    }),
  );
  app.addHook("onRequest", (_request, reply, done) => {
    for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    done();
  });

  const metrics = deps.config.metricsToken || deps.config.metricsPort ? createMetrics({ database: deps.database, app: app as unknown as FastifyInstance }) : null;
  app.decorate("metrics", metrics);
  let draining = false;
  app.decorate("drain", () => void (draining = true));

  // One line per request, without bodies, cookies or query strings that could carry codes.
  app.addHook("onResponse", async (request, reply) => {
    metrics?.observe(request, reply);
    request.log.info(
      { method: request.method, url: request.routeOptions.url ?? request.url.split("?")[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      "request",
    );
  });

  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/api/")) return;
    // An API token (decision 225) comes with no cookie (one with both is refused): no browser sends it on its own.
    const apiToken = bearerOf(request);
    // CSRF: a browser says where a request comes from; refuse writes from another origin (decision 005).
    if (MUTATING.has(request.method) && apiToken === null) assertSameOrigin(request, deps.config.appUrl);
    // Before any route code or query sees them (decision 037).
    assertCleanUrlInput(request);
    if (apiToken !== null) await resumeTokenRequest(request, apiToken);
    else await resumeRequestSession(request);
  });

  app.addHook("preValidation", async (request) => {
    if (request.url.startsWith("/api/") && request.body !== undefined) assertCleanBody(request.body);
  });

  // Personal data must not stay in browser or proxy caches; a route that may be cached says so itself (decision 039).
  app.addHook("onSend", async (request, reply) => {
    if (request.url.startsWith("/api/") && !reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send(error.fields ? { message: error.message, fields: error.fields } : { message: error.message });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, body too large, unsupported media type).
      const message = status === 413 ? "Request body is too large" : (error as Error).message;
      return reply.code(status).send({ message });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send({ message: "Internal server error" });
  });

  app.get("/api/health", { schema: { response: { 200: healthSchema, 503: healthSchema } } }, async (_request, reply) => {
    try {
      await deps.database.ping();
      return { status: "ok" };
    } catch {
      return reply.code(503).send({ status: "unavailable" });
    }
  });

  // Readiness (issue 31): a load balancer sends requests only once the database answers, this build's migrations are
  // applied and the event dispatcher runs; and no more once the process is stopping.
  app.get("/api/ready", { schema: { response: { 200: readySchema, 503: readySchema } } }, async (_request, reply) => {
    const waitingFor = await notReady();
    if (waitingFor) return reply.code(503).send({ status: "not ready", waitingFor });
    return { status: "ready" };
  });
  const notReady = async (): Promise<string | null> => {
    if (draining) return "stopping";
    try {
      if (!(await migrationsDone(deps.database.db))) return "migrations";
    } catch {
      return "database";
    }
    return app.events.isRunning() ? null : "event dispatcher";
  };

  // Prometheus scrapes with the token; without it (or with no token configured) 401 (decision 211).
  app.get("/metrics", async (request, reply) => {
    if (!metrics || !hasBearer(request, deps.config.metricsToken)) {
      return reply.code(401).header("www-authenticate", 'Bearer realm="metrics"').send({ message: "Metrics need Authorization: Bearer METRICS_TOKEN" });
    }
    return reply.header("content-type", metrics.registry.contentType).header("cache-control", "no-store").send(await metrics.registry.metrics());
  });

  await app.register(authRoutes);
  for (const routes of areaRoutes) await app.register(routes);
  // WebSocket /ws on the same port (decision 105); on the root instance so `app.realtime` is visible.
  await realtimeRoutes(app as unknown as FastifyInstance, deps.realtime);

  // The built web app, index.html written per address and session (decision 125).
  await registerWebApp(app as unknown as FastifyInstance, deps.clientDir);

  return app as unknown as FastifyInstance;
}

/**
 * Fastify 5 trusts nobody when given a bare number (it cannot tell the proxy from a client that reached us directly),
 * so a hop count becomes proxy-addr's (address, hop) test: the nearest `hops` addresses are proxies, as Express has it.
 */
function proxyTrust(trust: Config["trustProxy"]): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === "number" ? (_address, hop) => hop < trust : trust;
}

/**
 * Writes must come from our own origin (decision 005). `Origin: null` (a sandboxed frame, a file: page, some
 * redirects) is a browser hiding where the request comes from: refused. No Origin at all is curl or a script, which
 * carries no browser cookies: allowed unless Sec-Fetch-Site says cross-site. The host is the one the client asked for:
 * X-Forwarded-Host counts only from a trusted proxy (request.host applies TRUST_PROXY).
 */
function assertSameOrigin(request: Pick<FastifyRequest, "headers" | "host">, appUrl: string): void {
  const origin = request.headers.origin;
  if (origin === undefined) {
    if (request.headers["sec-fetch-site"] === "cross-site") throw new HttpError(403, "Cross-origin request refused");
    return;
  }
  if (typeof origin === "string" && origin !== "null" && (originHost(origin) === request.host || origin === new URL(appUrl).origin)) return;
  throw new HttpError(403, "Cross-origin request refused");
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/** The headers a connect-style middleware that always sets the same ones (helmet without nonces) sets, in order. */
function fixedHeadersOf(middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => void headers.push([name, String(value)]),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  let finished = false;
  middleware({ headers: {} } as IncomingMessage, recorder, (error) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error("the security headers middleware did not finish at once");
  return headers;
}
