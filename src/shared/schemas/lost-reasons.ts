import { z } from "zod";

// Why a lead was lost (issue 27, decision 202): moving a lead to Lost names one reason from the dealership's list,
// which management edits. Sales Rep Analytics counts them.

export const LOST_REASON_MAX = 80;
export const LOST_REASONS_MAX = 30;

export const DEFAULT_LOST_REASONS = [
  "Bought elsewhere",
  "Price too high",
  "Financing declined",
  "Vehicle not available",
  "Trade-in value too low",
  "No response",
  "Not ready to buy",
] as const;

const reason = z.string("each reason must be text").trim().min(1, "a reason may not be empty").max(LOST_REASON_MAX, `a reason is at most ${LOST_REASON_MAX} characters`);

/** PUT /api/dealerships/{id}/lost-reasons: the whole list, in the order shown; at least one, no repeats. */
export const lostReasonsSchema = z
  .array(reason, "send an array of reasons")
  .min(1, "keep at least one reason")
  .max(LOST_REASONS_MAX, `at most ${LOST_REASONS_MAX} reasons`)
  .refine((list) => new Set(list.map((r) => r.toLowerCase())).size === list.length, "each reason only once");

/** The reason sent with a status change to Lost (checked against the list by the server). */
export const lostReasonField = z.string("lostReason must be text").trim().min(1, "Choose why the lead was lost").max(LOST_REASON_MAX, `at most ${LOST_REASON_MAX} characters`);
