import { boolean, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
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
