import { boolean, date, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { APPOINTMENT_STATUSES, DEFAULT_APPOINTMENT_DURATION } from "../../../shared/constants";
import { at, createdAt, id } from "./columns";
import { dealerships } from "./dealerships";
import { leads } from "./leads";
import { users } from "./users";

export const appointments = pgTable(
  "appointments",
  {
    id: id(),
    title: text("title").notNull(),
    leadId: text("lead_id").references(() => leads.id, { onDelete: "set null" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email"),
    phone: text("phone"),
    description: text("description"),
    /** The dealership's local calendar date (YYYY-MM-DD) and slot time (HH:MM). */
    date: date("date", { mode: "string" }).notNull(),
    time: text("time").notNull(),
    duration: integer("duration").notNull().default(DEFAULT_APPOINTMENT_DURATION),
    status: text("status", { enum: APPOINTMENT_STATUSES }).notNull().default("scheduled"),
    arrivedAt: at("arrived_at"),
    completedAt: at("completed_at"),
    actualDuration: integer("actual_duration"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    notificationSent: boolean("notification_sent").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("appointments_dealership_date_idx").on(t.dealershipId, t.date, t.time),
    index("appointments_assigned_date_idx").on(t.assignedTo, t.date, t.time),
    index("appointments_lead_idx").on(t.leadId),
    index("appointments_dealership_created_idx").on(t.dealershipId, t.createdAt),
    // Sales rep analytics: the appointments a rep scheduled in a period, from the index alone (decision 069).
    index("appointments_created_by_created_idx").on(t.createdBy, t.createdAt, t.dealershipId),
  ],
);

/**
 * Private iCalendar subscriptions (decision 023): one per user and dealership. Only the SHA-256 of the secret
 * token is stored, so the feed URL is shown once, when it is made; regenerating replaces the hash.
 */
export const calendarFeeds = pgTable(
  "calendar_feeds",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    /** "mine": the user's own appointments; "dealership": all of them (front desk and management only). */
    scope: text("scope", { enum: ["mine", "dealership"] }).notNull().default("mine"),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    lastFetchedAt: at("last_fetched_at"),
  },
  (t) => [
    uniqueIndex("calendar_feeds_token_hash_idx").on(t.tokenHash),
    uniqueIndex("calendar_feeds_user_dealership_idx").on(t.userId, t.dealershipId),
  ],
);
