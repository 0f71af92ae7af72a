import { z } from "zod";
import type { DomainEventType } from "./events";

// A lead's timeline (issue 26, decision 218). Each entry's `type` is named as the issue lists it, so that webhooks and
// the OpenAPI document share it; an entry comes from one domain event (EVENT_ACTIVITY says which).

export const ACTIVITY_TYPES = [
  "lead.created",
  "lead.claimed",
  "lead.assigned",
  "lead.unclaimed",
  "lead.status_changed",
  "lead.updated",
  "note.added",
  "note.edited",
  "note.deleted",
  "call.logged",
  "email.sent",
  "email.received",
  "appointment.scheduled",
  "appointment.status_changed",
  "test_drive.booked",
  "test_drive.out",
  "test_drive.returned",
  "test_drive.status_changed",
  "lead.merged",
  "lead.imported",
  // Brought back from Recently deleted by management (issue 30, decision 214).
  "lead.restored",
  // Follow-up tasks (issue 27): done, moved to another time or person, cancelled (a new task is not news yet).
  "task.completed",
  "task.rescheduled",
  "task.reassigned",
  "task.cancelled",
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/**
 * The entry type each domain event writes on its lead's timeline. Events not here write none: they are not about one
 * lead (vehicles, team), remove it (lead.deleted), or are told by another entry (a drive's edit), or are not news on
 * the lead (a task's note edited, its reminder).
 */
export const EVENT_ACTIVITY: { readonly [T in DomainEventType]?: ActivityType } = {
  "lead.created": "lead.created",
  "lead.claimed": "lead.claimed",
  "lead.assigned": "lead.assigned",
  "lead.unclaimed": "lead.unclaimed",
  "lead.status_changed": "lead.status_changed",
  "lead.updated": "lead.updated",
  "lead.merged": "lead.merged",
  "lead.restored": "lead.restored",
  "note.added": "note.added",
  "note.edited": "note.edited",
  "note.deleted": "note.deleted",
  "call.logged": "call.logged",
  "email.sent": "email.sent",
  "email.received": "email.received",
  "appointment.created": "appointment.scheduled",
  "appointment.status_changed": "appointment.status_changed",
  "test_drive.booked": "test_drive.booked",
  "test_drive.taken_out": "test_drive.out",
  "test_drive.returned": "test_drive.returned",
  "test_drive.status_changed": "test_drive.status_changed",
  "task.completed": "task.completed",
  "task.rescheduled": "task.rescheduled",
  "task.reassigned": "task.reassigned",
  "task.cancelled": "task.cancelled",
  // leads.imported: a CSV file's leads each get lead.imported (written with the import, leads/activity.ts).
};

/** The timeline's filter: which entry types each choice shows. */
export const ACTIVITY_FILTERS = {
  all: null,
  notes: ["note.added", "note.edited", "note.deleted"],
  calls: ["call.logged"],
  emails: ["email.sent", "email.received"],
  changes: [
    "lead.created",
    "lead.claimed",
    "lead.assigned",
    "lead.unclaimed",
    "lead.status_changed",
    "lead.updated",
    "lead.merged",
    "lead.imported",
    "lead.restored",
    "appointment.scheduled",
    "appointment.status_changed",
    "test_drive.booked",
    "test_drive.out",
    "test_drive.returned",
    "test_drive.status_changed",
    "task.completed",
    "task.rescheduled",
    "task.reassigned",
    "task.cancelled",
  ],
} as const satisfies Record<string, readonly ActivityType[] | null>;
export type ActivityFilter = keyof typeof ACTIVITY_FILTERS;

export const activityActorSchema = z.strictObject({ id: z.string(), firstName: z.string(), lastName: z.string() });

export const activityEntrySchema = z.strictObject({
  id: z.string(),
  type: z.enum(ACTIVITY_TYPES),
  at: z.string(),
  actor: activityActorSchema.nullable(),
  summary: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const activityQuerySchema = z.object({
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
  filter: z.enum(Object.keys(ACTIVITY_FILTERS) as [ActivityFilter, ...ActivityFilter[]]).default("all"),
});

export const NOTE_MAX = 5000;
export const CALL_OUTCOMES = ["reached", "voicemail", "no_answer", "wrong_number"] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

// eslint-disable-next-line no-control-regex -- control characters other than line breaks and tabs are refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Plain text with its line breaks (CRLF kept as LF); no other control characters. */
export const plainText = (max: number) =>
  z
    .string("must be text")
    .transform((value) => value.replace(/\r\n?/g, "\n"))
    .pipe(
      z
        .string()
        .refine((value) => !CONTROL.test(value), "must be plain text without control characters")
        .refine((value) => value.trim().length > 0, "must not be empty")
        .refine((value) => value.length <= max, `must be at most ${max} characters`),
    );

const userId = z.string("must be a user id").min(1, "must be a user id").max(64, "must be a user id");

export const noteInputSchema = z.strictObject({
  body: plainText(NOTE_MAX),
  mentions: z.array(userId, "must be a list of user ids").max(20, "must name at most 20 members").optional(),
});
export type NoteInput = z.infer<typeof noteInputSchema>;

export const noteUpdateSchema = z.strictObject({ body: plainText(NOTE_MAX) });

export const CALL_NOTES_MAX = 2000;

export const callInputSchema = z.strictObject({
  outcome: z.enum(CALL_OUTCOMES, "must be one of reached, voicemail, no_answer, wrong_number"),
  notes: plainText(CALL_NOTES_MAX).nullish(),
});
export type CallInput = z.infer<typeof callInputSchema>;

export const noteSchema = z.strictObject({
  id: z.string(),
  leadId: z.string(),
  body: z.string(),
  author: activityActorSchema.nullable(),
  mentions: z.array(activityActorSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Note = z.infer<typeof noteSchema>;

export const CALL_OUTCOME_LABELS: Record<CallOutcome, string> = {
  reached: "Reached",
  voicemail: "Left a voicemail",
  no_answer: "No answer",
  wrong_number: "Wrong number",
};
