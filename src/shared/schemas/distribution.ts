import { z } from "zod";

// Lead distribution (issue 27, decision 201): who gets a new lead. Management picks the mode and whether a lead goes
// out at arrival or after some minutes nobody claimed it; sales reps say whether they are on the floor. Only reps on
// the floor get leads; with nobody there a lead waits in New Leads as before.

export const DISTRIBUTION_MODES = ["off", "round_robin", "fewest_open"] as const;
export type DistributionMode = (typeof DISTRIBUTION_MODES)[number];
export const DISTRIBUTION_MODE_LABELS: Record<DistributionMode, { title: string; description: string }> = {
  off: { title: "Off", description: "Reps claim new leads themselves from New Leads." },
  round_robin: { title: "Round robin", description: "Each new lead goes to the next rep on the floor in turn." },
  fewest_open: { title: "Fewest open leads", description: "Each new lead goes to the rep on the floor with the fewest open clients." },
};

export const AUTO_ASSIGN_MAX_MINUTES = 1440;

export const distributionSettingsSchema = z.strictObject({
  mode: z.enum(DISTRIBUTION_MODES, { message: `mode must be one of: ${DISTRIBUTION_MODES.join(", ")}` }),
  /** null: at arrival; a number: only a lead nobody claimed for that many minutes. */
  autoAssignAfterMinutes: z
    .number("must be a whole number of minutes or null")
    .int("must be a whole number of minutes")
    .min(1, "must be at least 1 minute")
    .max(AUTO_ASSIGN_MAX_MINUTES, "must be at most 1440 minutes (a day)")
    .nullable(),
});
export type DistributionSettings = z.infer<typeof distributionSettingsSchema>;

export const DEFAULT_DISTRIBUTION: DistributionSettings = { mode: "off", autoAssignAfterMinutes: null };

/** PUT: either field, or both; what is left out stays as it is. */
export const distributionUpdateSchema = distributionSettingsSchema.partial();
export type DistributionUpdate = z.infer<typeof distributionUpdateSchema>;

/** PUT /api/dealerships/{id}/availability: a sales rep about themself. */
export const availabilityUpdateSchema = z.strictObject({ onFloor: z.boolean("onFloor must be true or false") });

export const repAvailabilitySchema = z.strictObject({
  userId: z.string(),
  name: z.string(),
  onFloor: z.boolean(),
  /** When they last came on or left the floor; null if they never said. */
  changedAt: z.string().nullable(),
});
export type RepAvailability = z.infer<typeof repAvailabilitySchema>;
