import { z } from "zod";
import { WEEKDAYS, type Weekday } from "../../business-hours";
import { FIRST_RUN_STEPS } from "../dealership-settings";
import { slotTime, timestamp } from "./fields";

// What the dealership's Settings tab and first-run checklist read (src/server/dealerships; decisions 191, 192).

const dayHours = z.strictObject({ open: slotTime, close: slotTime }).nullable();
export const businessHoursAnswerSchema = z.strictObject(Object.fromEntries(WEEKDAYS.map((d) => [d, dayHours])) as Record<Weekday, typeof dayHours>);

export const dealershipSettingsAnswerSchema = z.strictObject({
  name: z.string().min(1),
  address: z.string().nullable(),
  /** E.164 (decision 205). */
  phone: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  timezone: z.string().min(1),
  businessHours: businessHoursAnswerSchema,
  /** When management last saved the settings; null until then (the checklist's first step). */
  savedAt: timestamp.nullable(),
});
export type DealershipSettingsAnswer = z.infer<typeof dealershipSettingsAnswerSchema>;

export const firstRunSchema = z.strictObject({
  /** Whether management's dashboard shows the checklist: a step is open and nobody dismissed it. */
  show: z.boolean(),
  dismissedAt: timestamp.nullable(),
  steps: z.array(z.strictObject({ step: z.enum(FIRST_RUN_STEPS), done: z.boolean() })),
});
export type FirstRun = z.infer<typeof firstRunSchema>;

export const responses = {
  "GET /api/dealerships/:id/settings": dealershipSettingsAnswerSchema,
  "PUT /api/dealerships/:id/settings": dealershipSettingsAnswerSchema,
  "GET /api/dealerships/:id/first-run": firstRunSchema,
  "POST /api/dealerships/:id/first-run/dismiss": firstRunSchema,
} as const satisfies Record<string, z.ZodType>;
