import { sql } from "drizzle-orm";
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { LEAD_STATUSES } from "../../../shared/constants";
import { at, createdAt, id } from "./columns";
import { dealerships } from "./dealerships";
import { users } from "./users";

export const leads = pgTable(
  "leads",
  {
    id: id(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email"),
    phone: text("phone"),
    description: text("description"),
    status: text("status", { enum: LEAD_STATUSES }).notNull().default("new"),
    claimedBy: text("claimed_by").references(() => users.id, { onDelete: "set null" }),
    claimedAt: at("claimed_at"),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    // Keyset pagination of a dealership's list, newest first (id breaks ties).
    index("leads_dealership_created_idx").on(t.dealershipId, t.createdAt.desc(), t.id.desc()),
    // The New Leads list: only unclaimed rows, so the index stays small however many leads are worked.
    index("leads_dealership_new_idx")
      .on(t.dealershipId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'new'`),
    index("leads_claimed_by_idx").on(t.claimedBy, t.createdAt.desc(), t.id.desc()),
  ],
);
