import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadlocksCounted } from "../../../tests/helpers/deadlocks";
import { ON_DATABASE_SERVER } from "../../../tests/helpers/races";
import { createTestDatabase, signIn, TEST_MAIL_RETRY, type Agent } from "../../../tests/helpers/test-app";
import { buildApp } from "../app";
import { testConfig } from "../config";
import { rowsOf, type Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { webhookDeliveries } from "../db/schema/integrations";
import { leads } from "../db/schema/leads";
import { createMailer } from "../mail/mailer";
import { WEBHOOK_QUEUE } from "./webhooks";

// Races of API tokens and webhooks (issue 28), 50 requests at once. PostgreSQL only (TEST_DATABASE_URL): these tests
// are about requests that overlap inside the database (a revoke committing while token requests are being checked,
// fifty redelivers queuing on one delivery's row), and PGlite runs one statement at a time on its one connection, so
// there nothing overlaps and the tests would prove nothing. The outcome logic without overlap is in
// api-tokens.test.ts and webhooks.test.ts, which run on both.
//   - A token revoked while 50 requests use it, through two app processes on one database: every request is 200/201
//     or 401 (never a 500); every request sent after the revoke's answer (so after its commit) is 401, in either
//     process; and only the requests answered 201 made a lead.
//   - 50 redelivers of one delivery at once (decision 232): every answer 202, exactly one queued ("already queued" for
//     the rest), so one job and, once drained, one more send with the same webhook-id; also when the delivery was
//     waiting for a backoff retry. No deadlock counted.

const REQUESTS = 50;

interface Received {
  headers: http.IncomingHttpHeaders;
}

function startReceiver() {
  const received: Received[] = [];
  const plan: number[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      received.push({ headers: request.headers });
      response.writeHead(plan.shift() ?? 200);
      response.end("ok");
    });
  });
  return new Promise<{ url: string; received: Received[]; plan: number[]; close(): Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/hook`, received, plan, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

async function makeApp(database: Database, apiRateLimit?: number): Promise<FastifyInstance> {
  const config = testConfig({ webhooksAllowPrivate: true, ...(apiRateLimit ? { apiRateLimit } : {}) });
  const mailer = createMailer({ database, logger: pino({ level: "silent" }), from: config.mailFrom, retry: TEST_MAIL_RETRY, closeDrainMs: 0 });
  // Attempts run when the test drains them; a failed one is retried an hour later, so it waits as a backoff retry.
  const app = await buildApp({ config, database, mailer, answerMismatch: "refuse", webhooks: { worker: false, retryDelaySeconds: () => 3600 } });
  await app.mailer.start();
  await app.ready();
  return app;
}

describe.skipIf(!ON_DATABASE_SERVER)("API tokens and webhooks under 50 requests at once (PostgreSQL)", () => {
  let database: Database & { drop(): Promise<void> };
  let app: FastifyInstance;
  let other: FastifyInstance;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let ours: string;
  let management: Agent;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await makeApp(database);
    other = await makeApp(database);
    receiver = await startReceiver();
    ours = (await makeDealership(database.db, { name: "Northside" })).id;
    management = await signIn(app, await makeUser(database.db, { memberships: [{ dealershipId: ours, role: "management" }] }));
  });
  afterAll(async () => {
    await other?.close();
    await app?.close();
    await receiver?.close();
    await database?.drop();
  });

  it("a token revoked while 50 requests use it: nothing sent after the revoke's answer succeeds, in either process", async () => {
    const t = { database } as unknown as Parameters<typeof deadlocksCounted>[0];
    const deadlocksBefore = await deadlocksCounted(t);
    for (let round = 0; round < 3; round++) {
      const made = await management.post(`/api/dealerships/${ours}/api-tokens`, { name: `Website ${round}`, role: "frontDesk" });
      expect(made.statusCode, made.body).toBe(201);
      const { id, token } = made.json<{ id: string; token: string }>();
      // Half reads, half writes (a new lead), alternately through the two processes.
      const call = (i: number): Promise<LightMyRequestResponse> => {
        const server = i % 2 === 0 ? app : other;
        const headers = { authorization: `Bearer ${token}` };
        return i % 4 < 2
          ? server.inject({ method: "GET", url: `/api/dealerships/${ours}/leads`, headers })
          : server.inject({ method: "POST", url: `/api/dealerships/${ours}/leads`, headers, payload: { firstName: "Race", lastName: `R${round}-${i}`, email: `race-${round}-${i}@example.com` } });
      };
      // The first half goes out a millisecond apart, the revoke after the first few of them, so it commits while
      // requests are being checked and answered; the second half only once the revoke has answered (after its commit).
      const before: Promise<LightMyRequestResponse>[] = [];
      let revoking: Promise<LightMyRequestResponse> | undefined;
      for (let i = 0; i < REQUESTS / 2; i++) {
        before.push(call(i));
        if (i === 5) revoking = management.delete(`/api/dealerships/${ours}/api-tokens/${id}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const revoke = await revoking!;
      expect(revoke.statusCode, revoke.body).toBe(200);
      const after = Array.from({ length: REQUESTS / 2 }, (_, i) => call(REQUESTS / 2 + i));
      const answered = await Promise.all([...before, ...after]);
      const statuses = answered.map((response) => response.statusCode);
      for (const [i, response] of answered.entries()) expect([200, 201, 401], `request ${i}: ${response.body}`).toContain(response.statusCode);
      expect(statuses.slice(REQUESTS / 2), "requests sent after the revoke answered").toEqual(Array(REQUESTS / 2).fill(401));
      // A refused request wrote nothing: the round made exactly the leads answered 201.
      const [written] = await database.db.select({ n: sql<number>`count(*)::int` }).from(leads).where(sql`${leads.lastName} like ${`R${round}-%`}`);
      expect(written!.n).toBe(statuses.filter((status) => status === 201).length);
      // And it stays refused.
      expect((await other.inject({ method: "GET", url: `/api/dealerships/${ours}/leads`, headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    }
    expect(await deadlocksCounted(t)).toBe(deadlocksBefore);
  }, 60_000);

  async function jobsQueued(deliveryId: string): Promise<number> {
    const [row] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from pgboss.job where name = ${WEBHOOK_QUEUE} and data->>'deliveryId' = ${deliveryId} and state in ('created', 'retry')`),
    );
    return row!.n;
  }

  async function deliverAll(): Promise<void> {
    // Either process's dispatcher may have taken an event: each flush waits for its own dispatch under way.
    await Promise.all([app.events.flush(), other.events.flush()]);
    await app.webhooks.drain();
  }

  it("50 redelivers of one delivery at once queue it once: one more send with the same webhook-id, no error", async () => {
    const t = { database } as unknown as Parameters<typeof deadlocksCounted>[0];
    const deadlocksBefore = await deadlocksCounted(t);
    const hook = await management.post(`/api/dealerships/${ours}/webhooks`, { url: receiver.url, events: ["lead.created"] });
    expect(hook.statusCode, hook.body).toBe(201);
    const webhookId = hook.json<{ id: string }>().id;
    // One delivery that succeeded, and one waiting for its backoff retry after a 500.
    expect((await management.post(`/api/dealerships/${ours}/leads`, { firstName: "Ada", lastName: "Sent", email: "ada@example.com" })).statusCode).toBe(201);
    await deliverAll();
    receiver.plan.push(500);
    expect((await management.post(`/api/dealerships/${ours}/leads`, { firstName: "Bob", lastName: "Retrying", email: "bob@example.com" })).statusCode).toBe(201);
    await deliverAll();
    const deliveries = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
    const succeeded = deliveries.find((d) => d.status === "succeeded")!;
    const retrying = deliveries.find((d) => d.status === "pending")!;
    expect(succeeded).toBeDefined();
    expect(retrying).toMatchObject({ attempts: 1, lastStatusCode: 500 });
    expect(await jobsQueued(retrying.id)).toBe(1); // its backoff retry, an hour away

    for (const delivery of [succeeded, retrying]) {
      const jobsBefore = await jobsQueued(delivery.id);
      const url = `/api/dealerships/${ours}/webhooks/${webhookId}/deliveries/${delivery.id}/redeliver`;
      const answers = await Promise.all(Array.from({ length: REQUESTS }, () => management.post(url)));
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(202);
      const messages = answers.map((answer) => answer.json<{ message: string }>().message);
      expect(messages.filter((m) => m === "Delivery queued to be sent again")).toHaveLength(1);
      expect(messages.filter((m) => m === "Delivery already queued to be sent")).toHaveLength(REQUESTS - 1);
      expect(await jobsQueued(delivery.id)).toBe(jobsBefore + 1);
      const sentBefore = receiver.received.length;
      await deliverAll();
      const sent = receiver.received.slice(sentBefore);
      expect(sent.map((r) => r.headers["webhook-id"])).toEqual([delivery.id]);
      const [after] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
      expect(after).toMatchObject({ status: "succeeded", attempts: delivery.attempts + 1, lastStatusCode: 200 });
    }
    expect(await deadlocksCounted(t)).toBe(deadlocksBefore);
  }, 60_000);
});
