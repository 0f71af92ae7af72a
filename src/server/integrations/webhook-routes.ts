import { and, desc, eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { webhookInputSchema, webhookUpdateSchema } from "../../shared/schemas/integrations";
import { responses, type Webhook, type WebhookDelivery } from "../../shared/schemas/responses/integrations";
import { provenEmailFirst } from "../auth/proven-email";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import type { Db } from "../db/client";
import { webhookDeliveries, webhooks } from "../db/schema/integrations";
import { answers, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { notFound } from "../http/errors";
import { addWebhook, changeWebhook, NO_SUCH_WEBHOOK, redeliverWebhook, removeWebhook } from "./commands";

// Webhooks (issue 28, decision 227): management adds, lists, changes and removes them, reads their deliveries and
// sends one again. Token requests never reach these routes (token-requests.ts). The changes are commands.ts's.

const MANAGEMENT_ONLY = "Only management can manage webhooks";

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
      const { row, secret } = await addWebhook(app.db, access, request.body, { secrets: server.config, allowPrivate: allowPrivate() });
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
      await changeWebhook(app.db, access, request.params.webhookId, request.body, { allowPrivate: allowPrivate() });
      const [listed] = await listWebhooks(app.db, access.dealershipId, request.params.webhookId);
      if (!listed) throw notFound(NO_SUCH_WEBHOOK);
      return listed;
    },
  );

  app.delete("/api/dealerships/:id/webhooks/:webhookId", { schema: { params: webhookPath, response: answers(responses["DELETE /api/dealerships/:id/webhooks/:webhookId"]) } }, async (request) => {
    const access = await manager(request, request.params.id);
    await removeWebhook(app.db, access, request.params.webhookId);
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
      if (!webhook) throw notFound(NO_SUCH_WEBHOOK);
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
      const queued = await redeliverWebhook(app.db, access, request.params.webhookId, request.params.deliveryId, server.webhooks);
      return reply.code(202).send({ message: queued ? "Delivery queued to be sent again" : "Delivery already queued to be sent" });
    },
  );
}
