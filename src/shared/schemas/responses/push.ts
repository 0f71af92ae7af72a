import { z } from "zod";
import { messageSchema, timestamp } from "./fields";

// What the web push calls answer (decision 053; routes in decision 111).

/** The VAPID public key the browser passes to pushManager.subscribe as applicationServerKey (base64url, 65 bytes). */
export const pushPublicKeySchema = z.strictObject({ publicKey: z.string().regex(/^[A-Za-z0-9_-]{87}$/) });
export type PushPublicKey = z.infer<typeof pushPublicKeySchema>;

/** The subscription as kept: the browser's keys are not sent back. */
export const pushSubscriptionSavedSchema = z.strictObject({
  endpoint: z.string().startsWith("https://"),
  device: z.string().nullable(),
  active: z.literal(true),
  createdAt: timestamp,
});
export type PushSubscriptionSaved = z.infer<typeof pushSubscriptionSavedSchema>;

export const responses = {
  "GET /api/push/public-key": pushPublicKeySchema,
  "POST /api/push/subscriptions": pushSubscriptionSavedSchema,
  "DELETE /api/push/subscriptions": messageSchema,
};
