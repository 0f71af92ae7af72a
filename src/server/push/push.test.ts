import { Agent as HttpsAgent, type AgentOptions } from "node:https";
import type { Duplex } from "node:stream";
import { parse as legacyParse } from "node:url";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { browserSubscription, decryptPush, readVapidAuthorization, startPushService, type BrowserSubscription, type LocalPushService } from "../../../tests/helpers/push-endpoint";
import { createTestDatabase, signIn, type Agent } from "../../../tests/helpers/test-app";
import { buildApp } from "../app";
import { testConfig, type Config } from "../config";
import type { Database } from "../db/client";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { pushNotifications } from "../db/schema/notifications";
import { installationKeys, pushDeliveries } from "../db/schema/push";
import { userTokens } from "../db/schema/users";
import { ENDPOINT_INVALID } from "../../shared/schemas/push";
import { createMailer } from "../mail/mailer";
import { createPushService, PUSH_TTL_SECONDS, type PushService } from "./push-service";
import { forgetLastPushPrune, prunePushRecords, PUSH_RETENTION_DAYS } from "./retention";
import { checkPushEndpoint, ENDPOINT_PROBLEMS, MAX_ACTIVE_SUBSCRIPTIONS, pushServiceUrl } from "./subscriptions";

// Web push end to end (issue 11; decisions 110-113): a browser subscribes through the API, a lead is created, the
// dispatcher records and queues the push in its transaction, the worker sends it to a push service on this machine
// (HTTPS, RFC 8030), and the test reads it as the browser would: the VAPID signature (RFC 8292) checked and the
// payload decrypted (RFC 8291) to the title and url the bell shows.

let service: LocalPushService;
let database: Database & { drop(): Promise<void> };
let app: FastifyInstance;
let push: PushService;
let dealershipId: string;
let manager: MadeUser;
let rep: MadeUser;
let colleague: MadeUser;
let managerAgent: Agent;
let repAgent: Agent;
let colleagueAgent: Agent;
let paths = 0;
/** host:port of every connection the push library opened (a new socket per connection, reused ones not again). */
const connections: string[] = [];

/** The https agent the tests give web-push: trusts the local push service and notes where each connection goes. */
class NotingAgent extends HttpsAgent {
  override createConnection(options: AgentOptions & { host?: string; port?: number }, callback?: (error: Error | null, socket: Duplex) => void): Duplex {
    connections.push(`${options.host}:${options.port}`);
    return (HttpsAgent.prototype as unknown as { createConnection: (o: unknown, c?: unknown) => Duplex }).createConnection.call(this, options, callback);
  }
}

const config = (overrides: Partial<Config> = {}) => testConfig({ pushLocalEndpoints: true, ...overrides });

async function appOn(db: Database, overrides: Partial<Config> = {}, worker = false): Promise<{ app: FastifyInstance; push: PushService }> {
  const appConfig = config(overrides);
  const logger = pino({ level: "silent" });
  const mailer = createMailer({ database: db, logger, from: appConfig.mailFrom, closeDrainMs: 0 });
  // The test drains the queue itself; a failed try is due again at once.
  const service_ = createPushService({
    database: db,
    logger,
    config: appConfig,
    worker,
    pollingIntervalSeconds: 0.5,
    retry: { tries: 2, delaySeconds: 0, backoff: false },
    agent: new NotingAgent({ ca: service.certificate }),
  });
  const built = await buildApp({ config: appConfig, database: db, mailer, push: service_ });
  // As createTestApp does: the mail queue is started before ready (the test runs on a busy machine).
  await built.mailer.start();
  await built.ready();
  return { app: built, push: service_ };
}

beforeAll(async () => {
  service = await startPushService();
  database = await createTestDatabase();
  ({ app, push } = await appOn(database));
  dealershipId = (await makeDealership(database.db, { name: "Push Motors" })).id;
  manager = await makeUser(database.db, { memberships: [{ dealershipId, role: "management" }] });
  rep = await makeUser(database.db, { memberships: [{ dealershipId, role: "sales" }] });
  colleague = await makeUser(database.db, { memberships: [{ dealershipId, role: "sales" }] });
  managerAgent = await signIn(app, manager);
  repAgent = await signIn(app, rep);
  colleagueAgent = await signIn(app, colleague);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await database?.drop();
  await service?.close();
});

