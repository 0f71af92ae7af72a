import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { NOTIFICATION_TYPES } from "../../../shared/schemas/responses/notifications";
import { at, createdAt, id } from "./columns";
import { leads } from "./leads";
import { users } from "./users";
import { dealershipInvites, dealerships } from "./dealerships";

// The spec's six types plus the test-drive ones (decision 100); shared with the response schema.
export { NOTIFICATION_TYPES };
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * The header bell (spec part 2 §2, §3 Notification). One row per recipient (decision 101): each user sees and marks
 * only their own, so `read` is theirs alone; the spec's fields stay as they are.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: NOTIFICATION_TYPES }).notNull(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    read: boolean("read").notNull().default(false),
    targetUsersRole: text("target_users_role").array().notNull().default([]),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    url: text("url"),
    leadId: text("lead_id").references(() => leads.id, { onDelete: "set null" }),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    // The bell's list: one user's newest in one dealership, in the list's exact order (id breaks ties), so a page is
    // one backward index range; without id the planner preferred walking created_at across everyone's rows. Ascending
    // on purpose: read backwards it is exactly `created_at desc, id desc` (nulls first), which a DESC NULLS LAST is not.
    index("notifications_user_dealership_newest_idx").on(t.userId, t.dealershipId, t.createdAt, t.id),
    // The badge: only unread rows are in it, so counting stays small however long the history.
    index("notifications_unread_idx").on(t.userId, t.dealershipId).where(sql`not ${t.read}`),
    // Retention pruning (decision 103) and a deleted lead's `set null`.
    index("notifications_created_idx").on(t.createdAt),
    index("notifications_lead_idx").on(t.leadId).where(sql`${t.leadId} is not null`),
  ],
);

export const pushNotifications = pgTable("push_notifications", {
  id: id(),
  title: text("title").notNull(),
  message: text("message").notNull(),
  type: text("type"),
  url: text("url"),
  status: text("status", { enum: ["pending", "sent", "failed"] }).notNull().default("pending"),
  sentCount: integer("sent_count").notNull().default(0),
  targetUserIds: text("target_user_ids").array().notNull().default([]),
  targetRoles: text("target_roles").array().notNull().default([]),
  leadId: text("lead_id").references(() => leads.id, { onDelete: "set null" }),
  dealershipId: text("dealership_id").references(() => dealerships.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
}, (t) => [
  // Retention pruning, oldest first (decision 158).
  index("push_notifications_created_idx").on(t.createdAt),
]);

export const emailNotificationTriggers = pgTable(
  "email_notification_triggers",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    displayName: text("display_name").notNull(),
    description: text("description"),
    isActive: boolean("is_active").notNull().default(true),
  },
  (t) => [uniqueIndex("email_triggers_dealership_name_uq").on(t.dealershipId, t.name)],
);

export const emailNotificationSubscriptions = pgTable(
  "email_notification_subscriptions",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    triggerId: text("trigger_id")
      .notNull()
      .references(() => emailNotificationTriggers.id, { onDelete: "cascade" }),
    isSubscribed: boolean("is_subscribed").notNull().default(true),
  },
  (t) => [uniqueIndex("email_subscriptions_user_trigger_uq").on(t.userId, t.triggerId)],
);

export const emailsLog = pgTable(
  "emails_log",
  {
    id: id(),
    to: text("to").notNull(),
    from: text("from").notNull(),
    subject: text("subject").notNull(),
    /** Kept so a local user without SMTP can read invitation and verification mails. */
    body: text("body"),
    emailType: text("email_type").notNull(),
    dealershipId: text("dealership_id").references(() => dealerships.id, { onDelete: "set null" }),
    status: text("status", { enum: ["sent", "failed", "bounced"] }).notNull(),
    sentAt: at("sent_at").notNull().defaultNow(),
    errorMessage: text("error_message"),
  },
  (t) => [index("emails_log_to_idx").on(t.to, t.sentAt)],
);

export const emailVerificationCodes = pgTable(
  "email_verification_codes",
  {
    id: id(),
    email: text("email").notNull(),
    /** SHA-256 of the 6-digit code; the code itself is only ever in the e-mail. */
    code: text("code").notNull(),
    inviteId: text("invite_id").references(() => dealershipInvites.id, { onDelete: "cascade" }),
    isUsed: boolean("is_used").notNull().default(false),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: at("expires_at").notNull(),
  },
  (t) => [uniqueIndex("email_verification_codes_email_invite_uq").on(t.email, t.inviteId)],
);
