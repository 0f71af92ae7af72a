import { z } from "zod";
import { FIRST_RESPONSE_KINDS, SPEED_TO_LEAD_PERIODS, UNATTENDED_LEAD_MINUTES_MAX, UNATTENDED_LEAD_MINUTES_MIN } from "../speed-to-lead";
import { entityId, timestamp } from "./responses/fields";

// Speed-to-lead (issue 14; decisions 140-142): the figures of a period, the call that counts as an answer, and the
// dealership's unattended-lead time.

const periodMessage = `days must be one of ${SPEED_TO_LEAD_PERIODS.join(", ")}`;

/** GET /api/dealerships/{id}/speed-to-lead?days=N: today and the N-1 days before it, on the dealership's clock. */
export const speedToLeadQuerySchema = z.object({
  days: z.coerce
    .number({ message: periodMessage })
    .refine((d) => (SPEED_TO_LEAD_PERIODS as readonly number[]).includes(d), { message: periodMessage })
    .default(7),
});

/** The figures of a set of leads: how many arrived, how many were answered, how fast. */
export const speedFiguresSchema = z.strictObject({
  /** Leads that arrived in the period (a rep's own walk-ins left out). */
  arrived: z.number().int().nonnegative(),
  answered: z.number().int().nonnegative(),
  /** Median seconds from arrival to the first answer, over the answered leads; null when none was answered. */
  medianSeconds: z.number().nonnegative().nullable(),
  within5: z.number().int().nonnegative(),
  within15: z.number().int().nonnegative(),
  /** within5 / arrived and within15 / arrived (0..1); null when no lead arrived. */
  within5Share: z.number().min(0).max(1).nullable(),
  within15Share: z.number().min(0).max(1).nullable(),
});
export type SpeedFigures = z.infer<typeof speedFiguresSchema>;

export const speedToLeadSchema = z.strictObject({
  days: z.number().int().positive(),
  /** The first day counted, YYYY-MM-DD on the dealership's clock. */
  from: z.iso.date(),
  dealership: speedFiguresSchema,
  /** Per rep who answered first (management only; empty for other roles). Shares are of the leads they answered. */
  reps: z.array(
    z.strictObject({
      userId: entityId,
      name: z.string(),
      answered: z.number().int().nonnegative(),
      medianSeconds: z.number().nonnegative().nullable(),
      within5: z.number().int().nonnegative(),
      within15: z.number().int().nonnegative(),
    }),
  ),
  unattendedLeadMinutes: z.number().int().positive(),
});
export type SpeedToLead = z.infer<typeof speedToLeadSchema>;

/** PUT /api/dealerships/{id}/speed-to-lead/settings (management). */
export const speedToLeadSettingsSchema = z
  .object({
    unattendedLeadMinutes: z.coerce
      .number({ message: `Enter minutes from ${UNATTENDED_LEAD_MINUTES_MIN} to ${UNATTENDED_LEAD_MINUTES_MAX}` })
      .int({ message: "Enter whole minutes" })
      .min(UNATTENDED_LEAD_MINUTES_MIN, { message: `Enter minutes from ${UNATTENDED_LEAD_MINUTES_MIN} to ${UNATTENDED_LEAD_MINUTES_MAX}` })
      .max(UNATTENDED_LEAD_MINUTES_MAX, { message: `Enter minutes from ${UNATTENDED_LEAD_MINUTES_MIN} to ${UNATTENDED_LEAD_MINUTES_MAX}` }),
  })
  .strict();
export const speedToLeadSettingsResponseSchema = z.strictObject({ unattendedLeadMinutes: z.number().int().positive() });

/** POST /api/leads/{id}/call: the first answer of the lead, whichever action it was (this call or an earlier one). */
export const firstResponseSchema = z.strictObject({
  firstResponseAt: timestamp,
  firstResponseKind: z.enum(FIRST_RESPONSE_KINDS),
});
export type FirstResponse = z.infer<typeof firstResponseSchema>;
