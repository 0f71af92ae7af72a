import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { BusinessHours } from "../../../shared/business-hours";
import { DEFAULT_TIMEZONE } from "../../../shared/constants";
import { DEFAULT_UNATTENDED_LEAD_MINUTES } from "../../../shared/speed-to-lead";
import { at, createdAt, id } from "./columns";
import { users } from "./users";

export const dealerships = pgTable("dealerships", {
  id: id(),
  name: text("name").notNull(),
  address: text("address"),
  phone: text("phone"),
  email: text("email"),
  logo: text("logo"),
  website: text("website"),
  /** IANA zone: "today", "yesterday" and "upcoming" are on the dealership's clock. */
  timezone: text("timezone").notNull().default(DEFAULT_TIMEZONE),
  active: boolean("active").notNull().default(true),
  createdAt: createdAt(),
  /** A new lead still unanswered this many minutes e-mails management (issue 14, decision 142). */
  unattendedLeadMinutes: integer("unattended_lead_minutes").notNull().default(DEFAULT_UNATTENDED_LEAD_MINUTES),
  /** Per weekday open/close or closed (issue 30, decision 191); null until management sets them: the defaults. */
  businessHours: jsonb("business_hours").$type<BusinessHours>(),
  /** When management last saved the Settings tab: the first-run checklist's first step (decision 192). */
  settingsSavedAt: at("settings_saved_at"),
  /**
   * The first-run checklist was dismissed (decision 192), for the whole dealership. Dealerships older than the
   * checklist were set up without it: migration 0029 marks them so.
   */
  firstRunDismissedAt: at("first_run_dismissed_at"),
});

export const dealershipUsers = pgTable(
  "dealership_users",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["sales", "frontDesk", "management"] }).notNull(),
    addedAt: at("added_at").notNull().defaultNow(),
    addedBy: text("added_by").references(() => users.id, { onDelete: "set null" }),
    active: boolean("active").notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.userId, t.dealershipId] }), index("dealership_users_dealership_idx").on(t.dealershipId)],
);

export const dealershipInvites = pgTable(
  "dealership_invites",
  {
    id: id(),
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["sales", "frontDesk", "management"] }).notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    invitedAt: createdAt(),
    status: text("status", { enum: ["pending", "accepted", "expired"] }).notNull().default("pending"),
    expiresAt: at("expires_at").notNull(),
  },
  (t) => [index("dealership_invites_dealership_idx").on(t.dealershipId), index("dealership_invites_email_idx").on(t.email)],
);
