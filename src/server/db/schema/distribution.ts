import { bigint, boolean, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { DISTRIBUTION_MODES } from "../../../shared/schemas/distribution";
import { at, updatedAt } from "./columns";
import { dealerships } from "./dealerships";
import { users } from "./users";

/**
 * How a dealership hands out new leads (issue 27, decision 201). No row: off. The row is also the lock every
 * distribution in the dealership takes (FOR UPDATE) before it picks a rep, so parallel arrivals take turns and the
 * count `turn` is exact.
 */
export const leadDistribution = pgTable("lead_distribution", {
  dealershipId: text("dealership_id")
    .primaryKey()
    .references(() => dealerships.id, { onDelete: "cascade" }),
  mode: text("mode", { enum: DISTRIBUTION_MODES }).notNull().default("off"),
  /** null: at arrival; else only leads nobody claimed for this many minutes (the minute job). */
  autoAssignAfterMinutes: integer("auto_assign_after_minutes"),
  /** How many leads it handed out; each rep's `last_turn` says when their last one was (round robin's order). */
  turn: bigint("turn", { mode: "number" }).notNull().default(0),
  updatedAt: updatedAt(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
});

/** A sales rep on the floor or not, per dealership (they say so in the header). No row: not on the floor. */
export const repAvailability = pgTable(
  "rep_availability",
  {
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    onFloor: boolean("on_floor").notNull().default(false),
    changedAt: at("changed_at").notNull().defaultNow(),
    /** The dealership's `turn` of the last lead this rep was given (0: none yet). */
    lastTurn: bigint("last_turn", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dealershipId, t.userId] })],
);
