import { boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { PLATFORM_ACTIONS } from "../../../shared/schemas/platform";
import { at, createdAt, id, updatedAt } from "./columns";
import { dealerships } from "./dealerships";
import { users } from "./users";

export const platformAdmins = pgTable("platform_admins", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  grantedBy: text("granted_by").references(() => users.id, { onDelete: "set null" }),
  grantedAt: at("granted_at").notNull().defaultNow(),
  active: boolean("active").notNull().default(true),
});

export const platformAdminDealershipAccess = pgTable(
  "platform_admin_dealership_access",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    grantedBy: text("granted_by").references(() => users.id, { onDelete: "set null" }),
    grantedAt: at("granted_at").notNull().defaultNow(),
    active: boolean("active").notNull().default(true),
  },
  (t) => [uniqueIndex("platform_admin_access_user_dealership_uq").on(t.userId, t.dealershipId)],
);

export const integrationSettings = pgTable("integration_settings", {
  id: id(),
  name: text("name").notNull().unique(),
  isEnabled: boolean("is_enabled").notNull().default(false),
  settings: jsonb("settings").notNull().default({}),
  createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The platform's audit log (decision 093): every platform action, who did it and when, written in the transaction of
 * the action. Names are copied in, so an entry still reads right after its actor or its subject is deleted.
 */
export const platformAuditLog = pgTable(
  "platform_audit_log",
  {
    id: id(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** The actor's name (or e-mail) when they acted. */
    actorName: text("actor_name").notNull(),
    action: text("action", { enum: PLATFORM_ACTIONS }).notNull(),
    dealershipId: text("dealership_id").references(() => dealerships.id, { onDelete: "set null" }),
    /** Whom or what it concerned, by id (a user, dealership or invitation; kept after that row is gone). */
    subjectId: text("subject_id"),
    /** One sentence for Recent Activity: "Granted platform admin to jo@example.com". */
    summary: text("summary").notNull(),
    /** What changed, for an edit: { field: [before, after] }. */
    details: jsonb("details").notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("platform_audit_log_created_idx").on(t.createdAt.desc(), t.id.desc())],
);
