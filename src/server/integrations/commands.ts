import { and, eq } from "drizzle-orm";
import { DOMAIN_EVENT_TYPES } from "../../shared/events";
import type { ApiTokenInput, WebhookInput, WebhookUpdate } from "../../shared/schemas/integrations";
import { writeInDealership, type Viewer } from "../auth/tenancy";
import { encryptSecret, type SecretSource } from "../auth/two-factor-secrets";
import type { Db } from "../db/client";
import { webhookDeliveries, webhooks } from "../db/schema/integrations";
import { publish } from "../events/outbox";
import { badRequest, notFound } from "../http/errors";
import { createApiToken, markApiTokenRevoked, tokenSnapshot, type TokenRow } from "./api-tokens";
import { checkWebhookTarget, WebhookAddressError } from "./webhook-addresses";
import { newWebhookSecret } from "./webhook-sender";
import type { WebhookService } from "./webhooks";

// The integrations' changes made by management (issue 25; issue 28, decisions 225, 227): API tokens and webhooks.
// Each is the scoped write and its one event in one transaction that holds the dealership (decision 176); a change
// that changes nothing publishes nothing (decision 239). What a change is checked against outside the database (a
// webhook's address, resolved by DNS) is checked before the transaction, so no lock waits on the network. Who may call
// them is the route's to check (management; a token request never reaches them, token-requests.ts).

export const NO_SUCH_API_TOKEN = "No such API token";
export const NO_SUCH_WEBHOOK = "No such webhook";
export const NO_SUCH_DELIVERY = "No such delivery";
export const TURN_ON_FIRST = "Turn the webhook on before sending again";

const by = (viewer: Viewer) => ({ dealershipId: viewer.dealershipId, actorId: viewer.userId });

/** Creates a token and its account (api_token.created); answers the row and the token, never readable again. */
export async function issueApiToken(db: Db, viewer: Viewer, input: ApiTokenInput): Promise<{ row: TokenRow; token: string }> {
  if (input.expiresAt && new Date(input.expiresAt).getTime() <= Date.now()) {
    throw badRequest("expiresAt: must be in the future", { expiresAt: "must be in the future" });
  }
  return writeInDealership(db, viewer, async (tx) => {
    const made = await createApiToken(tx, viewer.dealershipId, viewer.userId, input);
    await publish(tx, { ...by(viewer), type: "api_token.created", payload: { token: tokenSnapshot(made.row) } });
    return made;
  });
}

/** Revokes a live token of the viewer's dealership (api_token.revoked); 404 when there is none (a second revoke too). */
export function revokeApiToken(db: Db, viewer: Viewer, tokenId: string): Promise<void> {
  return writeInDealership(db, viewer, async (tx) => {
    const revoked = await markApiTokenRevoked(tx, viewer.dealershipId, tokenId);
    if (!revoked) throw notFound(NO_SUCH_API_TOKEN);
    await publish(tx, { ...by(viewer), type: "api_token.revoked", payload: { token: tokenSnapshot(revoked) } });
  });
}

type WebhookRow = typeof webhooks.$inferSelect;

/** What a webhook's events carry. */
export function webhookSnapshot(row: WebhookRow) {
  return { id: row.id, url: row.url, events: row.events, active: row.active };
}

const KNOWN_EVENTS = new Set<string>(DOMAIN_EVENT_TYPES);

function eventsProblem(events: string[]): string | null {
  if (events.includes("*")) return events.length === 1 ? null : '"*" stands alone: every event';
  const unknown = events.filter((type) => !KNOWN_EVENTS.has(type));
  return unknown.length ? `Unknown event type: ${unknown.join(", ")}` : null;
}

function checkEvents(events: string[]): void {
  const problem = eventsProblem(events);
  if (problem) throw badRequest(`events: ${problem}`, { events: problem });
}

async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  try {
    await checkWebhookTarget(url, allowPrivate);
  } catch (error) {
    if (error instanceof WebhookAddressError) throw badRequest(`url: ${error.message}`, { url: error.message });
    throw error;
  }
}

/** What the webhook commands need of the app: the key its secrets are encrypted with, and the address rule. */
export interface WebhookSetup {
  secrets: SecretSource;
  allowPrivate: boolean;
}

/**
 * Adds a webhook (webhook.created) after checking its events and its address; answers the row and its signing secret,
 * which is shown once.
 */
