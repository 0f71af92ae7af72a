import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { dealerships } from "./dealerships";
import { users } from "./users";

/**
 * Leads deleted or merged away in the last 30 days (issue 30, decision 214): what a restore puts back. The lead leaves
 * the leads table as before, so no query on leads (lists, search, analytics, the calendar, the jobs) can see a deleted
 * one; its row and the rows that went with it are kept here as PostgreSQL wrote them (to_jsonb), with the ids of the
 * rows that stayed and lost their link to it. A restore takes the row out again; the purge job drops rows older than
 * 30 days.
 */
export const deletedLeads = pgTable(
  "deleted_leads",
  {
    /** The lead's own id: a restore brings it back under it, so links and URLs to it work again. */
    leadId: text("lead_id").primaryKey(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
    deletedBy: text("deleted_by").references(() => users.id, { onDelete: "set null" }),
    /** For a lead merged away: the lead it went into ({ id, firstName, lastName }). */
    mergedInto: jsonb("merged_into"),
    /** The leads row (to_jsonb). */
    lead: jsonb("lead").notNull(),
    /** Rows deleted with the lead, by table name: its timeline, notes, calls, tasks and duplicate links. */
    rows: jsonb("rows").notNull(),
    /**
     * Ids of rows that stayed, by table name: after a delete, the appointments, test drives and bell entries whose
     * lead was set to null; after a merge, what moved to the kept lead.
     */
    links: jsonb("links").notNull(),
  },
  (t) => [
    // Recently deleted, newest first, per dealership.
    index("deleted_leads_dealership_deleted_idx").on(t.dealershipId, t.deletedAt.desc()),
    // The purge job: the oldest first.
    index("deleted_leads_deleted_idx").on(t.deletedAt),
  ],
);
