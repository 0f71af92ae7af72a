import { z } from "zod";

// Automatic follow-ups (issue 27, decision 200): rules that make a task when something happens to a lead. Every rule
// is on by default with the times below; management turns each on or off and sets its time in the admin panel
// (GET/PUT /api/dealerships/{id}/follow-up-rules).

export const FOLLOW_UP_RULE_NAMES = ["claimedNoContact", "testDriveReturned", "appointmentNoShow", "untouchedLead"] as const;
export type FollowUpRuleName = (typeof FOLLOW_UP_RULE_NAMES)[number];

const minutes = z.number("must be a whole number of minutes").int("must be a whole number of minutes").min(1, "must be at least 1 minute").max(1440, "must be at most 1440 minutes (a day)");
const days = z.number("must be a whole number of days").int("must be a whole number of days").min(1, "must be at least 1 day").max(90, "must be at most 90 days");
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time HH:MM, e.g. 10:00");

export const followUpRulesSchema = z.strictObject({
  /** A claimed lead with no contact yet: a call task due this many minutes after the claim. */
  claimedNoContact: z.strictObject({ enabled: z.boolean(), minutes }),
  /** A test drive returned: a follow-up at this time on the next business day (Monday to Friday). */
  testDriveReturned: z.strictObject({ enabled: z.boolean(), time: clockTime }),
  /** An appointment marked no-show: a call task due this many minutes later, the same day. */
  appointmentNoShow: z.strictObject({ enabled: z.boolean(), minutes }),
  /** A client nobody touched (no entry on its timeline) for this many days: a follow-up call, once per quiet stretch. */
  untouchedLead: z.strictObject({ enabled: z.boolean(), days }),
});
export type FollowUpRules = z.infer<typeof followUpRulesSchema>;

export const DEFAULT_FOLLOW_UP_RULES: FollowUpRules = {
  claimedNoContact: { enabled: true, minutes: 15 },
  testDriveReturned: { enabled: true, time: "10:00" },
  appointmentNoShow: { enabled: true, minutes: 30 },
  untouchedLead: { enabled: true, days: 3 },
};

/** PUT: any rules, each with any of its fields; what is left out stays as it is. */
export const followUpRulesUpdateSchema = z.strictObject({
  claimedNoContact: followUpRulesSchema.shape.claimedNoContact.partial().optional(),
  testDriveReturned: followUpRulesSchema.shape.testDriveReturned.partial().optional(),
  appointmentNoShow: followUpRulesSchema.shape.appointmentNoShow.partial().optional(),
  untouchedLead: followUpRulesSchema.shape.untouchedLead.partial().optional(),
});
export type FollowUpRulesUpdate = z.infer<typeof followUpRulesUpdateSchema>;

export const FOLLOW_UP_RULE_LABELS: Record<FollowUpRuleName, { title: string; description: string }> = {
  claimedNoContact: { title: "Call a newly claimed lead", description: "A call task for the rep, due this many minutes after the claim." },
  testDriveReturned: { title: "Follow up after a test drive", description: "A follow-up for the lead's rep at this time on the next business day." },
  appointmentNoShow: { title: "Call after a no-show", description: "A call task for the appointment's rep, due this many minutes after it is marked No Show." },
  untouchedLead: { title: "Follow up a quiet client", description: "A call task for the rep when nothing happened on their client for this many days." },
};
