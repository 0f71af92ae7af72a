import { timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sql } from "drizzle-orm";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { rowsOf, type Database } from "../db/client";
import { MAX_DISPATCH_FAILURES } from "../events/dispatcher";

// GET /metrics in the Prometheus text format (issue 31, decision 211). Off unless METRICS_TOKEN or METRICS_PORT is
// set: the default process metrics start timers and observers, and nobody scrapes a laptop. On the app's port it
// answers only `Authorization: Bearer <METRICS_TOKEN>`; METRICS_PORT serves it without a token on its own listener,
// for a scraper on a private network.

export interface Metrics {
  registry: Registry;
  observe(request: FastifyRequest, reply: FastifyReply): void;
}

export function createMetrics(options: { database: Database; app: FastifyInstance }): Metrics {
  const { database, app } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  // Route pattern, never the address: one series per route, whatever ids and queries clients send.
  const labelNames = ["route", "method", "status"] as const;
  const requests = new Counter({ name: "http_requests_total", help: "HTTP requests answered", labelNames, registers: [registry] });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request",
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  new Gauge({
    name: "db_pool_connections_in_use",
    help: "Database connections running a statement (PGlite has one)",
    registers: [registry],
    collect() {
      this.set(database.load().inUse);
    },
  });
  new Gauge({
    name: "db_pool_waiting",
    help: "Statements waiting for a database connection",
    registers: [registry],
    collect() {
      this.set(database.load().waiting);
    },
  });

  const eventsPending = new Gauge({ name: "domain_events_pending", help: "Domain events not dispatched yet", registers: [registry] });
  const oldestPending = new Gauge({
    name: "domain_events_oldest_pending_age_seconds",
    help: "Age of the oldest domain event not dispatched yet (0 when none)",
    registers: [registry],
  });
  const queueDepth = new Gauge({
    name: "job_queue_depth",
    help: "Jobs waiting to run (created or retrying), per queue",
    labelNames: ["queue"],
    registers: [registry],
  });
  new Gauge({
    name: "realtime_sockets_open",
    help: "WebSocket connections open on this process",
    registers: [registry],
    collect() {
      this.set(app.realtime.size());
    },
  });
  new Gauge({
    name: "http_connections_open",
    help: "HTTP connections open on this process",
    registers: [registry],
    async collect() {
      const count = await new Promise<number>((resolve) => app.server.getConnections((error, n) => resolve(error ? 0 : n)));
      this.set(count);
    },
  });

  // Read from the database once per scrape, before the registry writes its text.
  const readDatabase = async () => {
    const [events] = rowsOf<{ pending: number; age: number | null }>(
      await database.db.execute(sql`select count(*)::int as pending, extract(epoch from now() - min(created_at))::float8 as age
        from domain_events where dispatched_at is null and failures < ${MAX_DISPATCH_FAILURES}`),
    );
    eventsPending.set(events?.pending ?? 0);
    oldestPending.set(Math.max(0, events?.age ?? 0));
    const queues = rowsOf<{ name: string; depth: number }>(
      await database.db.execute(sql`select q.name, count(j.id)::int as depth from pgboss.queue q
        left join pgboss.job j on j.name = q.name and j.state in ('created', 'retry') group by q.name`),
    );
    queueDepth.reset();
    for (const queue of queues) queueDepth.set({ queue: queue.name }, queue.depth);
  };
  const text = registry.metrics.bind(registry);
  registry.metrics = async () => {
    await readDatabase();
    return text();
  };

  return {
    registry,
    observe(request, reply) {
      const labels = { route: request.routeOptions.url ?? "unmatched", method: request.method, status: String(reply.statusCode) };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
    },
  };
}

/** True when the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function hasBearer(request: FastifyRequest, token: string | undefined): boolean {
  const header = request.headers.authorization;
  if (!token || typeof header !== "string" || !header.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice("Bearer ".length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** METRICS_PORT: GET /metrics on a listener of its own, without a token; anything else is a 404. */
export async function serveMetrics(metrics: Metrics, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": metrics.registry.contentType, "cache-control": "no-store" }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return server;
}
