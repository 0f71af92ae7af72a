import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, signIn, TEST_MAIL_RETRY, type Agent } from "../../../tests/helpers/test-app";
import { buildApp } from "../app";
import { testConfig } from "../config";
import type { Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { createMailer } from "../mail/mailer";

// The webhook queue's own workers, polling as in production (decision 233): a backlog goes out in batches sent side by
// side, fetched again at once while they come back full, not one delivery per 2-second poll (which took a minute for
// the 30 deliveries below, and close to three hours for the bench's 5,000).

const DELIVERIES = 30;

describe("the webhook workers", () => {
  let database: Database & { drop(): Promise<void> };
  let app: FastifyInstance;
  let server: http.Server;
  let url: string;
  const arrivals: number[] = [];
  let management: Agent;
  let ours: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig({ webhooksAllowPrivate: true });
    const mailer = createMailer({ database, logger: pino({ level: "silent" }), from: config.mailFrom, retry: TEST_MAIL_RETRY, closeDrainMs: 0 });
    app = await buildApp({ config, database, mailer, answerMismatch: "refuse", webhooks: { worker: true, pollingIntervalSeconds: 2 } });
    await app.mailer.start();
    await app.ready();
    server = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        arrivals.push(performance.now());
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    ours = (await makeDealership(database.db)).id;
    management = await signIn(app, await makeUser(database.db, { memberships: [{ dealershipId: ours, role: "management" }] }));
  });
  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => server?.close(resolve));
    await database?.drop();
  });

  it(`send a backlog of ${DELIVERIES} deliveries within seconds, not one per poll`, async () => {
    for (let i = 0; i < 3; i++) {
      expect((await management.post(`/api/dealerships/${ours}/webhooks`, { url: `${url}/${i}`, events: ["lead.created"] })).statusCode).toBe(201);
    }
    for (let i = 0; i < DELIVERIES / 3; i++) {
      expect((await management.post(`/api/dealerships/${ours}/leads`, { firstName: "Queue", lastName: `Lead ${i}`, email: `queue${i}@example.com` })).statusCode).toBe(201);
    }
    // Every delivery is queued once the events are dispatched; from then on the workers alone send them.
    await app.events.flush();
    const queued = performance.now();
    const deadline = queued + 30_000;
    while (arrivals.length < DELIVERIES && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(arrivals).toHaveLength(DELIVERIES);
    // One per 2 s poll would take 60 s; batches of 10 take one poll (at most 2 s) and a few round trips.
    expect(Math.max(...arrivals) - queued).toBeLessThan(10_000);
  }, 60_000);
});
