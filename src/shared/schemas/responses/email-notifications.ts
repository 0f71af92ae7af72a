import { z } from "zod";
import { entityId } from "./fields";

// What the admin panel's Email Notifications routes answer (src/server/notifications/email-routes.ts; decision 053).

/** Part 2 §3 Email notification trigger: one row per trigger and dealership (decision 034). */
export const emailTriggerSchema = z.strictObject({
  id: entityId,
  dealershipId: entityId,
  /** The trigger's key, e.g. "lead_created". */
  name: z.string().min(1),
  displayName: z.string().min(1),
  description: z.string().nullable(),
  isActive: z.boolean(),
});
export type EmailTrigger = z.infer<typeof emailTriggerSchema>;

/** Part 2 §3 Subscription: one per user and trigger. */
export const emailSubscriptionSchema = z.strictObject({
  id: entityId,
  userId: entityId,
  triggerId: entityId,
  isSubscribed: z.boolean(),
});
export type EmailSubscription = z.infer<typeof emailSubscriptionSchema>;

export const responses = {
  "GET /api/dealerships/:id/email-notifications/triggers": z.array(emailTriggerSchema),
  "PATCH /api/dealerships/:id/email-notifications/triggers/:triggerId": emailTriggerSchema,
  "GET /api/dealerships/:id/email-notifications/subscriptions": z.array(emailSubscriptionSchema),
  "POST /api/dealerships/:id/email-notifications/subscriptions": emailSubscriptionSchema,
} as const satisfies Record<string, z.ZodType>;
