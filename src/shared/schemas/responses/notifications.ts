import { z } from "zod";
import { dealershipRole, entityId, timestamp } from "./fields";

// What the header bell's routes answer (src/server/notifications/notification-routes.ts; decisions 053, 101, 102).

/** The notification types: the spec's six (part 2 §3) and the test-drive ones (decision 100). */
export const NOTIFICATION_TYPES = [
  "appointment_created",
  "lead_claimed",
  "lead_status_changed",
  "appointment_status_changed",
  "lead_created",
  "lead_deleted",
  "test_drive_taken_out",
  "test_drive_returned",
  "test_drive_status_changed",
  /** A follow-up task's due time came (issue 27): its assignee is reminded. */
  "task_due",
  /** Named in a colleague's note on a lead (issue 26). */
  "note_mention",
  /** The customer answered an e-mail from the lead page (issue 26): the lead's rep is told. */
  "email_received",
] as const;

/** Part 2 §3 Notification: the signed-in user's own (one row per recipient, decision 101). */
export const notificationSchema = z.strictObject({
  id: entityId,
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string().min(1),
  message: z.string().min(1),
  read: z.boolean(),
  targetUsersRole: z.array(dealershipRole),
  /** Who caused it; null for the system or a deleted account. */
  createdBy: entityId.nullable(),
  /** The in-app page to open, e.g. /leads/detail/{id}; null when there is nothing left to open. */
  url: z.string().startsWith("/").nullable(),
  leadId: entityId.nullable(),
  dealershipId: entityId,
  createdAt: timestamp,
});
export type Notification = z.infer<typeof notificationSchema>;

/** The badge: this user's unread notifications in this dealership. */
export const notificationCountSchema = z.strictObject({ count: z.number().int().nonnegative() });
export type NotificationCount = z.infer<typeof notificationCountSchema>;

/** Mark all as read: how many were unread and are read now. */
export const markAllReadSchema = z.strictObject({ marked: z.number().int().nonnegative() });

export const responses = {
  "GET /api/dealerships/:id/notifications": z.array(notificationSchema),
  "GET /api/dealerships/:id/notifications/count": notificationCountSchema,
  "POST /api/notifications/:id/read": notificationSchema,
  "POST /api/dealerships/:id/notifications/mark-all-read": markAllReadSchema,
} as const satisfies Record<string, z.ZodType>;
