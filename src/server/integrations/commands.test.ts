import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publishedTypes } from "../../../tests/helpers/published";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { viewerOf, type Viewer } from "../auth/tenancy";
import type { Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { domainEvents } from "../db/schema/events";
import { apiTokens, webhookDeliveries, webhooks } from "../db/schema/integrations";
import { addWebhook, changeWebhook, issueApiToken, redeliverWebhook, removeWebhook, revokeApiToken, type WebhookSetup } from "./commands";

// The integrations' commands without HTTP (issue 25): each change of a token or a webhook publishes exactly one event
// in its transaction; a change of nothing, a redelivery and a refused change (400, 404) publish none.

let database: Database & { drop(): Promise<void> };
let manager: Viewer;
let outsider: Viewer;

const setup: WebhookSetup = { secrets: { appSecret: "commands test secret", dataDir: "/nonexistent" }, allowPrivate: true };
const HOOK = { url: "https://127.0.0.1:9/hook", events: ["lead.created"], description: "CRM sync" };
const eventTypes = () => publishedTypes(database.db, "api_token.", "webhook.");

beforeAll(async () => {
  database = await createTestDatabase();
  const dealershipId = (await makeDealership(database.db, { name: "Integration Motors" })).id;
  const otherId = (await makeDealership(database.db, { name: "Other Motors" })).id;
  manager = viewerOf((await makeUser(database.db, { memberships: [{ dealershipId, role: "management" }] })).id, dealershipId, "management");
  outsider = viewerOf((await makeUser(database.db, { memberships: [{ dealershipId: otherId, role: "management" }] })).id, otherId, "management");
});
afterAll(() => database.drop());
beforeEach(() => database.db.delete(domainEvents));

describe("the API tokens' commands", () => {
  it("issue and revoke publish one event each; a second revoke, another dealership's and a past expiry none", async () => {
    const { row, token } = await issueApiToken(database.db, manager, { name: "Zapier", role: "sales" });
    expect(token).toMatch(/^shr_/);
    await expect(issueApiToken(database.db, manager, { name: "Late", role: "sales", expiresAt: new Date(Date.now() - 1000).toISOString() })).rejects.toMatchObject({ statusCode: 400 });
    await expect(revokeApiToken(database.db, outsider, row.id)).rejects.toMatchObject({ statusCode: 404 });
    await revokeApiToken(database.db, manager, row.id);
    await expect(revokeApiToken(database.db, manager, row.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await eventTypes()).toEqual(["api_token.created", "api_token.revoked"]);
    expect(await database.db.select({ name: apiTokens.name }).from(apiTokens)).toEqual([{ name: "Zapier" }]);
  });
});

describe("the webhooks' commands", () => {
  it("add, change and remove publish one event each; a change to what is there publishes none", async () => {
    const { row, secret } = await addWebhook(database.db, manager, HOOK, setup);
    expect(secret).toEqual(expect.any(String));
    expect(row.secret).not.toContain(secret);
    await changeWebhook(database.db, manager, row.id, {}, setup);
    await changeWebhook(database.db, manager, row.id, { url: HOOK.url, events: HOOK.events, description: HOOK.description, active: true }, setup);
    expect(await eventTypes()).toEqual(["webhook.created"]);
    await changeWebhook(database.db, manager, row.id, { active: false }, setup);
    await changeWebhook(database.db, manager, row.id, { active: false, events: ["lead.created"] }, setup);
    await changeWebhook(database.db, manager, row.id, { description: null }, setup);
    await removeWebhook(database.db, manager, row.id);
    expect(await eventTypes()).toEqual(["webhook.created", "webhook.updated", "webhook.updated", "webhook.deleted"]);
  });

  it("turned back on with the same settings, a failing webhook forgets its failures: a change, one event", async () => {
    const { row } = await addWebhook(database.db, manager, HOOK, setup);
    await database.db.update(webhooks).set({ failingSince: new Date() }).where(eq(webhooks.id, row.id));
    await changeWebhook(database.db, manager, row.id, { active: true }, setup);
    expect(await eventTypes()).toEqual(["webhook.created", "webhook.updated"]);
    const [after] = await database.db.select().from(webhooks).where(eq(webhooks.id, row.id));
    expect(after).toMatchObject({ active: true, failingSince: null });
    await removeWebhook(database.db, manager, row.id);
  });

  it("a refused change publishes nothing and writes nothing", async () => {
    await expect(addWebhook(database.db, manager, { ...HOOK, events: ["lead.exploded"] }, setup)).rejects.toMatchObject({ statusCode: 400, fields: { events: expect.any(String) } });
    await expect(addWebhook(database.db, manager, HOOK, { ...setup, allowPrivate: false })).rejects.toMatchObject({ statusCode: 400, fields: { url: expect.any(String) } });
    const { row } = await addWebhook(database.db, manager, HOOK, setup);
    await expect(changeWebhook(database.db, outsider, row.id, { active: false }, setup)).rejects.toMatchObject({ statusCode: 404 });
    await expect(changeWebhook(database.db, manager, row.id, { events: ["*", "lead.created"] }, setup)).rejects.toMatchObject({ statusCode: 400 });
    await expect(removeWebhook(database.db, outsider, row.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await eventTypes()).toEqual(["webhook.created"]);
    const [kept] = await database.db.select().from(webhooks).where(eq(webhooks.id, row.id));
    expect(kept).toMatchObject({ active: true, events: ["lead.created"] });
    await removeWebhook(database.db, manager, row.id);
  });

  it("a redelivery queues the delivery again and publishes nothing; 404 for another's, 400 while the webhook is off", async () => {
    const { row } = await addWebhook(database.db, manager, HOOK, setup);
    await database.db.insert(webhookDeliveries).values({ id: "delivery-1", webhookId: row.id, eventType: "lead.created", body: "{}", status: "failed" });
    const asked: string[] = [];
    const service = { redeliver: async (_tx: unknown, id: string) => (asked.push(id), true) };
    expect(await redeliverWebhook(database.db, manager, row.id, "delivery-1", service)).toBe(true);
    await expect(redeliverWebhook(database.db, outsider, row.id, "delivery-1", service)).rejects.toMatchObject({ statusCode: 404 });
    await changeWebhook(database.db, manager, row.id, { active: false }, setup);
    await expect(redeliverWebhook(database.db, manager, row.id, "delivery-1", service)).rejects.toMatchObject({ statusCode: 400 });
    expect(asked).toEqual(["delivery-1"]);
    expect(await eventTypes()).toEqual(["webhook.created", "webhook.updated"]);
  });
});
