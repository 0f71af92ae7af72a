import { z } from "zod";
import { PLATFORM_ACTIONS } from "../platform";
import { dealershipRole, entityId, messageSchema, timestamp } from "./fields";
import { dealershipMemberSchema, invitationSchema, memberRemovedSchema, memberRoleChangedSchema } from "./team";

// What the installation-wide routes answer: health and platform administration (src/server/app.ts,
// src/server/platform/routes.ts; decision 053).

/** 200 {status: "ok"} while the database answers, 503 {status: "unavailable"} otherwise. */
export const healthSchema = z.strictObject({ status: z.enum(["ok", "unavailable"]) });

/** 200 {status: "ready"} once the process may take requests; 503 naming what it waits for (and while stopping). */
export const readySchema = z.union([
  z.strictObject({ status: z.literal("ready") }),
  z.strictObject({ status: z.literal("not ready"), waitingFor: z.enum(["database", "migrations", "event dispatcher", "stopping"]) }),
]);

const total = z.number().int().nonnegative();

/** Part 2 §3 Platform overview: whole-installation totals of the dealerships in service; e-mails count only those sent. */
export const platformOverviewSchema = z.strictObject({
  totalDealerships: total,
  totalUsers: total,
  totalLeads: total,
  totalAppointments: total,
  totalTestDrives: total,
  totalEmailsSent: total,
});
export type PlatformOverview = z.infer<typeof platformOverviewSchema>;

/** One numbered page of a platform list (decision 091). */
function pageOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ items: z.array(item), total, page: z.number().int().positive(), pageSize: z.number().int().positive() });
}

/** Part 2 §3 Dealership. */
export const platformDealershipSchema = z.strictObject({
  id: entityId,
  name: z.string().min(1),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  createdAt: timestamp,
  active: z.boolean(),
});
export type PlatformDealership = z.infer<typeof platformDealershipSchema>;

export const dealershipPageSchema = pageOf(platformDealershipSchema);
export type DealershipPage = z.infer<typeof dealershipPageSchema>;

/** The new dealership and the invitation e-mailed to its first manager ("Dealership Created" says so). */
export const dealershipCreatedSchema = z.strictObject({ dealership: platformDealershipSchema, invitation: invitationSchema });
export type DealershipCreated = z.infer<typeof dealershipCreatedSchema>;

/** Deleting takes the dealership out of service (decision 090): how many people lost access, how many leads returned. */
export const dealershipDeletedSchema = z.strictObject({
  message: z.string().min(1),
  removedMembers: total,
  returnedLeads: total,
});
export type DealershipDeleted = z.infer<typeof dealershipDeletedSchema>;

/** Part 2 §3 Platform user: the dealership assignments are active memberships of dealerships in service. */
export const platformUserSchema = z.strictObject({
  id: entityId,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.email(),
  phone: z.string().nullable(),
  isAdmin: z.boolean(),
  createdAt: timestamp,
  dealerships: z.array(z.strictObject({ id: entityId, name: z.string(), role: dealershipRole })),
});
export type PlatformUser = z.infer<typeof platformUserSchema>;

export const platformUserPageSchema = pageOf(platformUserSchema);
export type PlatformUserPage = z.infer<typeof platformUserPageSchema>;

/** A deleted user's claimed leads went back to New Leads in their dealerships. */
export const userDeletedSchema = z.strictObject({ message: z.string().min(1), returnedLeads: total });
export type UserDeleted = z.infer<typeof userDeletedSchema>;

/** An entry of the audit log (decision 093): who did what, when. */
export const platformActivitySchema = z.strictObject({
  id: entityId,
  action: z.enum(PLATFORM_ACTIONS),
  actorName: z.string().min(1),
  summary: z.string().min(1),
  createdAt: timestamp,
});
export type PlatformActivity = z.infer<typeof platformActivitySchema>;

/** System Maintenance: what it removed (decision 094). */
export const maintenanceReportSchema = z.strictObject({
  message: z.string().min(1),
  expiredSessions: total,
  expiredInvitations: total,
  verificationCodes: total,
  throttleRows: total,
  dispatchedEvents: total,
});
export type MaintenanceReport = z.infer<typeof maintenanceReportSchema>;

/** POST /api/platform/test-email: "logged" when no SMTP_URL is set (the mail went to the server log). */
export const testEmailResultSchema = z.strictObject({
  status: z.enum(["sent", "failed", "logged"]),
  to: z.email(),
  message: z.string().min(1),
});
export type TestEmailResult = z.infer<typeof testEmailResultSchema>;

export const responses = {
  "GET /api/health": healthSchema,
  "GET /api/ready": readySchema,
  "GET /api/platform/overview": platformOverviewSchema,
  "GET /api/platform/activity": z.array(platformActivitySchema),
  "GET /api/platform/dealerships": dealershipPageSchema,
  "POST /api/platform/dealerships": dealershipCreatedSchema,
  "PUT /api/platform/dealerships/:id": platformDealershipSchema,
  "DELETE /api/platform/dealerships/:id": dealershipDeletedSchema,
  "GET /api/platform/dealerships/:id/users": z.array(dealershipMemberSchema),
  "PUT /api/platform/dealerships/:id/users/:userId/role": memberRoleChangedSchema,
  "DELETE /api/platform/dealerships/:id/users/:userId": memberRemovedSchema,
  "GET /api/platform/dealerships/:id/invites": z.array(invitationSchema),
  "POST /api/platform/dealerships/:id/invite": invitationSchema,
  "POST /api/platform/invites/:id/resend": invitationSchema,
  "DELETE /api/platform/invites/:id": messageSchema,
  "GET /api/platform/users": platformUserPageSchema,
  "PATCH /api/platform/users/:id": platformUserSchema,
  "DELETE /api/platform/users/:id": userDeletedSchema,
  "POST /api/platform/admins/grant": platformUserSchema,
  "DELETE /api/platform/admins/:userId": messageSchema,
  "POST /api/platform/maintenance": maintenanceReportSchema,
  "POST /api/platform/test-email": testEmailResultSchema,
} as const satisfies Record<string, z.ZodType>;
