import { z } from "zod";
import { dealershipRole, entityId, messageSchema, timestamp } from "./fields";

// What the API token and webhook routes answer (src/server/integrations/; issue 28).

/** A token as listed: never the token itself, which only its creation answers. */
export const apiTokenSchema = z.strictObject({
  id: entityId,
  name: z.string(),
  role: dealershipRole,
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const createdApiTokenSchema = apiTokenSchema.extend({
  /** `shr_` and 43 base64url characters: shown this once, only its hash is kept. */
  token: z.string().startsWith("shr_"),
});
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

/** A delivery as listed: what was sent, how it went, and when it is tried next. */
export const webhookDeliverySchema = z.strictObject({
  id: z.string().startsWith("msg_"),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  /** At most 1 KB of the endpoint's last answer, or why it gave none. */
  lastResponse: z.string().nullable(),
  nextAttemptAt: timestamp.nullable(),
  createdAt: timestamp,
  deliveredAt: timestamp.nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A webhook as listed: never its secret. */
export const webhookSchema = z.strictObject({
  id: entityId,
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  active: z.boolean(),
  disabledReason: z.string().nullable(),
  createdAt: timestamp,
  lastDelivery: z.strictObject({ status: z.enum(WEBHOOK_DELIVERY_STATUSES), lastStatusCode: z.number().int().nullable(), createdAt: timestamp }).nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const createdWebhookSchema = webhookSchema.extend({
  /** `whsec_` and base64: shown this once. */
  secret: z.string().startsWith("whsec_"),
});
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/**
 * The OpenAPI 3.1 document (GET /api/openapi.json): its top level is fixed, what it describes is generated from the
 * routes and the events (server/http/openapi.ts) and checked by an OpenAPI validator in tests/api/openapi.test.ts.
 */
export const openApiDocumentSchema = z.strictObject({
  openapi: z.literal("3.1.0"),
  info: z.strictObject({ title: z.string(), version: z.string(), description: z.string() }),
  components: z.strictObject({ securitySchemes: z.record(z.string(), z.unknown()) }),
  security: z.array(z.record(z.string(), z.array(z.string()))),
  tags: z.array(z.strictObject({ name: z.string() })),
  paths: z.record(z.string(), z.unknown()),
  webhooks: z.record(z.string(), z.unknown()),
});

export const responses = {
  "GET /api/openapi.json": openApiDocumentSchema,
  "POST /api/dealerships/:id/api-tokens": createdApiTokenSchema,
  "GET /api/dealerships/:id/api-tokens": z.array(apiTokenSchema),
  "DELETE /api/dealerships/:id/api-tokens/:tokenId": messageSchema,
  "POST /api/dealerships/:id/webhooks": createdWebhookSchema,
  "GET /api/dealerships/:id/webhooks": z.array(webhookSchema),
  "PATCH /api/dealerships/:id/webhooks/:webhookId": webhookSchema,
  "DELETE /api/dealerships/:id/webhooks/:webhookId": messageSchema,
  "GET /api/dealerships/:id/webhooks/:webhookId/deliveries": z.array(webhookDeliverySchema),
  "POST /api/dealerships/:id/webhooks/:webhookId/deliveries/:deliveryId/redeliver": messageSchema,
} as const satisfies Record<string, z.ZodType>;
