import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, signIn, TEST_MAIL_RETRY, type Agent } from "../../../tests/helpers/test-app";
import { buildApp } from "../app";
import { testConfig } from "../config";
import { rowsOf, type Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { webhookDeliveries, webhooks } from "../db/schema/integrations";
import { emailsLog } from "../db/schema/notifications";
import { createMailer } from "../mail/mailer";
import { embeddedIpv4, isPublicAddress } from "./webhook-addresses";
import { sendWebhook } from "./webhook-sender";
import { backoffSeconds } from "./webhooks";

// Webhooks (issue 28, decision 227): signed per Standard Webhooks (verified with the `standardwebhooks` package, not
// ours), sent to a local receiver speaking real HTTP, retried with the same webhook-id, never to a private address
// unless WEBHOOKS_ALLOW_PRIVATE, and turned off after 3 days of failures.

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A fake endpoint: answers each request with the next planned answer (then 200), and records what it got. */
function startReceiver() {
  const received: Received[] = [];
  const plan: Array<{ status: number; body?: string; headers?: Record<string, string> }> = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body });
      const answer = plan.shift() ?? { status: 200, body: "ok" };
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body ?? "");
    });
  });
  return new Promise<{ url: (path?: string) => string; received: Received[]; plan: typeof plan; close(): Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: (path = "/hook") => `http://127.0.0.1:${port}${path}`, received, plan, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

let database: Database & { drop(): Promise<void> };
let app: FastifyInstance;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let ours: string;
let theirs: string;
let management: Agent;
let sales: Agent;
let managerEmail: string;
let outsider: Agent;

const hooksPath = () => `/api/dealerships/${ours}/webhooks`;

async function deliverAll(): Promise<void> {
  await app.events.flush();
  await app.webhooks.drain();
}

async function addWebhook(events: string[] = ["*"], url = receiver.url()): Promise<{ id: string; secret: string }> {
  const response = await management.post(hooksPath(), { url, events, description: "DMS sync" });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const makeLead = (firstName = "Ada") => management.post(`/api/dealerships/${ours}/leads`, { firstName, lastName: "Lovelace", email: "ada@example.com" });

beforeAll(async () => {
  database = await createTestDatabase();
  const config = testConfig({ webhooksAllowPrivate: true });
  const mailer = createMailer({ database, logger: pino({ level: "silent" }), from: config.mailFrom, retry: TEST_MAIL_RETRY, closeDrainMs: 0 });
  // Retries at once twice, then an hour later: a drain ends even when an endpoint keeps failing.
  app = await buildApp({ config, database, mailer, answerMismatch: "refuse", webhooks: { worker: false, retryDelaySeconds: (retry) => (retry < 3 ? 0 : 3600) } });
  await app.mailer.start();
  await app.ready();
  receiver = await startReceiver();
  ours = (await makeDealership(database.db, { name: "Northside" })).id;
  theirs = (await makeDealership(database.db, { name: "Elsewhere" })).id;
  const manager = await makeUser(database.db, { memberships: [{ dealershipId: ours, role: "management" }] });
  managerEmail = manager.email;
  management = await signIn(app, manager);
  sales = await signIn(app, await makeUser(database.db, { memberships: [{ dealershipId: ours, role: "sales" }] }));
  outsider = await signIn(app, await makeUser(database.db, { memberships: [{ dealershipId: theirs, role: "management" }] }));
});
afterAll(async () => {
  await app.close();
  await receiver.close();
  await database.drop();
});
beforeEach(async () => {
  await deliverAll();
  await database.db.delete(webhooks);
  receiver.received.length = 0;
  receiver.plan.length = 0;
  app.config.webhooksAllowPrivate = true;
});

describe("management adds and manages webhooks", () => {
  it("answers the secret once (whsec_ and base64 of 24 bytes); the list never shows it and the table keeps it encrypted", async () => {
    const { id, secret } = await addWebhook(["lead.created"]);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const list = await management.get(hooksPath());
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret.slice(6));
    expect(list.json()[0]).toMatchObject({ id, events: ["lead.created"], description: "DMS sync", active: true, lastDelivery: null });
    const [row] = await database.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(row!.secret).not.toContain(secret.slice(6));
  });

  it("changes url, events and active with PATCH, removes with DELETE; other roles get 403, bad events a 400", async () => {
    const { id } = await addWebhook();
    const patched = await management.patch(`${hooksPath()}/${id}`, { events: ["lead.created", "appointment.created"], active: false });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ events: ["lead.created", "appointment.created"], active: false });
    expect((await sales.get(hooksPath())).statusCode).toBe(403);
    expect((await sales.post(hooksPath(), { url: receiver.url(), events: ["*"] })).statusCode).toBe(403);
    const bad = await management.post(hooksPath(), { url: receiver.url(), events: ["lead.exploded"] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty("events");
    expect((await management.delete(`${hooksPath()}/${id}`)).statusCode).toBe(200);
    expect((await management.delete(`${hooksPath()}/${id}`)).statusCode).toBe(404);
  });
});

describe("delivery", () => {
  it("posts {type, version, timestamp, data} signed per Standard Webhooks, verified by the standardwebhooks package", async () => {
    const { id, secret } = await addWebhook(["lead.created"]);
    const lead = (await makeLead()).json();
    await deliverAll();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    const verified = new StandardWebhook(secret).verify(got!.body, got!.headers as Record<string, string>) as { type: string; version: number; timestamp: string; data: { lead: { id: string } } };
    expect(verified).toMatchObject({ type: "lead.created", version: 1, data: { lead: { id: lead.id } } });
    expect(() => new StandardWebhook(`whsec_${Buffer.alloc(24, 1).toString("base64")}`).verify(got!.body, got!.headers as Record<string, string>)).toThrow();
    const [delivery] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id));
    expect(got!.headers["webhook-id"]).toBe(delivery!.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 200 });
    const listed = (await management.get(`${hooksPath()}/${id}/deliveries`)).json();
    expect(listed[0]).toMatchObject({ id: delivery!.id, eventType: "lead.created", status: "succeeded", attempts: 1, lastStatusCode: 200, nextAttemptAt: null });
    expect((await management.get(hooksPath())).json()[0].lastDelivery).toMatchObject({ status: "succeeded", lastStatusCode: 200 });
  });

  it("sends only the events chosen, and only the dealership's own", async () => {
    await addWebhook(["appointment.created"]);
    await makeLead();
    await deliverAll();
    expect(receiver.received).toHaveLength(0);
    await addWebhook(["*"]);
    const elsewhere = await outsider.post(`/api/dealerships/${theirs}/leads`, { firstName: "Other", lastName: "Store", email: "other@example.com" });
    expect(elsewhere.statusCode).toBe(201);
    await deliverAll();
    // Its own webhook.created reaches it; the other dealership's lead does not.
    expect(receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual(["webhook.created"]);
  });

  it("carries the event's payload as management reads it, and nothing more (decision 227)", async () => {
    await addWebhook(["lead.created"]);
    const lead = (await makeLead("Payload")).json() as { id: string };
    await deliverAll();
    const [event] = rowsOf<{ payload: unknown }>(await database.db.execute(sql`select payload from domain_events where type = 'lead.created' and payload->'lead'->>'id' = ${lead.id}`));
    expect((JSON.parse(receiver.received[0]!.body) as { data: unknown }).data).toEqual(event!.payload);
    expect(receiver.received[0]!.body).not.toMatch(/password|secret|token_hash/i);
  });

  it("retries after a 500 with the same webhook-id, and redelivers on request with it too", async () => {
    const { id } = await addWebhook(["lead.created"]);
    receiver.plan.push({ status: 500, body: "down for maintenance" });
    await makeLead();
    await deliverAll();
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([receiver.received[0]!.headers["webhook-id"], receiver.received[0]!.headers["webhook-id"]]);
    const [delivery] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id));
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 200 });
    const again = await management.post(`${hooksPath()}/${id}/deliveries/${delivery!.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().message).toBe("Delivery queued to be sent again");
    // Asked again before it went: it is queued already, so nothing more is (decision 232).
    const twice = await management.post(`${hooksPath()}/${id}/deliveries/${delivery!.id}/redeliver`);
    expect(twice.statusCode, twice.body).toBe(202);
    expect(twice.json().message).toBe("Delivery already queued to be sent");
    const [jobs] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from pgboss.job where name = 'webhook-delivery' and data->>'deliveryId' = ${delivery!.id} and state = 'created'`),
    );
    expect(jobs!.n).toBe(1);
    await deliverAll();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]!.headers["webhook-id"]).toBe(delivery!.id);
    expect((await management.post(`${hooksPath()}/${id}/deliveries/msg_nothing/redeliver`)).statusCode).toBe(404);
  });

  it("the first retry comes within 60 s, then backs off exponentially", () => {
    expect(backoffSeconds(1)).toBeLessThanOrEqual(60);
    expect(backoffSeconds(2)).toBeGreaterThan(backoffSeconds(1));
    expect(backoffSeconds(3)).toBeGreaterThan(backoffSeconds(2));
  });

  it("follows no redirect and keeps at most 1 KB of an answer", async () => {
    const { id } = await addWebhook(["lead.created"]);
    for (let i = 0; i < 3; i++) receiver.plan.push({ status: 302, headers: { location: receiver.url("/elsewhere") }, body: "x".repeat(5000) });
    await makeLead();
    await deliverAll();
    expect(receiver.received.map((r) => r.path)).not.toContain("/elsewhere");
    const [delivery] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id));
    expect(delivery).toMatchObject({ status: "pending", lastStatusCode: 302 });
    expect(delivery!.lastResponse!.length).toBe(1024);
    expect(delivery!.nextAttemptAt).not.toBeNull();
  });

  it("turns off an endpoint failing for 3 days and e-mails management", async () => {
    const { id } = await addWebhook(["lead.created"]);
    await database.db.update(webhooks).set({ failingSince: new Date(Date.now() - 4 * 86_400_000) }).where(eq(webhooks.id, id));
    receiver.plan.push({ status: 503 });
    await makeLead();
    await deliverAll();
    const [row] = await database.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(row).toMatchObject({ active: false, disabledReason: "Every delivery failed for 3 days" });
    await app.mailer.drain();
    const mail = await database.db.select().from(emailsLog).where(eq(emailsLog.emailType, "webhook_disabled"));
    expect(mail.map((m) => m.to)).toEqual([managerEmail]);
  });
});

