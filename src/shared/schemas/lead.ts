import { z } from "zod";
import { lostReasonField } from "./lost-reasons";
import { LEAD_STATUSES } from "../constants";
import { FORM_LEAD_SOURCES, LEAD_SOURCES } from "../lead-source";
import { storedPhone } from "../phone";
import { entityId, timestamp } from "./responses/fields";

// Request schemas of the leads area (spec part 1 §5 lead form, part 2 §5/§7 lead edit). The create and edit forms and
// the server validate with these same objects (ARCHITECTURE invariant 3).

export const LEAD_NAME_MAX = 100;
export const LEAD_DESCRIPTION_MAX = 5000;
const PHONE_MESSAGE = "Please enter a valid phone number";
/** Page size of the leads lists: large enough for every screen of the spec, at most LEADS_PAGE_MAX (decision 012). */
export const LEADS_PAGE_DEFAULT = 100;
export const LEADS_PAGE_MAX = 200;

// The labels live in constants.ts so that screens showing a status do not download zod (issue 12).
export { LEAD_STATUS_LABELS } from "../constants";

const requiredName = (message: string) =>
  z.string({ message }).trim().min(1, { message }).max(LEAD_NAME_MAX, { message: `Must be at most ${LEAD_NAME_MAX} characters` });

/** "Please enter a valid email" or empty (part 1 §5); stored lower-case, empty becomes null. */
export const leadEmailField = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => v === "" || z.email().safeParse(v).success, { message: "Please enter a valid email" });

/**
 * Part 1 §5: phone is "non-empty ('Phone number is required') or empty", i.e. optional. When given it must be a phone
 * number (libphonenumber-js, shared/phone.ts): it is stored in E.164 with any extension ("+19055551212;ext=123",
 * issue 29, decision 205) and shown as 905-555-1212 x123, or in international format when it is another country's.
 */
export const leadPhoneField = z
  .string()
  .trim()
  .max(40, { message: PHONE_MESSAGE })
  .transform((typed, ctx) => {
    if (typed === "") return "";
    const stored = storedPhone(typed);
    if (stored === null) {
      ctx.addIssue({ code: "custom", message: PHONE_MESSAGE });
      return z.NEVER;
    }
    return stored;
  });

/** An optional phone (appointments, test drives, dealerships, users): stored as leadPhoneField stores it, empty is null. */
export const optionalPhoneField = leadPhoneField.nullish().transform((v) => (v ? v : null));

export const leadStatusSchema = z.enum(LEAD_STATUSES, {
  message: `Status must be one of: ${LEAD_STATUSES.join(", ")}`,
});

const leadFields = {
  firstName: requiredName("First name is required"),
  lastName: requiredName("Last name is required"),
  email: leadEmailField.optional().nullable(),
  phone: leadPhoneField.optional().nullable(),
  description: z
    .string()
    .trim()
    .max(LEAD_DESCRIPTION_MAX, { message: `Description must be at most ${LEAD_DESCRIPTION_MAX} characters` })
    .optional()
    .nullable(),
};

/**
 * POST /api/dealerships/{id}/leads. `assignedTo` is the rep's user id (front desk and management only; part 1 §2.6,
 * §6); empty or missing leaves the lead unassigned (or, for a sales user, claimed by themselves).
 */
export const createLeadSchema = z.object({
  ...leadFields,
  assignedTo: z.string().trim().max(64).optional().nullable(),
  /** How the customer reached us (decision 130); missing means walk-in. Import and ADF are set by the intake only. */
  source: z.enum(FORM_LEAD_SOURCES, { message: `Source must be one of: ${FORM_LEAD_SOURCES.join(", ")}` }).optional(),
});
export type CreateLeadInput = z.input<typeof createLeadSchema>;

/** PATCH /api/leads/{id}: part 2 §7, any subset of the editable fields. */
export const updateLeadSchema = z
  .object({
    firstName: leadFields.firstName.optional(),
    lastName: leadFields.lastName.optional(),
    email: leadFields.email,
    phone: leadFields.phone,
    description: leadFields.description,
    status: leadStatusSchema.optional(),
    /** Required with a move to Lost: one of the dealership's lost reasons (decision 202). */
    lostReason: lostReasonField.optional(),
  })
  .strict();
export type UpdateLeadInput = z.input<typeof updateLeadSchema>;

/** PATCH /api/leads/{id}/status. */
export const leadStatusChangeSchema = z.object({ status: leadStatusSchema, lostReason: lostReasonField.optional() });

/** The query of GET /api/dealerships/{id}/leads. */
export const leadListQuerySchema = z.object({
  type: z.enum(["new", "my"], { message: "type must be new or my" }).optional(),
  q: z.string().trim().max(200, { message: "Search is too long" }).optional(),
  status: leadStatusSchema.optional(),
  source: z.enum(LEAD_SOURCES, { message: `source must be one of: ${LEAD_SOURCES.join(", ")}` }).optional(),
  limit: z.coerce
    .number({ message: `limit must be a number from 1 to ${LEADS_PAGE_MAX}` })
    .int({ message: `limit must be a number from 1 to ${LEADS_PAGE_MAX}` })
    .min(1, { message: `limit must be a number from 1 to ${LEADS_PAGE_MAX}` })
    .max(LEADS_PAGE_MAX, { message: `limit must be a number from 1 to ${LEADS_PAGE_MAX}` })
    .default(LEADS_PAGE_DEFAULT),
  cursor: z.string().max(200).optional(),
});
export type LeadListQuery = z.infer<typeof leadListQuerySchema>;

/** A lead as the API answers it (part 2 §3 Lead; decision 053: the client's type comes from this schema). */
export const leadSchema = z.strictObject({
  id: entityId,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  description: z.string().nullable(),
  status: leadStatusSchema,
  dealershipId: entityId,
  createdAt: timestamp,
  claimedBy: entityId.nullable(),
  claimedByName: z.string().nullable(),
  claimedAt: timestamp.nullable(),
  source: z.enum(LEAD_SOURCES),
  sourceProvider: z.string().nullable(),
  /** Why a lost lead was lost (decision 202); null for any other status. */
  lostReason: z.string().nullable().optional(),
});
export type Lead = z.infer<typeof leadSchema>;

/** GET /api/dealerships/{id}/metrics (part 1 §3). Changes are whole percents from yesterday (decision 014). */
export const dealershipMetricsSchema = z.strictObject({
  newLeadsToday: z.number().int().nonnegative(),
  newLeadsTodayChange: z.number().int(),
  appointmentsScheduledToday: z.number().int().nonnegative(),
  appointmentsScheduledTodayChange: z.number().int(),
  testDrivesCompletedToday: z.number().int().nonnegative(),
  testDrivesCompletedTodayChange: z.number().int(),
});
export type DealershipMetrics = z.infer<typeof dealershipMetricsSchema>;

/** Percent change from yesterday; from zero it is +100 when there is anything today, else 0 (decision 014). */
export function percentChange(today: number, yesterday: number): number {
  if (yesterday === 0) return today === 0 ? 0 : 100;
  return Math.round(((today - yesterday) / yesterday) * 100);
}
