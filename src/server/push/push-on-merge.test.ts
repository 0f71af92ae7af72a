import { Agent as HttpsAgent } from "node:https";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOMAIN_EVENT_VERSIONS, serializeEventPayload } from "../../shared/events";
import { mergeLeadsSchema } from "../../shared/schemas/lead-duplicates";
import { captureLog } from "../../../tests/helpers/captured-log";
import { browserSubscription, startPushService, type LocalPushService } from "../../../tests/helpers/push-endpoint";
import { createTestDatabase, signIn } from "../../../tests/helpers/test-app";
import { buildApp } from "../app";
import { viewerOf } from "../auth/tenancy";
import { testConfig } from "../config";
import type { Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { domainEvents } from "../db/schema/events";
import { pushNotifications } from "../db/schema/notifications";
import { publish } from "../events/outbox";
import { mergeLeads } from "../leads/merge";
import { leadSnapshot } from "../leads/queries";
import { createMailer } from "../mail/mailer";
import { createPushService } from "./push-service";

// A lead's events may be dispatched while a merge folds that lead away (issue 23). The push record keeps its link to
// the lead only while the lead exists; the link was read without a lock, so a merge deleting the lead between that read
// and the foreign-key check failed the push ("push not queued for an event", logged once per such event, the phones
// never told) while the bell, written a statement later, kept the notification.

let service: LocalPushService;
let database: Database & { drop(): Promise<void> };
let app: FastifyInstance;
let dealershipId: string;
let frontDeskId: string;
const log = captureLog();

beforeAll(async () => {
  service = await startPushService();
  database = await createTestDatabase();
  const config = testConfig({ pushLocalEndpoints: true });
  const mailer = createMailer({ database, logger: log.logger, from: config.mailFrom, closeDrainMs: 0 });
  const push = createPushService({ database, logger: log.logger, config, worker: false, agent: new HttpsAgent({ ca: service.certificate }) });
  app = await buildApp({ config, database, mailer, push, logger: log.logger });
  await app.mailer.start();
  await app.ready();
  dealershipId = (await makeDealership(database.db)).id;
  frontDeskId = (await makeUser(database.db, { memberships: [{ dealershipId, role: "frontDesk" }] })).id;
  // Someone to push to: management hears of every new lead.
  const manager = await makeUser(database.db, { memberships: [{ dealershipId, role: "management" }] });
  const subscribed = await (await signIn(app, manager)).post("/api/push/subscriptions", browserSubscription(`${service.origin}/push/manager`).json);
  expect(subscribed.statusCode, subscribed.body).toBe(201);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await database?.drop();
  await service?.close();
});

/** Publishes lead.created for a lead that exists now, as the create route does (the dispatcher picks it up at once). */
async function announceCreated(lead: Awaited<ReturnType<typeof makeLead>>): Promise<void> {
  await database.db.transaction((tx) =>
    publish(tx, { type: "lead.created", dealershipId, actorId: frontDeskId, payload: { lead: leadSnapshot(lead) } }),
  );
}

const pushesAbout = (firstName: string) =>
  database.db.select().from(pushNotifications).where(eq(pushNotifications.message, `New lead: ${firstName} Merged`));

/** The merge dialog's choices left as they come (each field the kept lead's, descriptions both). */
const defaults = mergeLeadsSchema.parse({ mergeLeadId: "x" }).choices;

const pushFailures = () => log.warnings().filter((line) => line.msg === "push not queued for an event");

describe("a lead merged away while its events are dispatched", () => {
  it("still gets its push queued (without the link), and nothing is logged, when the merge came first", async () => {
    const kept = await makeLead(database.db, { dealershipId, firstName: "Kept", lastName: "Merged" });
    const merged = await makeLead(database.db, { dealershipId, firstName: "Before", lastName: "Merged" });
    await database.db.transaction((tx) => mergeLeads(tx, viewerOf(frontDeskId, dealershipId, "frontDesk"), kept.id, merged.id, defaults));
    await announceCreated(merged);
    await app.events.flush();
    expect(pushFailures()).toEqual([]);
    expect(await pushesAbout("Before")).toMatchObject([{ leadId: null, status: "pending" }]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("does the same when the merge commits while the push is being written (PostgreSQL)", async () => {
    const kept = await makeLead(database.db, { dealershipId, firstName: "Kept", lastName: "Merged" });
    const merged = await makeLead(database.db, { dealershipId, firstName: "During", lastName: "Merged" });
    // The merge deletes the lead and waits, uncommitted, holding its row, as a merge does for a moment.
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let deleted!: () => void;
    const hasDeleted = new Promise<void>((resolve) => (deleted = resolve));
    const merging = database.db.transaction(async (tx) => {
      await mergeLeads(tx, viewerOf(frontDeskId, dealershipId, "frontDesk"), kept.id, merged.id, defaults);
      deleted();
      await held;
    });
    await hasDeleted;
    // The lead's lead.created is dispatched now: its push meets the lead deleted but not yet committed away. The event
    // row goes in alone, as one published before the merge began (publish() would also write the lead's timeline entry,
    // whose key check waits for the merge, as any write about a lead being deleted does).
    await database.db.insert(domainEvents).values({
      type: "lead.created",
      version: DOMAIN_EVENT_VERSIONS["lead.created"],
      dealershipId,
      actorId: frontDeskId,
      payload: JSON.parse(serializeEventPayload("lead.created", { lead: leadSnapshot(merged) })),
    });
    const dispatching = app.events.flush();
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await merging;
    await dispatching;
    await app.events.flush();
    expect(pushFailures().map((line) => JSON.stringify(line.err).slice(0, 300))).toEqual([]);
    expect(await pushesAbout("During")).toMatchObject([{ leadId: null, status: "pending" }]);
  });
});
