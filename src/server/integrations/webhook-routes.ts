import { and, desc, eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { DOMAIN_EVENT_TYPES } from "../../shared/events";
import { webhookInputSchema, webhookUpdateSchema } from "../../shared/schemas/integrations";
import { responses, type Webhook, type WebhookDelivery } from "../../shared/schemas/responses/integrations";
import { provenEmailFirst } from "../auth/proven-email";
import { dealershipFirst, requireCapability, requireDealershipAccess, writeInDealership } from "../auth/tenancy";
import { encryptSecret } from "../auth/two-factor-secrets";
import type { Db } from "../db/client";
import { webhookDeliveries, webhooks } from "../db/schema/integrations";
import { publish } from "../events/outbox";
import { answers, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { badRequest, notFound } from "../http/errors";
import { checkWebhookTarget, WebhookAddressError } from "./webhook-addresses";
import { newWebhookSecret } from "./webhook-sender";

// Webhooks (issue 28, decision 227): management adds, lists, changes and removes them, reads their deliveries and
// sends one again. Token requests never reach these routes (token-requests.ts).

const MANAGEMENT_ONLY = "Only management can manage webhooks";
const KNOWN_EVENTS = new Set<string>(DOMAIN_EVENT_TYPES);

type WebhookRow = typeof webhooks.$inferSelect;

function snapshot(row: WebhookRow) {
  return { id: row.id, url: row.url, events: row.events, active: row.active };
}

function eventsProblem(events: string[]): string | null {
  if (events.includes("*")) return events.length === 1 ? null : '"*" stands alone: every event';
  const unknown = events.filter((type) => !KNOWN_EVENTS.has(type));
  return unknown.length ? `Unknown event type: ${unknown.join(", ")}` : null;
}

async function checkedUrl(url: string, allowPrivate: boolean): Promise<void> {
  try {
    await checkWebhookTarget(url, allowPrivate);
  } catch (error) {
    if (error instanceof WebhookAddressError) throw badRequest(`url: ${error.message}`, { url: error.message });
    throw error;
  }
}

async function listWebhooks(db: Db, dealershipId: string, only?: string): Promise<Webhook[]> {
  const last = sql`(select json_build_object('status', d.status, 'lastStatusCode', d.last_status_code, 'createdAt', d.created_at)
    from ${webhookDeliveries} d where d.webhook_id = ${webhooks.id} order by d.created_at desc, d.id desc limit 1)`;
  const rows = await db
    .select({ webhook: webhooks, last: sql<{ status: Webhook["lastDelivery"] extends infer L ? (L extends { status: infer S } ? S : never) : never; lastStatusCode: number | null; createdAt: string } | null>`${last}` })
    .from(webhooks)
    .where(and(eq(webhooks.dealershipId, dealershipId), only ? eq(webhooks.id, only) : undefined))
    .orderBy(desc(webhooks.createdAt), desc(webhooks.id));
  return rows.map(({ webhook, last }) => ({
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    active: webhook.active,
    disabledReason: webhook.disabledReason,
    createdAt: webhook.createdAt.toISOString(),
    lastDelivery: last ? { status: last.status, lastStatusCode: last.lastStatusCode, createdAt: new Date(last.createdAt).toISOString() } : null,
  }));
}

function toDelivery(row: typeof webhookDeliveries.$inferSelect): WebhookDelivery {
  return {
    id: row.id,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastResponse: row.lastResponse,
    nextAttemptAt: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}

export async function webhookRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const allowPrivate = () => server.config.webhooksAllowPrivate ?? false;
  const manager = async (request: FastifyRequest, dealershipId: string) => {
    const access = await requireDealershipAccess(request, dealershipId);
    requireCapability(access, "managementAccess", MANAGEMENT_ONLY);
    return access;
  };
  const managerFirst = dealershipFirst("managementAccess", MANAGEMENT_ONLY);
  const webhookPath = pathOf("id", "webhookId");

  app.post(
    "/api/dealerships/:id/webhooks",
    { schema: { params: dealershipPath, body: webhookInputSchema, response: answers(responses["POST /api/dealerships/:id/webhooks"]) }, preValidation: [managerFirst, provenEmailFirst] },
    async (request, reply) => {
      const access = await manager(request, request.params.id);
      const input = request.body;
      const problem = eventsProblem(input.events);
      if (problem) throw badRequest(`events: ${problem}`, { events: problem });
      await checkedUrl(input.url, allowPrivate());
      const secret = newWebhookSecret();
      const row = await writeInDealership(app.db, access, async (tx) => {
        const [made] = await tx
          .insert(webhooks)
          .values({ dealershipId: access.dealershipId, url: input.url, events: input.events, description: input.description || null, secret: encryptSecret(server.config, secret), createdBy: access.userId })
          .returning();
        await publish(tx, { type: "webhook.created", dealershipId: access.dealershipId, actorId: access.userId, payload: { webhook: snapshot(made!) } });
        return made!;
      });
      const [listed] = await listWebhooks(app.db, access.dealershipId, row.id);
      return reply.code(201).send({ ...listed!, secret });
    },
  );

  app.get("/api/dealerships/:id/webhooks", { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/webhooks"]) } }, async (request) => {
    const access = await manager(request, request.params.id);
    return listWebhooks(app.db, access.dealershipId);
  });

  app.patch(
    "/api/dealerships/:id/webhooks/:webhookId",
    { schema: { params: webhookPath, body: webhookUpdateSchema, response: answers(responses["PATCH /api/dealerships/:id/webhooks/:webhookId"]) }, preValidation: managerFirst },
    async (request) => {
      const access = await manager(request, request.params.id);
      const change = request.body;
      if (change.events) {
        const problem = eventsProblem(change.events);
        if (problem) throw badRequest(`events: ${problem}`, { events: problem });
      }
      if (change.url !== undefined) await checkedUrl(change.url, allowPrivate());
      const set = {
        ...(change.url !== undefined ? { url: change.url } : {}),
        ...(change.events !== undefined ? { events: change.events } : {}),
        ...(change.description !== undefined ? { description: change.description || null } : {}),
        // Turned back on: its failures so far are forgotten.
        ...(change.active !== undefined ? { active: change.active, ...(change.active ? { failingSince: null, disabledReason: null } : {}) } : {}),
      };
      // Nothing to change: no write and no event, the webhook as it is.
      if (Object.keys(set).length > 0) {
        await writeInDealership(app.db, access, async (tx) => {
          const [row] = await tx
            .update(webhooks)
            .set(set)
            .where(and(eq(webhooks.id, request.params.webhookId), eq(webhooks.dealershipId, access.dealershipId)))
            .returning();
          if (!row) throw notFound("No such webhook");
          await publish(tx, { type: "webhook.updated", dealershipId: access.dealershipId, actorId: access.userId, payload: { webhook: snapshot(row) } });
        });
      }
      const [listed] = await listWebhooks(app.db, access.dealershipId, request.params.webhookId);
      if (!listed) throw notFound("No such webhook");
      return listed;
    },
  );

  app.delete("/api/dealerships/:id/webhooks/:webhookId", { schema: { params: webhookPath, response: answers(responses["DELETE /api/dealerships/:id/webhooks/:webhookId"]) } }, async (request) => {
    const access = await manager(request, request.params.id);
    await writeInDealership(app.db, access, async (tx) => {
      const [row] = await tx.delete(webhooks).where(and(eq(webhooks.id, request.params.webhookId), eq(webhooks.dealershipId, access.dealershipId))).returning();
      if (!row) throw notFound("No such webhook");
      await publish(tx, { type: "webhook.deleted", dealershipId: access.dealershipId, actorId: access.userId, payload: { webhook: snapshot(row) } });
    });
    return { message: "Webhook removed" };
  });

  app.get(
    "/api/dealerships/:id/webhooks/:webhookId/deliveries",
    { schema: { params: webhookPath, response: answers(responses["GET /api/dealerships/:id/webhooks/:webhookId/deliveries"]) } },
    async (request) => {
      const access = await manager(request, request.params.id);
      const [webhook] = await app.db
        .select({ id: webhooks.id })
        .from(webhooks)
        .where(and(eq(webhooks.id, request.params.webhookId), eq(webhooks.dealershipId, access.dealershipId)));
      if (!webhook) throw notFound("No such webhook");
      const rows = await app.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, webhook.id))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(100);
      return rows.map(toDelivery);
    },
  );

  app.post(
    "/api/dealerships/:id/webhooks/:webhookId/deliveries/:deliveryId/redeliver",
    { schema: { params: pathOf("id", "webhookId", "deliveryId"), response: answers(responses["POST /api/dealerships/:id/webhooks/:webhookId/deliveries/:deliveryId/redeliver"]) } },
    async (request, reply) => {
      const access = await manager(request, request.params.id);
      const queued = await writeInDealership(app.db, access, async (tx) => {
        const [found] = await tx
          .select({ id: webhookDeliveries.id, active: webhooks.active })
          .from(webhookDeliveries)
          .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
          .where(and(eq(webhookDeliveries.id, request.params.deliveryId), eq(webhooks.id, request.params.webhookId), eq(webhooks.dealershipId, access.dealershipId)))
          .for("update", { of: webhookDeliveries });
        if (!found) throw notFound("No such delivery");
        if (!found.active) throw badRequest("Turn the webhook on before sending again");
        return server.webhooks.redeliver(tx, found.id);
      });
      return reply.code(202).send({ message: queued ? "Delivery queued to be sent again" : "Delivery already queued to be sent" });
    },
  );
}
