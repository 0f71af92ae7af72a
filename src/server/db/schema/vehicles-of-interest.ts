import { sql } from "drizzle-orm";
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { VEHICLE_INTERESTS } from "../../../shared/schemas/vehicle-of-interest";
import { createdAt, id } from "./columns";
import { dealerships } from "./dealerships";
import { leads } from "./leads";
import { vehicles } from "./test-drives";

/**
 * The vehicles a lead's customer asked about by VIN or stock number (an ADF <vehicle> they want to buy, lease or
 * drive; decision 188), and the inventory vehicle it matched. Kept unmatched too, so a vehicle added to the inventory
 * later finds the open leads waiting for it. A vehicle's removal (a delete) unlinks it; the VIN and stock stay.
 */
export const vehiclesOfInterest = pgTable(
  "vehicles_of_interest",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    interest: text("interest", { enum: VEHICLE_INTERESTS }).notNull(),
    /** As the document wrote it, normalised (upper case, no spaces or dashes); null when it gave none or a malformed one. */
    vin: text("vin"),
    stockNumber: text("stock_number"),
    vehicleId: text("vehicle_id").references(() => vehicles.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("vehicles_of_interest_lead_idx").on(t.leadId),
    index("vehicles_of_interest_vehicle_idx").on(t.vehicleId).where(sql`${t.vehicleId} is not null`),
    // A vehicle added later looks up the unmatched interests in its VIN or its stock number.
    index("vehicles_of_interest_unmatched_vin_idx").on(t.dealershipId, t.vin).where(sql`${t.vehicleId} is null and ${t.vin} is not null`),
    index("vehicles_of_interest_unmatched_stock_idx")
      .on(t.dealershipId, sql`upper(${t.stockNumber})`)
      .where(sql`${t.vehicleId} is null and ${t.stockNumber} is not null`),
  ],
);
