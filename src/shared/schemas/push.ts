import { z } from "zod";

// Web push subscriptions (issue 11; decision 111): the browser's PushSubscription.toJSON() as the client sends it,
// checked the same way on both sides. The server also checks that p256dh is a point on the P-256 curve.

/** Longer than any push service's endpoint we know (about 150-400 characters), short enough to index. */
export const PUSH_ENDPOINT_MAX_LENGTH = 1000;
export const PUSH_DEVICE_MAX_LENGTH = 100;

export const ENDPOINT_INVALID = "Endpoint must be an https URL of a push service";
export const P256DH_INVALID = "p256dh must be the browser's P-256 public key (65 bytes, base64url)";
export const AUTH_INVALID = "auth must be the browser's 16-byte secret (base64url)";

const httpsUrl = z
  .string({ message: ENDPOINT_INVALID })
  .max(PUSH_ENDPOINT_MAX_LENGTH, { message: `Endpoint must be at most ${PUSH_ENDPOINT_MAX_LENGTH} characters` })
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "https:" && !url.username && !url.password;
    } catch {
      return false;
    }
  }, { message: ENDPOINT_INVALID });

/** base64url of `bytes` bytes, unpadded as browsers send it (padding tolerated). */
const base64url = (bytes: number, message: string) => {
  const chars = Math.ceil((bytes * 4) / 3);
  return z.string({ message }).regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}=*$`), { message }).max(chars + 2, { message });
};

/** POST /api/push/subscriptions. `expirationTime` is what the browser sends; push services hardly ever set it. */
export const pushSubscriptionSchema = z.object({
  endpoint: httpsUrl,
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      // An uncompressed point: 0x04 then x and y, so its base64url starts with "B".
      p256dh: base64url(65, P256DH_INVALID).refine((key) => key.startsWith("B"), { message: P256DH_INVALID }),
      auth: base64url(16, AUTH_INVALID),
    },
    { message: "keys: p256dh and auth are required" },
  ),
  /** A label for the device ("Showroom iPad"); optional. */
  device: z.string().trim().max(PUSH_DEVICE_MAX_LENGTH).optional().nullable(),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/** DELETE /api/push/subscriptions. */
export const pushUnsubscribeSchema = z.object({ endpoint: z.string({ message: "Endpoint is required" }).min(1, { message: "Endpoint is required" }).max(PUSH_ENDPOINT_MAX_LENGTH) });
export type PushUnsubscribeInput = z.infer<typeof pushUnsubscribeSchema>;
