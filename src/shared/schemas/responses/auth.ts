import { z } from "zod";
import { businessHoursAnswerSchema } from "./dealership-settings";
import { dealershipRole, entityId, messageSchema, timestamp } from "./fields";

// What sign-in, the current user and the dealership switcher answer (src/server/auth/routes.ts; decision 053).

/**
 * The signed-in user (part 1 §3 "Current user", part 2 §3): never the password hash, the two-factor secret or the
 * backup codes. Strict, so a column added to users that the server forgets to leave out fails the response test.
 */
export const currentUserSchema = z.strictObject({
  id: entityId,
  email: z.email(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  phone: z.string().nullable(),
  currentDealershipId: entityId.nullable(),
  twoFactorEnabled: z.boolean(),
  passwordChangedAt: timestamp.nullable(),
  /** When the account proved its e-mail address with an e-mailed code; null until then (decision 169). */
  emailVerifiedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** The password was right and the account has two-factor on: send it again with the code (part 1 §4). */
export const twoFactorRequiredSchema = z.strictObject({ requiresTwoFactor: z.literal(true) });
export const loginResponseSchema = z.union([currentUserSchema, twoFactorRequiredSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const platformAdminStatusSchema = z.strictObject({ isPlatformAdmin: z.boolean() });
export type PlatformAdminStatus = z.infer<typeof platformAdminStatusSchema>;

/** An entry of GET /api/dealerships: one of the user's active memberships. */
export const dealershipSummarySchema = z.strictObject({
  id: entityId,
  name: z.string(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  /** IANA zone: the dealership's clock. */
  timezone: z.string().min(1),
  /** Its business hours (decision 191): the schedule form offers their slots. */
  businessHours: businessHoursAnswerSchema,
  role: dealershipRole,
});
export type DealershipSummary = z.infer<typeof dealershipSummarySchema>;

export const currentDealershipSchema = z.strictObject({ currentDealershipId: entityId });
export type CurrentDealership = z.infer<typeof currentDealershipSchema>;

export const memberRoleSchema = z.strictObject({ role: dealershipRole });
export type MemberRole = z.infer<typeof memberRoleSchema>;

export const responses = {
  // An invited e-mail whose account has two-factor on joins, then signs in with its code (decision 168).
  "POST /api/register": loginResponseSchema,
  "POST /api/login": loginResponseSchema,
  "POST /api/logout": messageSchema,
  "GET /api/user": currentUserSchema,
  "GET /api/user/platform-admin-status": platformAdminStatusSchema,
  "GET /api/dealerships": z.array(dealershipSummarySchema),
  "POST /api/user/current-dealership": currentDealershipSchema,
  "GET /api/dealerships/:id/users/:userId/role": memberRoleSchema,
} as const satisfies Record<string, z.ZodType>;
