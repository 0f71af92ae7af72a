import { z } from "zod";
import { vehicleSchema } from "./vehicle";

// A lead's vehicles of interest that match the dealership's inventory (issue 29, decision 188): an ADF <vehicle> the
// customer wants to buy, lease or drive, named by VIN or stock number. A trade-in or a car they sell is theirs, not
// the dealership's, and is never linked.

/** The ADF interests that are the dealership's car (ADF 1.0 <vehicle interest>; none means buy). */
export const VEHICLE_INTERESTS = ["buy", "lease", "test-drive"] as const;
export type VehicleInterest = (typeof VEHICLE_INTERESTS)[number];

export const VEHICLE_INTEREST_LABELS: Record<VehicleInterest, string> = {
  buy: "Wants to buy",
  lease: "Wants to lease",
  "test-drive": "Asked for a test drive",
};

/** A vehicle the customer wants, as a document names it (VIN normalised, or null; stock number as written, or null). */
export interface WantedVehicle {
  interest: VehicleInterest;
  vin: string | null;
  stockNumber: string | null;
}

/** One linked vehicle: what the customer asked, how it matched, and the vehicle as the inventory shows it. */
export const linkedVehicleSchema = z.strictObject({
  interest: z.enum(VEHICLE_INTERESTS),
  matchedOn: z.enum(["vin", "stockNumber"]),
  vehicle: vehicleSchema,
});
export type LinkedVehicle = z.infer<typeof linkedVehicleSchema>;

export const responses = {
  /** The lead's vehicles of interest found in the inventory, in the order the document named them. */
  "GET /api/leads/:id/vehicles": z.array(linkedVehicleSchema),
} as const satisfies Record<string, z.ZodType>;