afterEach(async () => {
  // Each test starts with nobody subscribed.
  await database.db.update(userTokens).set({ active: false });
});

/** A fresh browser of `who`, subscribed through the API. */
async function subscribe(who: Agent, device?: string): Promise<BrowserSubscription & { path: string }> {
  const at = `/push/browser-${++paths}`;
  const browser = browserSubscription(`${service.origin}${at}`);
  const response = await who.post("/api/push/subscriptions", { ...browser.json, ...(device ? { device } : {}) });
  expect(response.statusCode, response.body).toBe(201);
  return { ...browser, path: at };
}

async function createLead(firstName: string): Promise<string> {
  const response = await managerAgent.post(`/api/dealerships/${dealershipId}/leads`, { firstName, lastName: "Pusher", phone: "416-555-0142" });
  expect(response.statusCode, response.body).toBe(201);
  await app.events.flush();
  return response.json<{ id: string }>().id;
}

async function recordFor(leadId: string) {
  const [row] = await database.db.select().from(pushNotifications).where(eq(pushNotifications.leadId, leadId));
  return row;
}

async function subscription(endpoint: string) {
  const [row] = await database.db.select().from(userTokens).where(eq(userTokens.token, endpoint));
  return row;
}

describe("a new lead reaches a rep's phone", () => {
  it("as a signed VAPID push whose decrypted payload carries the bell's title and the lead's url", async () => {
    const phone = await subscribe(repAgent, "Rep's phone");
    const leadId = await createLead("Ada");

    const pending = await recordFor(leadId);
    expect(pending).toMatchObject({ status: "pending", sentCount: 0, type: "lead_created", title: "New Lead", dealershipId });
    expect(pending!.targetUserIds).toContain(rep.id);
    expect(pending!.targetUserIds).not.toContain(manager.id); // the one who created it is not told
    expect(service.receivedAt(phone.path)).toHaveLength(0); // queued, not sent by the request

    await push.drain();
    const [received] = service.receivedAt(phone.path);
    expect(received).toBeDefined();
    const vapid = readVapidAuthorization(received!.headers.authorization);
    expect(vapid.publicKey).toBe((await repAgent.get("/api/push/public-key")).json<{ publicKey: string }>().publicKey);
    expect(vapid.claims.aud).toBe(service.origin);
    expect(vapid.claims.sub).toMatch(/^(mailto:|https:)/);
    expect(vapid.claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(received!.headers["content-encoding"]).toBe("aes128gcm");
    expect(received!.headers.ttl).toBe(String(PUSH_TTL_SECONDS));
    expect(received!.headers.urgency).toBe("high");

    const payload = JSON.parse(decryptPush(phone, received!.body)) as Record<string, unknown>;
    expect(payload).toEqual({
      title: "New Lead",
      body: "New lead: Ada Pusher",
      message: "New lead: Ada Pusher",
      url: `/leads/detail/${leadId}`,
      type: "lead_created",
      tag: pending!.id,
    });
    expect(await recordFor(leadId)).toMatchObject({ status: "sent", sentCount: 1 });
  });

  it("goes to every signed-in browser of every recipient, once each", async () => {
    const phone = await subscribe(repAgent);
    const tablet = await subscribe(repAgent);
    const other = await subscribe(colleagueAgent);
    const leadId = await createLead("Bea");
    await push.drain();
    for (const browser of [phone, tablet, other]) expect(service.receivedAt(browser.path)).toHaveLength(1);
    expect(await recordFor(leadId)).toMatchObject({ status: "sent", sentCount: 3 });
  });

  it("writes no record and queues no job when no recipient has a subscription", async () => {
    const leadId = await createLead("Cy");
    expect(await recordFor(leadId)).toBeUndefined();
  });

  it("stops at a browser whose session signed out", async () => {
    const user = await makeUser(database.db, { memberships: [{ dealershipId, role: "sales" }] });
    const session = await signIn(app, user);
    const phone = await subscribe(session);
    expect((await session.post("/api/logout")).statusCode).toBe(200);
    const leadId = await createLead("Di");
    await push.drain();
    expect(service.receivedAt(phone.path)).toHaveLength(0);
    expect(await recordFor(leadId)).toBeUndefined();
  });
});

describe("a running app", () => {
  it("sends the push from its own worker, nobody draining the queue", async () => {
    const running = await appOn(database, {}, true);
    try {
      const session = await signIn(running.app, rep);
      const phone = await subscribe(session);
      const leadId = await createLead("Jo");
      const deadline = Date.now() + 20_000;
      while (service.receivedAt(phone.path).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(JSON.parse(decryptPush(phone, service.receivedAt(phone.path)[0]!.body))).toMatchObject({ url: `/leads/detail/${leadId}` });
      while ((await recordFor(leadId))?.status === "pending" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await recordFor(leadId)).toMatchObject({ status: "sent", sentCount: 1 });
    } finally {
      await running.app.close();
    }
  }, 40_000);
});

describe("the push service's answers", () => {
  it("410 Gone deactivates the subscription and the push is recorded failed", async () => {
    const phone = await subscribe(repAgent);
    service.answerNext(phone.path, 410);
    const leadId = await createLead("Ed");
    await push.drain();
    expect(service.receivedAt(phone.path)).toHaveLength(1);
    expect((await subscription(phone.json.endpoint))!.active).toBe(false);
    expect(await recordFor(leadId)).toMatchObject({ status: "failed", sentCount: 0 });

    // Gone for good: the next lead is not even queued for it.
    const next = await createLead("Eve");
    await push.drain();
    expect(service.receivedAt(phone.path)).toHaveLength(1);
    expect(await recordFor(next)).toBeUndefined();
  });

  it("404 deactivates the subscription as well", async () => {
    const phone = await subscribe(repAgent);
    service.answerNext(phone.path, 404);
    await createLead("Flo");
    await push.drain();
    expect((await subscription(phone.json.endpoint))!.active).toBe(false);
  });

  it("a failing push service is tried again, and only the browsers not yet reached get the retry", async () => {
    const phone = await subscribe(repAgent);
    const laptop = await subscribe(repAgent);
    service.answerNext(laptop.path, 503);
    const leadId = await createLead("Gus");
    await push.drain();
    expect(service.receivedAt(laptop.path)).toHaveLength(2);
    expect(service.receivedAt(phone.path)).toHaveLength(1); // no second copy on the phone
    expect((await subscription(laptop.json.endpoint))!.active).toBe(true);
    expect(await recordFor(leadId)).toMatchObject({ status: "sent", sentCount: 2 });
  });

  it("after the last try fails, the record says how many it reached", async () => {
    const phone = await subscribe(repAgent);
    const laptop = await subscribe(repAgent);
    service.answerNext(laptop.path, 500, 500);
    const leadId = await createLead("Hal");
    await push.drain();
    expect(service.receivedAt(laptop.path)).toHaveLength(2);
    expect(service.receivedAt(phone.path)).toHaveLength(1);
    expect(await recordFor(leadId)).toMatchObject({ status: "sent", sentCount: 1 });
  });
});

describe("retention (decision 158)", () => {
  const daysAgo = (days: number) => sql`now() - make_interval(days => ${days}::int)`;
  const backdate = (id: string, days: number) => database.db.update(pushNotifications).set({ createdAt: daysAgo(days) }).where(eq(pushNotifications.id, id));
  const deliveriesOf = async (id: string) => (await database.db.select().from(pushDeliveries).where(eq(pushDeliveries.pushNotificationId, id))).map((d) => d.token);
  const exists = async (ids: string[]) =>
    (await database.db.select({ id: pushNotifications.id }).from(pushNotifications).where(inArray(pushNotifications.id, ids))).map((r) => r.id).sort();
  /** A record no job will ever try again (its last try's job expired with the process): made by hand. */
  async function orphan(status: "pending" | "sent", days: number, token?: string): Promise<string> {
    const [row] = await database.db
      .insert(pushNotifications)
      .values({ title: "Old", message: "Old", status, dealershipId, targetUserIds: [rep.id], createdAt: daysAgo(days) })
      .returning({ id: pushNotifications.id });
    if (token) await database.db.insert(pushDeliveries).values({ pushNotificationId: row!.id, token });
    return row!.id;
  }

  it(`prunes records older than ${PUSH_RETENTION_DAYS} days with their deliveries, keeps recent ones, and keeps a pending retry's deliveries however old`, async () => {
    const phone = await subscribe(repAgent);
    const laptop = await subscribe(repAgent);
    // Sent and old; sent and recent: each reached both browsers.
    const oldSent = (await recordFor(await createLead("Ivy")))!.id;
    const recentSent = (await recordFor(await createLead("Jo")))!.id;
    await push.drain();
    expect(await deliveriesOf(oldSent)).toHaveLength(2);
    await backdate(oldSent, PUSH_RETENTION_DAYS + 1);
    await backdate(recentSent, PUSH_RETENTION_DAYS - 1);
    // Pending, its job still waiting to try again, the phone already reached: old, yet still needed.
    const retrying = (await recordFor(await createLead("Kim")))!.id;
    await database.db.insert(pushDeliveries).values({ pushNotificationId: retrying, token: phone.json.endpoint });
    await backdate(retrying, PUSH_RETENTION_DAYS + 5);
    // Pending with no job left to run it, and an old failed one: nothing will read them again.
    const stuck = await orphan("pending", PUSH_RETENTION_DAYS + 2, laptop.json.endpoint);

    const pruned = await database.db.transaction((tx) => prunePushRecords(tx));
    expect(pruned).toBe(2);
    expect(await exists([oldSent, recentSent, retrying, stuck])).toEqual([recentSent, retrying].sort());
    expect(await deliveriesOf(oldSent)).toEqual([]);
    expect(await deliveriesOf(stuck)).toEqual([]);
    expect(await deliveriesOf(recentSent)).toHaveLength(2);
    expect(await deliveriesOf(retrying)).toEqual([phone.json.endpoint]);

    // The kept deliveries did their work: the retry reaches the laptop only, the phone shows it once.
    const phoneBefore = service.receivedAt(phone.path).length;
    const laptopBefore = service.receivedAt(laptop.path).length;
    await push.drain();
    expect(service.receivedAt(phone.path)).toHaveLength(phoneBefore);
    expect(service.receivedAt(laptop.path)).toHaveLength(laptopBefore + 1);
    expect(await recordFor((await database.db.select({ leadId: pushNotifications.leadId }).from(pushNotifications).where(eq(pushNotifications.id, retrying)))[0]!.leadId!)).toMatchObject({ status: "sent", sentCount: 2 });
  });

  it("prunes a batch at a time, oldest first", async () => {
    const older = await orphan("sent", PUSH_RETENTION_DAYS + 30);
    const old = await orphan("sent", PUSH_RETENTION_DAYS + 10);
    expect(await database.db.transaction((tx) => prunePushRecords(tx, { batch: 1 }))).toBe(1);
    expect(await exists([older, old])).toEqual([old]);
    expect(await database.db.transaction((tx) => prunePushRecords(tx, { batch: 1 }))).toBe(1);
    expect(await exists([older, old])).toEqual([]);
  });

  it("runs while events are dispatched, as the bell's pruning does", async () => {
    await subscribe(repAgent);
    const old = await orphan("sent", PUSH_RETENTION_DAYS + 1);
    forgetLastPushPrune();
    await createLead("Lou");
    expect(await exists([old])).toEqual([]);
    await push.drain(); // nothing left queued for the next test
  });
});

describe("the subscription routes", () => {
  it("give the VAPID public key to a signed-in user only", async () => {
    const response = await repAgent.get("/api/push/public-key");
    expect(response.statusCode).toBe(200);
    expect(Buffer.from(response.json<{ publicKey: string }>().publicKey, "base64url")).toHaveLength(65);
    expect((await app.inject({ method: "GET", url: "/api/push/public-key" })).statusCode).toBe(401);
  });

  it("keep the browser's subscription for the signed-in user, with its device label", async () => {
    const phone = await subscribe(repAgent, "Lot iPad");
    expect(await subscription(phone.json.endpoint)).toMatchObject({ userId: rep.id, device: "Lot iPad", active: true, userRole: "sales", sessionId: expect.any(String) });
  });

  it("refuse hostile subscriptions with a 400 that names the field, and keep nothing", async () => {
    const good = browserSubscription(`${service.origin}/push/hostile`).json;
    const cases: Array<[string, unknown]> = [
      ["endpoint", { ...good, endpoint: `http://localhost:1/push` }],
      ["endpoint", { ...good, endpoint: "https://push.example.com/x" }],
      ["endpoint", { ...good, endpoint: "https://fcm.googleapis.com:8443/fcm/send/x" }],
      ["endpoint", { ...good, endpoint: "https://user:pw@fcm.googleapis.com/fcm/send/x" }],
      ["endpoint", { ...good, endpoint: `https://fcm.googleapis.com/fcm/send/${"x".repeat(1_000)}` }],
      ["endpoint", { ...good, endpoint: "javascript:alert(1)" }],
      ["endpoint", { ...good, endpoint: 42 }],
      ["keys.p256dh", { ...good, keys: { ...good.keys, p256dh: "B".repeat(10_000) } }],
      ["keys.p256dh", { ...good, keys: { ...good.keys, p256dh: `B${"!".repeat(86)}` } }],
      ["keys.p256dh", { ...good, keys: { ...good.keys, p256dh: `B${"A".repeat(86)}` } }], // 0x04 0x00...: not on the curve
      ["keys.auth", { ...good, keys: { ...good.keys, auth: "short" } }],
      ["keys.auth", { ...good, keys: { ...good.keys, auth: "%%%%%%%%%%%%%%%%%%%%%%" } }],
      ["keys", { endpoint: good.endpoint }],
      ["device", { ...good, device: "d".repeat(101) }],
    ];
    const before = (await database.db.select().from(userTokens)).length;
    for (const [field, body] of cases) {
      const response = await repAgent.post("/api/push/subscriptions", body);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      const answer = response.json<{ message: string; fields: Record<string, string> }>();
      expect(answer.message).toBeTruthy();
      expect(Object.keys(answer.fields), JSON.stringify(answer)).toContain(field);
    }
    expect(await database.db.select().from(userTokens)).toHaveLength(before);
  });

  it("accept only the known push services (and this machine only when PUSH_LOCAL_ENDPOINTS allows it)", () => {
    expect(() => pushServiceUrl("https://fcm.googleapis.com/fcm/send/abc", false)).not.toThrow();
    expect(() => pushServiceUrl("https://updates.push.services.mozilla.com/wpush/v2/abc", false)).not.toThrow();
    expect(() => pushServiceUrl("https://web.push.apple.com/QGx", false)).not.toThrow();
    expect(() => pushServiceUrl("https://wns2-by3p.notify.windows.com/w/?token=abc", false)).not.toThrow();
    expect(() => pushServiceUrl("https://localhost:4443/push", false)).toThrow();
    expect(() => pushServiceUrl("https://127.0.0.1/push", false)).toThrow();
    expect(() => pushServiceUrl("https://evil-fcm.googleapis.com.example.net/x", false)).toThrow();
    expect(() => pushServiceUrl("https://localhost:4443/push", true)).not.toThrow();
    expect(() => pushServiceUrl("https://127.0.0.1:4443/push", true)).not.toThrow();
    expect(() => pushServiceUrl("https://[::1]:4443/push", true)).not.toThrow();
  });

  describe("endpoints the push library would read otherwise (decision 171)", () => {
    /** Each refused, with the reason the 400 gives for `endpoint`. */
    const HOSTILE: Array<[string, string]> = [
      // Node's url.parse (web-push's) stops the host at ';': 127.0.0.1, port 443, to the library.
      ["https://127.0.0.1;.fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notDnsName],
      ["https://localhost;.push.apple.com/x", ENDPOINT_PROBLEMS.notDnsName],
      ["https://127.0.0.1,.fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notDnsName],
      ["https://127.0.0.1!.fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notDnsName],
      ["https://fcm.googleapis.com_.127.0.0.1.nip.io/x", ENDPOINT_PROBLEMS.notDnsName],
      // User info: the host is after the last '@'.
      ["https://fcm.googleapis.com@127.0.0.1/fcm/send/x", ENDPOINT_PROBLEMS.userinfo],
      ["https://x:y@fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.userinfo],
      ["https://@fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      // Backslashes: a path separator to one parser, part of the host or user to the other.
      ["https://fcm.googleapis.com\\@127.0.0.1/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://127.0.0.1\\.fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https:\\\\fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      // Percent-encoding in the host, and a tab the WHATWG parser drops.
      ["https://fcm%2egoogleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://127.0.0.1%3b.fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://fcm.googleapis.com%2f@127.0.0.1/x", ENDPOINT_PROBLEMS.userinfo],
      ["https://fcm.goog\tleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      // IP literals in every spelling.
      ["https://127.0.0.1/fcm/send/x", ENDPOINT_PROBLEMS.notDnsName],
      ["https://10.0.0.1/fcm/send/x", ENDPOINT_PROBLEMS.notDnsName],
      ["https://169.254.169.254/latest/meta-data/", ENDPOINT_PROBLEMS.notDnsName],
      ["https://[::1]/fcm/send/x", ENDPOINT_PROBLEMS.notDnsName],
      ["https://[::ffff:127.0.0.1]/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://[::ffff:7f00:1]/fcm/send/x", ENDPOINT_PROBLEMS.notDnsName],
      ["https://2130706433/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://0x7f000001/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://0177.0.0.1/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://127.1/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      // Ports, explicit or default.
      ["https://fcm.googleapis.com:8443/fcm/send/x", ENDPOINT_PROBLEMS.port],
      ["https://fcm.googleapis.com:443/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://fcm.googleapis.com:22/fcm/send/x", ENDPOINT_PROBLEMS.port],
      ["https://localhost:4443/push", ENDPOINT_PROBLEMS.port],
      ["https://localhost/push", ENDPOINT_PROBLEMS.notDnsName],
      // Not https.
      ["http://fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notHttps],
      ["ftp://fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notHttps],
      ["file:///etc/passwd", ENDPOINT_PROBLEMS.notHttps],
      ["fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notUrl],
      // A trailing dot, upper case, unicode and look-alike hosts.
      ["https://fcm.googleapis.com./fcm/send/x", ENDPOINT_PROBLEMS.notDnsName],
      ["https://FCM.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["HTTPS://fcm.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://ｆｃｍ.googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://fcm.googleapis.cöm/fcm/send/x", ENDPOINT_PROBLEMS.notAsWritten],
      ["https://xn--fcm-googleapis-com-7xb.example/x", ENDPOINT_PROBLEMS.unknownService],
      // Not a push service at all.
      ["https://push.example.com/x", ENDPOINT_PROBLEMS.unknownService],
      ["https://evil-fcm.googleapis.com.example.net/x", ENDPOINT_PROBLEMS.unknownService],
      ["https://fcm.googleapis.com.evil.example/x", ENDPOINT_PROBLEMS.unknownService],
      ["https://notfcm.googleapis.com/x", ENDPOINT_PROBLEMS.unknownService],
      ["https://googleapis.com/fcm/send/x", ENDPOINT_PROBLEMS.unknownService],
    ];
    /** A real endpoint of each push service, as browsers give them. */
    const GOOD = [
      "https://fcm.googleapis.com/fcm/send/dGVzdC10b2tlbg:APA91bH-Example_Token-1234567890",
      "https://android.googleapis.com/gcm/send/dGVzdC10b2tlbg",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABkExample-Token_123",
      "https://web.push.apple.com/QGx9Exampletoken-12_34",
      "https://wns2-by3p.notify.windows.com/w/?token=BQYAAADExample%2bToken%2fwith%3dEscapes",
    ];

    it("refuses each with a 400 whose message names endpoint, keeping nothing", async () => {
      const strict = await appOn(database, { pushLocalEndpoints: false });
      try {
        const session = await signIn(strict.app, rep);
        const before = (await database.db.select().from(userTokens)).length;
        for (const [endpoint, problem] of HOSTILE) {
          const response = await session.post("/api/push/subscriptions", browserSubscription(endpoint).json);
          expect(response.statusCode, `${endpoint}: ${response.body}`).toBe(400);
          const answer = response.json<{ message: string; fields: Record<string, string> }>();
          expect(answer.message, endpoint).toMatch(/^endpoint: /);
          expect(Object.keys(answer.fields), endpoint).toEqual(["endpoint"]);
          // The body schema's own https check (shared with the client) answers first for some; the rest say why.
          expect([ENDPOINT_INVALID, problem], endpoint).toContain(answer.fields.endpoint);
          expect(checkPushEndpoint(endpoint, false), endpoint).toEqual({ problem });
        }
        expect(await database.db.select().from(userTokens)).toHaveLength(before);
      } finally {
        await strict.app.close();
      }
    });

    it("refuses the same with PUSH_LOCAL_ENDPOINTS, which allows only this machine's own names", () => {
      const local = /^https:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/;
      for (const [endpoint] of HOSTILE.filter(([e]) => !local.test(e))) {
        expect("problem" in checkPushEndpoint(endpoint, true), endpoint).toBe(true);
      }
    });

    it("accepts a real endpoint of each push service, kept as the URL the push library is handed and reads the same way", async () => {
      const strict = await appOn(database, { pushLocalEndpoints: false });
      try {
        const session = await signIn(strict.app, colleague);
        for (const endpoint of GOOD) {
          const response = await session.post("/api/push/subscriptions", browserSubscription(endpoint).json);
          expect(response.statusCode, `${endpoint}: ${response.body}`).toBe(201);
          expect((await subscription(endpoint))?.token).toBe(endpoint);
          const url = pushServiceUrl(endpoint, false);
          expect(url.href).toBe(endpoint);
          // web-push reads the endpoint with url.parse: the host it connects to is the host we checked.
          const legacy = legacyParse(url.href);
          expect([legacy.hostname, legacy.port], endpoint).toEqual([url.hostname, null]);
        }
      } finally {
        await strict.app.close();
      }
    });

    it("a subscription kept before the check (a hostile endpoint) is never sent to, and is retired at the next push", async () => {
      const phone = await subscribe(repAgent);
      const [session] = await database.db
        .select({ sessionId: userTokens.sessionId })
        .from(userTokens)
        .where(eq(userTokens.token, phone.json.endpoint));
      const hostile = browserSubscription("https://127.0.0.1;.fcm.googleapis.com/fcm/send/kept-before");
      await database.db.insert(userTokens).values({
        token: hostile.json.endpoint,
        userId: rep.id,
        sessionId: session!.sessionId,
        p256dh: hostile.json.keys.p256dh,
        auth: hostile.json.keys.auth,
        active: true,
      });
      connections.length = 0;
      const leadId = await createLead("Kit");
      await push.drain();
      expect(service.receivedAt(phone.path)).toHaveLength(1);
      expect(connections.every((c) => c === `localhost:${new URL(service.origin).port}`), connections.join()).toBe(true);
      expect(await recordFor(leadId)).toMatchObject({ status: "sent", sentCount: 1 });
      expect((await subscription(hostile.json.endpoint))!.active).toBe(false);
      const deliveries = await database.db.select().from(pushDeliveries).where(and(eq(pushDeliveries.token, hostile.json.endpoint)));
      expect(deliveries).toEqual([]);

      // Alone, it does not even queue a push.
      await database.db.update(userTokens).set({ active: false }).where(eq(userTokens.token, phone.json.endpoint));
      await database.db.update(userTokens).set({ active: true }).where(eq(userTokens.token, hostile.json.endpoint));
      const next = await createLead("Kip");
      expect(await recordFor(next)).toBeUndefined();
    });
  });

  it("end only the caller's own subscription; another user's endpoint stays as it was", async () => {
    const phone = await subscribe(repAgent);
    const unsubscribe = (who: Agent, endpoint: unknown) =>
      who.request({ method: "DELETE", url: "/api/push/subscriptions", payload: { endpoint } as object });

    const theirs = await unsubscribe(colleagueAgent, phone.json.endpoint);
    expect(theirs.statusCode).toBe(200);
    expect((await subscription(phone.json.endpoint))!.active).toBe(true);

    const mine = await unsubscribe(repAgent, phone.json.endpoint);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual(theirs.json()); // the same answer: nobody learns whose browser it is
    expect((await subscription(phone.json.endpoint))!.active).toBe(false);

    const missing = await unsubscribe(repAgent, "");
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ fields: Record<string, string> }>().fields).toHaveProperty("endpoint");
  });

  it("move an endpoint subscribed again by someone else (a shared showroom tablet) to them", async () => {
    const tablet = await subscribe(repAgent);
    const again = await colleagueAgent.post("/api/push/subscriptions", tablet.json);
    expect(again.statusCode).toBe(201);
    expect(await subscription(tablet.json.endpoint)).toMatchObject({ userId: colleague.id, active: true });
    const leadId = await createLead("Ivy");
    await push.drain();
    expect(service.receivedAt(tablet.path)).toHaveLength(1);
    expect((await recordFor(leadId))!.sentCount).toBe(1);
  });

  it(`keep at most ${MAX_ACTIVE_SUBSCRIPTIONS} browsers per user: the oldest stops receiving`, async () => {
    const first = await subscribe(colleagueAgent);
    for (let i = 0; i < MAX_ACTIVE_SUBSCRIPTIONS; i++) await subscribe(colleagueAgent);
    expect((await subscription(first.json.endpoint))!.active).toBe(false);
    const active = await database.db.select().from(userTokens).where(eq(userTokens.userId, colleague.id));
    expect(active.filter((r) => r.active)).toHaveLength(MAX_ACTIVE_SUBSCRIPTIONS);
  });
});

describe("the VAPID keys", () => {
  it("are made once and kept: a second app on the same database signs with the same pair", async () => {
    const first = (await repAgent.get("/api/push/public-key")).json<{ publicKey: string }>().publicKey;
    const second = await appOn(database);
    try {
      const session = await signIn(second.app, rep);
      expect((await session.get("/api/push/public-key")).json<{ publicKey: string }>().publicKey).toBe(first);
    } finally {
      await second.app.close();
    }
    const [kept] = await database.db.select().from(installationKeys).where(eq(installationKeys.name, "vapid"));
    expect(kept!.value.publicKey).toBe(first);
    expect(kept!.value.privateKey).toMatch(/^v1:/); // encrypted with APP_SECRET, not readable from the database alone
  });

  it("come from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when they are set", async () => {
    const { publicKey, privateKey } = (await import("web-push")).default.generateVAPIDKeys();
    const fromEnv = await appOn(database, { vapidKeys: { publicKey, privateKey } });
    try {
      const session = await signIn(fromEnv.app, rep);
      expect((await session.get("/api/push/public-key")).json<{ publicKey: string }>().publicKey).toBe(publicKey);
    } finally {
      await fromEnv.app.close();
    }
  });

  it("are replaced when APP_SECRET no longer reads them, and the old subscriptions end", async () => {
    const phone = await subscribe(repAgent);
    const before = (await repAgent.get("/api/push/public-key")).json<{ publicKey: string }>().publicKey;
    const other = await appOn(database, { appSecret: "another-secret-of-at-least-32-characters" });
    try {
      const session = await signIn(other.app, rep);
      const after = (await session.get("/api/push/public-key")).json<{ publicKey: string }>().publicKey;
      expect(after).not.toBe(before);
      expect((await subscription(phone.json.endpoint))!.active).toBe(false);
    } finally {
      await other.app.close();
    }
    // Put the pair back for the app of the other tests (it reads its keys once): made anew under the usual secret.
    await database.db.delete(installationKeys);
  });
});
