import { sql } from "drizzle-orm";
import { bigint, bigserial, index, jsonb, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { dealerships } from "./dealerships";
import { leads } from "./leads";
import { users } from "./users";

/**
 * A lead's story (issue 26, decision 218): one row per thing that happened to it, written by the statement that
 * publishes the event (events/outbox.ts publishStatement), so it commits with the change. Kept as long as the lead is
 * (the outbox's rows are pruned; these are not). `payload` is the event's payload as written, with its `version`;
 * the entry's data and summary are read from it (leads/activity.ts).
 */
export const leadActivity = pgTable(
  "lead_activity",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    /** No foreign keys but the lead's: writing an entry must never be what makes a change fail. */
    dealershipId: text("dealership_id").notNull(),
    /** The entry's type (shared/activity.ts ACTIVITY_TYPES), not the event's. */
    type: text("type").notNull(),
    /** The outbox event it came from (null for the backfill); no foreign key, the outbox is pruned. */
    eventId: bigint("event_id", { mode: "number" }),
    eventType: text("event_type"),
    version: smallint("version").notNull().default(1),
    /** Who did it (null: the system); a deleted user's entries show no one (the read joins users). */
    actorId: text("actor_id"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    payload: jsonb("payload").notNull(),
    /** Set when a merge brought the entry over from the merged-away lead: that lead's id and name. */
    mergedFrom: jsonb("merged_from"),
  },
  // The timeline: a lead's entries newest first, a keyset page per read.
  (t) => [index("lead_activity_lead_at_idx").on(t.leadId, t.at.desc(), t.id.desc())],
);

/** A note on a lead (issue 26): plain text, its author, the members it mentions. */
export const leadNotes = pgTable(
  "lead_notes",
  {
    id: id(),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    mentions: text("mentions").array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("lead_notes_lead_idx").on(t.leadId)],
);

/** A call to the customer, logged with its outcome (issue 26). */
export const leadCalls = pgTable(
  "lead_calls",
  {
    id: id(),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    outcome: text("outcome", { enum: ["reached", "voicemail", "no_answer", "wrong_number"] }).notNull(),
    notes: text("notes"),
    createdAt: createdAt(),
  },
  (t) => [index("lead_calls_lead_idx").on(t.leadId)],
);
