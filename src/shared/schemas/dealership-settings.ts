import { z } from "zod";
import { businessHoursSchema } from "../business-hours";
import { isIanaTimezone } from "../dealership-clock";
import { dealershipDetailsSchema } from "./platform";

// The dealership's own settings (issue 30, decision 191): management's Settings tab, GET/PUT
// /api/dealerships/{id}/settings. The details are the platform's (name, address, phone in E.164, e-mail, website);
// the time zone and business hours are the dealership's clock.

export const timezoneField = z
  .string({ message: "Time zone is required" })
  .trim()
  .min(1, { message: "Time zone is required" })
  .refine(isIanaTimezone, { message: "Choose a time zone from the list (e.g. America/Toronto)" });

export const dealershipSettingsSchema = dealershipDetailsSchema.extend({
  timezone: timezoneField,
  businessHours: businessHoursSchema,
});
export type DealershipSettings = z.output<typeof dealershipSettingsSchema>;
export type DealershipSettingsInput = z.input<typeof dealershipSettingsSchema>;

/** A PUT may name only the fields it changes (an integration changing the hours alone); the form sends them all. */
export const dealershipSettingsUpdateSchema = dealershipSettingsSchema.partial();
export type DealershipSettingsUpdate = z.output<typeof dealershipSettingsUpdateSchema>;

/** The first-run checklist's steps (decision 192), in the order the owner meets them. */
export const FIRST_RUN_STEPS = ["settings", "team", "vehicles", "intake"] as const;
export type FirstRunStep = (typeof FIRST_RUN_STEPS)[number];
