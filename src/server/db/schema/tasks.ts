import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { TASK_STATUSES, TASK_TYPES } from "../../../shared/schemas/task";
import { at, createdAt, id, updatedAt } from "./columns";
import { dealerships } from "./dealerships";
import { leads } from "./leads";
import { users } from "./users";

/** Follow-up tasks on a lead (issue 27): a call, e-mail or visit due at an instant, for one member. */
export const tasks = pgTable(
  "tasks",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    // A lead's tasks go with it; a merge moves them to the kept lead first.
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    type: text("type", { enum: TASK_TYPES }).notNull(),
    dueAt: at("due_at").notNull(),
    assigneeId: text("assignee_id").references(() => users.id, { onDelete: "set null" }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: TASK_STATUSES }).notNull().default("open"),
    note: text("note"),
    completedAt: at("completed_at"),
    /** When the assignee was reminded (bell and push) of the current due time; a reschedule clears it. */
    remindedAt: at("reminded_at"),
    /** What created it automatically (a follow-up rule and its trigger), so a trigger handled twice makes one task. */
    origin: text("origin"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // My Day and ?scope=mine: one member's open tasks by due time.
    index("tasks_assignee_status_due_idx").on(t.assigneeId, t.status, t.dueAt),
    // ?scope=all for front desk and management.
    index("tasks_dealership_status_due_idx").on(t.dealershipId, t.status, t.dueAt),
    index("tasks_lead_idx").on(t.leadId),
    // The reminder job: only open tasks not yet reminded, by due time.
    index("tasks_reminder_due_idx").on(t.dueAt).where(sql`${t.status} = 'open' and ${t.remindedAt} is null`),
    uniqueIndex("tasks_origin_uq").on(t.origin).where(sql`${t.origin} is not null`),
  ],
);

/**
 * A dealership's automatic follow-up rules (issue 27, decision 200): the rules it changed from the defaults, as the
 * shared schema writes them. No row: every rule on with its default time.
 */
export const followUpSettings = pgTable("follow_up_settings", {
  dealershipId: text("dealership_id")
    .primaryKey()
    .references(() => dealerships.id, { onDelete: "cascade" }),
  rules: jsonb("rules").notNull(),
  updatedAt: updatedAt(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
});
