import { z } from "zod";
import { DEALERSHIP_ROLES } from "../constants";

// API tokens and webhooks (issue 28): what management sends to create and change them.

export const apiTokenInputSchema = z.strictObject({
  name: z.string().trim().min(1, "Give the token a name").max(100, "At most 100 characters"),
  role: z.enum(DEALERSHIP_ROLES),
  /** An instant in the future, ISO 8601; none: the token lasts until revoked. */
  expiresAt: z.iso.datetime({ offset: true, message: "An ISO 8601 date and time" }).nullish(),
});
export type ApiTokenInput = z.infer<typeof apiTokenInputSchema>;

/** `events`: event types (src/shared/events.ts), or ["*"] for every one. Checked against the list by the server. */
const webhookEvents = z.array(z.string().min(1).max(100)).min(1, "Choose at least one event, or *").max(200);

export const webhookInputSchema = z.strictObject({
  url: z.string().trim().min(1, "Give the endpoint's URL").max(2000),
  events: webhookEvents,
  description: z.string().trim().max(500).nullish(),
});
export type WebhookInput = z.infer<typeof webhookInputSchema>;

export const webhookUpdateSchema = z.strictObject({
  url: z.string().trim().min(1).max(2000).optional(),
  events: webhookEvents.optional(),
  description: z.string().trim().max(500).nullish(),
  active: z.boolean().optional(),
});
export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>;