export async function addWebhook(db: Db, viewer: Viewer, input: WebhookInput, setup: WebhookSetup): Promise<{ row: WebhookRow; secret: string }> {
  checkEvents(input.events);
  await checkUrl(input.url, setup.allowPrivate);
  const secret = newWebhookSecret();
  const row = await writeInDealership(db, viewer, async (tx) => {
    const [made] = await tx
      .insert(webhooks)
      .values({
        dealershipId: viewer.dealershipId,
        url: input.url,
        events: input.events,
        description: input.description || null,
        secret: encryptSecret(setup.secrets, secret),
        createdBy: viewer.userId,
      })
      .returning();
    await publish(tx, { ...by(viewer), type: "webhook.created", payload: { webhook: webhookSnapshot(made!) } });
    return made!;
  });
  return { row, secret };
}

/**
 * Changes a webhook of the viewer's dealership (webhook.updated); 404 when there is none. Turned back on, its failures
 * so far are forgotten. A change that leaves every column as it is (an empty one included) writes and publishes
 * nothing; only a change with something to write asks for the webhook (an empty one's 404 is the caller's read).
 */
export async function changeWebhook(db: Db, viewer: Viewer, webhookId: string, change: WebhookUpdate, setup: Pick<WebhookSetup, "allowPrivate">): Promise<void> {
  if (change.events) checkEvents(change.events);
  if (change.url !== undefined) await checkUrl(change.url, setup.allowPrivate);
  const set = {
    ...(change.url !== undefined ? { url: change.url } : {}),
    ...(change.events !== undefined ? { events: change.events } : {}),
    ...(change.description !== undefined ? { description: change.description || null } : {}),
    ...(change.active !== undefined ? { active: change.active, ...(change.active ? { failingSince: null, disabledReason: null } : {}) } : {}),
  };
  if (Object.keys(set).length === 0) return;
  const scoped = and(eq(webhooks.id, webhookId), eq(webhooks.dealershipId, viewer.dealershipId));
  await writeInDealership(db, viewer, async (tx) => {
    const [before] = await tx.select().from(webhooks).where(scoped).for("update");
    if (!before) throw notFound(NO_SUCH_WEBHOOK);
    const differs = (Object.entries(set) as [keyof WebhookRow, unknown][]).some(([column, value]) => JSON.stringify(before[column]) !== JSON.stringify(value));
    if (!differs) return;
    const [row] = await tx.update(webhooks).set(set).where(scoped).returning();
    if (!row) throw new Error("a webhook locked in this transaction was not updated");
    await publish(tx, { ...by(viewer), type: "webhook.updated", payload: { webhook: webhookSnapshot(row) } });
  });
}

/** Removes a webhook of the viewer's dealership, its deliveries with it (webhook.deleted); 404 when there is none. */
export function removeWebhook(db: Db, viewer: Viewer, webhookId: string): Promise<void> {
  return writeInDealership(db, viewer, async (tx) => {
    const [row] = await tx
      .delete(webhooks)
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.dealershipId, viewer.dealershipId)))
      .returning();
    if (!row) throw notFound(NO_SUCH_WEBHOOK);
    await publish(tx, { ...by(viewer), type: "webhook.deleted", payload: { webhook: webhookSnapshot(row) } });
  });
}

/**
 * Sends a delivery of an active webhook of the viewer's dealership again (decision 232); answers whether this call
 * queued it (false: already queued). Publishes no event: a delivery is the webhook's own work on an event, not a
 * change of the dealership's records (and an event of it would itself be delivered). 404 when there is no such
 * delivery, 400 while the webhook is off.
 */
export function redeliverWebhook(db: Db, viewer: Viewer, webhookId: string, deliveryId: string, service: Pick<WebhookService, "redeliver">): Promise<boolean> {
  return writeInDealership(db, viewer, async (tx) => {
    const [found] = await tx
      .select({ id: webhookDeliveries.id, active: webhooks.active })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhooks.id, webhookId), eq(webhooks.dealershipId, viewer.dealershipId)))
      .for("update", { of: webhookDeliveries });
    if (!found) throw notFound(NO_SUCH_DELIVERY);
    if (!found.active) throw badRequest(TURN_ON_FIRST);
    return service.redeliver(tx, found.id);
  });
}
