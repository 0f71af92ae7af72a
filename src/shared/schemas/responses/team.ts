import { z } from "zod";
import { INVITE_STATUSES } from "../../constants";
import { currentUserSchema, twoFactorRequiredSchema } from "./auth";
import { dealershipRole, entityId, messageSchema, timestamp } from "./fields";

// What the team routes answer: invitations, sign-up by e-mail code, members (src/server/team/routes.ts;
// decision 053). The request schemas stay in team.ts.

/** What "Check Invitation" learns about a pending invitation (part 1 §3 "Invite lookup"). */
export const inviteLookupSchema = z.strictObject({ dealershipName: z.string(), role: dealershipRole });
export type InviteLookup = z.infer<typeof inviteLookupSchema>;

/** Part 2 §3 Invitation; `status` is "expired" once expiresAt has passed (decision 030). */
export const invitationSchema = z.strictObject({
  id: entityId,
  email: z.email(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: dealershipRole,
  createdAt: timestamp,
  invitedAt: timestamp,
  expiresAt: timestamp,
  status: z.enum(INVITE_STATUSES),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** Part 2 §3 Dealership user membership. */
export const dealershipMemberSchema = z.strictObject({
  userId: entityId,
  role: dealershipRole,
  active: z.boolean(),
  addedAt: timestamp,
  user: z.strictObject({ id: entityId, firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.email() }),
});
export type DealershipMember = z.infer<typeof dealershipMemberSchema>;

export const memberRoleChangedSchema = z.strictObject({ userId: entityId, role: dealershipRole });
export type MemberRoleChanged = z.infer<typeof memberRoleChangedSchema>;

/** A removed member's claimed leads go back to New Leads; the toast says how many. */
export const memberRemovedSchema = z.strictObject({ message: z.string().min(1), returnedLeads: z.number().int().nonnegative() });
export type MemberRemoved = z.infer<typeof memberRemovedSchema>;

export const responses = {
  "GET /api/dealerships/:id/invites": z.array(invitationSchema),
  "POST /api/dealerships/:id/invites": invitationSchema,
  "POST /api/dealerships/:id/invites/:inviteId/resend": invitationSchema,
  "DELETE /api/dealerships/:id/invites/:inviteId": messageSchema,
  "GET /api/invites/email/:email": inviteLookupSchema,
  /** The same sentence whether or not the e-mail has an invitation. */
  "POST /api/auth/email-verification/request": messageSchema,
  /** The new (or joining) user, signed in. */
  "POST /api/auth/email-verification/verify": z.union([currentUserSchema, twoFactorRequiredSchema]),
  "GET /api/dealerships/:id/users": z.array(dealershipMemberSchema),
  "PATCH /api/dealerships/:id/users/:userId/role": memberRoleChangedSchema,
  "DELETE /api/dealerships/:id/users/:userId": memberRemovedSchema,
} as const satisfies Record<string, z.ZodType>;