describe("addresses (SSRF)", () => {
  // Each refused with a 400 on `url` whose message says why. `always`: a spelling refused even with
  // WEBHOOKS_ALLOW_PRIVATE=1, since it only hides where the webhook goes (decision 208).
  const refused: Array<{ url: string; why: RegExp; always?: true }> = [
    { url: "http://example.com/hook", why: /https/ },
    { url: "https://127.0.0.1/hook", why: /public address/ },
    { url: "https://localhost/hook", why: /public address/ },
    { url: "https://10.1.2.3/hook", why: /public address/ },
    { url: "https://172.16.5.4/hook", why: /public address/ },
    { url: "https://192.168.1.1/hook", why: /public address/ },
    { url: "https://169.254.169.254/latest/meta-data", why: /public address/ },
    { url: "https://100.64.0.1/hook", why: /public address/ },
    { url: "https://0.0.0.0/hook", why: /public address/ },
    { url: "https://[::1]/hook", why: /public address/ },
    { url: "https://[fd00::1]/hook", why: /public address/ },
    { url: "https://[fe80::1]/hook", why: /public address/ },
    // IPv6 forms that carry a private IPv4 address
    { url: "https://[::ffff:127.0.0.1]/hook", why: /public address/ },
    { url: "https://[::ffff:a00:1]/hook", why: /public address/ },
    { url: "https://[::7f00:1]/hook", why: /public address/ },
    { url: "https://[::ffff:0:a9fe:a9fe]/hook", why: /public address/ },
    { url: "https://[64:ff9b::a9fe:a9fe]/hook", why: /public address/ },
    { url: "https://[64:ff9b:1::808:808]/hook", why: /public address/ },
    { url: "https://[2002:7f00:1::1]/hook", why: /public address/ },
    { url: "https://[2002:c0a8:101::]/hook", why: /public address/ },
    { url: "https://[2001:0:a00:1::1]/hook", why: /public address/ },
    { url: "https://[2001:0:808:808::f5ff:fffe]/hook", why: /public address/ },
    // spellings a URL parser decodes into another host
    { url: "http://2130706433/hook", why: /four decimal numbers \(127\.0\.0\.1\)/, always: true },
    { url: "https://2130706433/hook", why: /four decimal numbers/, always: true },
    { url: "https://0x7f.1/hook", why: /four decimal numbers \(127\.0\.0\.1\)/, always: true },
    { url: "https://0177.0.0.1/hook", why: /four decimal numbers/, always: true },
    { url: "https://8.8.2056/hook", why: /four decimal numbers \(8\.8\.8\.8\)/, always: true },
    { url: "https://%31%32%37.0.0.1/hook", why: /percent-escapes/, always: true },
    { url: "https://exa%6dple.com/hook", why: /percent-escapes/, always: true },
    { url: "https://[fe80::1%25eth0]/hook", why: /zone id/, always: true },
    { url: "https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/hook", why: /plain ASCII/, always: true },
    { url: "https://127。0。0。1/hook", why: /plain ASCII/, always: true },
    { url: "https://bücher.example/hook", why: /plain ASCII/, always: true },
    { url: "https://xn--bcher-kva.example/hook", why: /plain ASCII/, always: true },
    { url: "https://user:secret@example.com/hook", why: /user name or password/, always: true },
    { url: "https://@example.com/hook", why: /user name or password/, always: true },
    { url: "https://evil.example@example.com/hook", why: /user name or password/, always: true },
    { url: "https:example.com/hook", why: /full URL/, always: true },
    { url: "ftp://example.com/hook", why: /https/, always: true },
    { url: "not a url", why: /full URL/, always: true },
  ];

  it.each(refused)("refuses $url", async ({ url, why }) => {
    app.config.webhooksAllowPrivate = false;
    const response = await management.post(hooksPath(), { url, events: ["*"] });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields?.url).toMatch(why);
    expect(await database.db.select().from(webhooks)).toHaveLength(0);
  });

  it.each(refused.filter((row) => row.always))("refuses $url even with WEBHOOKS_ALLOW_PRIVATE", async ({ url, why }) => {
    const response = await management.post(hooksPath(), { url, events: ["*"] });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields?.url).toMatch(why);
  });

  it.each(refused.filter((row) => !row.always))("refuses $url at send time too (the webhook saved while private addresses were allowed)", async ({ url, why }) => {
    const outcome = await sendWebhook({ url, secret: "whsec_c2VjcmV0", id: "msg_1", body: "{}", allowPrivate: false, timeoutMs: 1000 });
    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.response).toMatch(/public address|https/);
    expect(outcome.response).toMatch(why);
  });

  it("refuses a name changed to a refused spelling with PATCH, and keeps the webhook as it was", async () => {
    const { id } = await addWebhook();
    const response = await management.patch(`${hooksPath()}/${id}`, { url: "https://0x7f.1/hook" });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields?.url).toMatch(/four decimal numbers/);
    const [row] = await database.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(row!.url).toBe(receiver.url());
  });

  it("knows public addresses from the others, an IPv4 address inside an IPv6 one included", () => {
    const publicOnes = ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2002:808:808::1", "64:ff9b::808:808", "::ffff:8.8.8.8", "2001:0:808:808::f7f7:f7f7"];
    expect(publicOnes.filter((address) => !isPublicAddress(address))).toEqual([]);
    const others = ["127.0.0.1", "10.0.0.1", "169.254.169.254", "100.100.100.200", "::1", "fd00:ec2::254", "::ffff:10.0.0.1", "::a00:1", "64:ff9b::7f00:1", "2002:a9fe:a9fe::", "2001:0:a00:1::", "2001:0:808:808::3fff:fffe", "2001:db8::1"];
    expect(others.filter(isPublicAddress)).toEqual([]);
    expect(embeddedIpv4("2001:0:4136:e378:8000:63bf:3fff:fdd2")).toEqual(["65.54.227.120", "192.0.2.45"]);
  });

  it("checks again at send time: an endpoint that became private is not called", async () => {
    const { id } = await addWebhook(["lead.created"]);
    app.config.webhooksAllowPrivate = false;
    await makeLead();
    await deliverAll();
    expect(receiver.received).toHaveLength(0);
    const [delivery] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id));
    expect(delivery!.lastResponse).toMatch(/https|public address/);
  });
});
