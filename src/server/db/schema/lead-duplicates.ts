import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, id } from "./columns";
import { dealerships } from "./dealerships";
import { leads } from "./leads";
import { users } from "./users";

/**
 * A new lead linked to an open lead of the same dealership with the same normalised e-mail or phone (issue 14;
 * decision 137). `leadId` is the newer lead, `duplicateOfId` the one it matched. "Not a duplicate" sets dismissedAt
 * (kept, so the record says who decided); a merge removes the merged-away lead and with it its links.
 */
export const leadDuplicates = pgTable(
  "lead_duplicates",
  {
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    duplicateOfId: text("duplicate_of_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    /** "email", "phone" or "email,phone". */
    matchedOn: text("matched_on").notNull(),
    createdAt: createdAt(),
    dismissedAt: at("dismissed_at"),
    dismissedBy: text("dismissed_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.duplicateOfId] }), index("lead_duplicates_duplicate_of_idx").on(t.duplicateOfId)],
);

/**
 * The record of a merge (decision 138): the merged-away lead is deleted, so its snapshot, the fields chosen from each
 * side and what moved are kept here. A lead is merged away once (unique), which is how a second merge answers 409.
 */
export const leadMerges = pgTable(
  "lead_merges",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    keptLeadId: text("kept_lead_id").references(() => leads.id, { onDelete: "set null" }),
    mergedLeadId: text("merged_lead_id").notNull(),
    /** The merged-away lead as it was (the LeadSnapshot of src/shared/events.ts plus createdAt). */
    mergedLead: jsonb("merged_lead").notNull(),
    /** Which side each field came from: { firstName: "kept" | "merged", ..., description: "kept" | "merged" | "both" }. */
    choices: jsonb("choices").notNull(),
    movedAppointments: integer("moved_appointments").notNull(),
    movedTestDrives: integer("moved_test_drives").notNull(),
    mergedBy: text("merged_by").references(() => users.id, { onDelete: "set null" }),
    mergedAt: createdAt(),
  },
  (t) => [uniqueIndex("lead_merges_merged_lead_idx").on(t.mergedLeadId), index("lead_merges_kept_lead_idx").on(t.keptLeadId)],
);
