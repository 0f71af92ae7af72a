import { sql } from "drizzle-orm";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../src/server/db/client";
import { MAX_DISPATCH_FAILURES } from "../../src/server/events/dispatcher";
import { serveMetrics } from "../../src/server/http/metrics";
import { createTestApp, type TestApp } from "../helpers/test-app";

// GET /metrics (issue 31, decision 211), read by an independent parser of the Prometheus text format, and /api/ready.

const TOKEN = "metrics-token-for-the-test-0123456789";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ metricsToken: TOKEN });
});
afterAll(() => t.close());

const scrapeText = async () => {
  const response = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.statusCode).toBe(200);
  expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
};
// The parser throws on any line outside the format, so every scrape is checked whole.
const scrape = async () => parsePrometheusTextFormat(await scrapeText());
/**
 * The parser folds a histogram's series into one (it reads unlabelled histograms only): a labelled histogram's
 * samples are read here from lines it has accepted, as `name{labels} value`.
 */
const samples = (text: string, name: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => {
      const [, labels = "", value = ""] = /^[^{]+\{(.*)\} (\S+)$/.exec(line) ?? [];
      return { labels: Object.fromEntries([...labels.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]])), value: Number(value) };
    });
const family = (families: ReturnType<typeof parsePrometheusTextFormat>, name: string) => {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no metric ${name}`);
  return found;
};

describe("GET /metrics", () => {
  it("answers 401 without the token, with another token, and when no token is configured", async () => {
    expect((await t.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(401);
    const wrong = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
    const off = await createTestApp();
    try {
      const response = await off.app.inject({ method: "GET", url: "/metrics", headers: { authorization: "Bearer " } });
      expect(response.statusCode).toBe(401);
      expect(off.app.metrics).toBeNull();
    } finally {
      await off.close();
    }
  });

  it("counts requests and their durations by route pattern, method and status", async () => {
    const id = "00000000-0000-4000-8000-000000000001";
    await t.app.inject({ method: "GET", url: `/api/leads/${id}` });
    await t.app.inject({ method: "GET", url: `/api/leads/${id}?q=1` });
    await t.app.inject({ method: "GET", url: "/api/health" });
    const text = await scrapeText();
    const families = parsePrometheusTextFormat(text);
    const requests = family(families, "http_requests_total");
    expect(requests.type).toBe("COUNTER");
    const leads = requests.metrics.find((m) => m.labels?.route === "/api/leads/:id" && m.labels.method === "GET" && m.labels.status === "401");
    expect(leads?.value).toBe("2");
    expect(requests.metrics.some((m) => m.labels?.route?.includes(id))).toBe(false);
    const durations = family(families, "http_request_duration_seconds");
    expect(durations.type).toBe("HISTOGRAM");
    const health = (suffix: string) =>
      samples(text, `http_request_duration_seconds_${suffix}`).filter((m) => m.labels.route === "/api/health" && m.labels.method === "GET" && m.labels.status === "200");
    expect(health("count").map((m) => m.value)).toEqual([1]);
    expect(health("bucket").find((m) => m.labels.le === "+Inf")?.value).toBe(1);
    expect(health("sum")[0]?.value).toBeGreaterThan(0);
  });

  it("reports the pool, pending events with the oldest's age, job queues, sockets and the process", async () => {
    // The dispatcher stopped, an event written 90 s ago stays pending.
    await t.app.events.close();
    await t.db.execute(sql`insert into domain_events (type, payload, created_at) values ('dealership.updated', '{}'::jsonb, now() - interval '90 seconds')`);
    const families = await scrape();
    const value = (name: string) => Number(family(families, name).metrics[0]?.value);
    expect(value("domain_events_pending")).toBe(1);
    expect(value("domain_events_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(90);
    expect(value("db_pool_connections_in_use")).toBeGreaterThanOrEqual(0);
    expect(value("db_pool_waiting")).toBe(0);
    expect(value("realtime_sockets_open")).toBe(0);
    const queues = family(families, "job_queue_depth").metrics.map((m) => m.labels?.queue);
    expect(queues.length).toBeGreaterThan(0);
    expect(queues.every((q) => typeof q === "string" && q.length > 0)).toBe(true);
    // prom-client's defaults
    for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_seconds", "nodejs_heap_size_used_bytes"]) {
      expect(family(families, name).metrics.length).toBeGreaterThan(0);
    }
    // Set aside after its last failure, it no longer counts as pending.
    await t.db.execute(sql`update domain_events set failures = ${MAX_DISPATCH_FAILURES} where dispatched_at is null`);
    expect(Number(family(await scrape(), "domain_events_pending").metrics[0]?.value)).toBe(0);
    await t.app.events.start();
  });

  it("reports every connection in use and the statements waiting for one while the pool is full", async () => {
    // Read from the registry itself: a scrape's own queries would wait for the held connections too.
    const gauge = async (name: string) => Number((await t.app.metrics!.registry.getSingleMetric(name)!.get()).values[0]?.value);
    // PGlite has one connection; the test server's pool has poolSize of them.
    const connections = (t.database as { pool?: { options: { max: number } } }).pool?.options.max ?? 1;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered = 0;
    const holders = Array.from({ length: connections }, () =>
      t.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        entered++;
        await held;
      }),
    );
    while (entered < connections) await new Promise((r) => setTimeout(r, 5));
    // Promise.all starts them (a drizzle query runs when it is awaited).
    const queued = Promise.all([t.db.execute(sql`select 1`), t.db.execute(sql`select 2`)]);
    await new Promise((r) => setTimeout(r, 50));
    try {
      expect(await gauge("db_pool_connections_in_use")).toBe(connections);
      // The app's own pollers (jobs, events) may be waiting as well.
      expect(await gauge("db_pool_waiting")).toBeGreaterThanOrEqual(2);
    } finally {
      release();
      await Promise.all([...holders, queued]);
    }
  });

  it("counts the jobs waiting in each queue", async () => {
    const [queue] = rowsOf<{ name: string }>(await t.db.execute(sql`select name from pgboss.queue order by name limit 1`));
    const depth = async () => Number(family(await scrape(), "job_queue_depth").metrics.find((m) => m.labels?.queue === queue?.name)?.value);
    const before = await depth();
    await t.db.execute(sql`insert into pgboss.job (name, data, start_after) values (${queue?.name}, '{}'::jsonb, now() + interval '1 hour')`);
    expect(await depth()).toBe(before + 1);
  });

  it("is served without a token on METRICS_PORT, and nothing else is", async () => {
    if (!t.app.metrics) throw new Error("metrics are on in this app");
    const server = await serveMetrics(t.app.metrics, 0, "127.0.0.1");
    try {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      expect(family(parsePrometheusTextFormat(await response.text()), "http_requests_total").type).toBe("COUNTER");
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe("GET /api/ready", () => {
  it("is ready once migrations are applied and the dispatcher runs, and not while stopping", async () => {
    const ready = await createTestApp();
    try {
      const get = async () => {
        const response = await ready.app.inject({ method: "GET", url: "/api/ready" });
        return { status: response.statusCode, body: response.json() as unknown };
      };
      expect(await get()).toEqual({ status: 200, body: { status: "ready" } });

      await ready.app.events.close();
      expect(await get()).toEqual({ status: 503, body: { status: "not ready", waitingFor: "event dispatcher" } });
      await ready.app.events.start();
      expect((await get()).status).toBe(200);

      // A database one migration behind this build (another process has not finished migrating).
      const [last] = rowsOf<{ id: number }>(await ready.db.execute(sql`select id from drizzle.__drizzle_migrations order by created_at desc limit 1`));
      const saved = rowsOf<Record<string, unknown>>(await ready.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last?.id} returning *`));
      expect(await get()).toEqual({ status: 503, body: { status: "not ready", waitingFor: "migrations" } });
      await ready.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${saved[0]?.id}, ${saved[0]?.hash}, ${saved[0]?.created_at})`);
      expect((await get()).status).toBe(200);

      ready.app.drain();
      expect(await get()).toEqual({ status: 503, body: { status: "not ready", waitingFor: "stopping" } });
      // Liveness is another question: the process still answers.
      expect((await ready.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    } finally {
      await ready.close();
    }
  });

  it("is not ready while the database does not answer", async () => {
    const ready = await createTestApp();
    await ready.app.events.close();
    await ready.database.close();
    try {
      const response = await ready.app.inject({ method: "GET", url: "/api/ready" });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: "not ready", waitingFor: "database" });
    } finally {
      await ready.app.close().catch(() => undefined);
    }
  });
});
