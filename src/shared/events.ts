import { z } from "zod";
import { APPOINTMENT_STATUSES, DEALERSHIP_ROLES, LEAD_STATUSES } from "./constants";
import { LEAD_SOURCES } from "./lead-source";
import { TEST_DRIVE_STATUSES, TEST_DRIVE_VEHICLE_TYPES } from "./schemas/test-drive";
import { TASK_STATUSES, TASK_TYPES } from "./schemas/task";

// Domain events (decision 051): what happened, written to the outbox in the transaction of the change. E-mail
// triggers run from them today; in-app notifications, the real-time socket and web push attach to the same events.
// Payloads carry a snapshot of what a subscriber needs (a deleted lead has no row left to read) and ids to act on.

export const leadSnapshotSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  description: z.string().nullable(),
  status: z.enum(LEAD_STATUSES),
  claimedBy: z.string().nullable(),
});
export type LeadSnapshot = z.infer<typeof leadSnapshotSchema>;

export const appointmentSnapshotSchema = z.object({
  id: z.string(),
  leadId: z.string().nullable(),
  title: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  date: z.string(),
  time: z.string(),
  status: z.enum(APPOINTMENT_STATUSES),
  assignedTo: z.string().nullable(),
  createdBy: z.string().nullable(),
});
export type AppointmentSnapshot = z.infer<typeof appointmentSnapshotSchema>;

/** A test drive as its events carry it (issue 9): who, which vehicle, where it stands. */
export const testDriveSnapshotSchema = z.object({
  id: z.string(),
  leadId: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  vehicleType: z.enum(TEST_DRIVE_VEHICLE_TYPES),
  vehicleId: z.string().nullable(),
  tduId: z.string().nullable(),
  vehicleDriven: z.string().nullable(),
  stockNumber: z.string().nullable(),
  testDriveDate: z.string().nullable(),
  testDriveTime: z.string().nullable(),
  status: z.enum(TEST_DRIVE_STATUSES),
  takenOutBy: z.string().nullable(),
  takenOutAt: z.string().nullable(),
  returnedAt: z.string().nullable(),
  duration: z.number().nullable(),
});
export type TestDriveSnapshot = z.infer<typeof testDriveSnapshotSchema>;

const person = z.object({ id: z.string(), name: z.string() });

/** A follow-up task as its events carry it (issue 27), with the lead's name for the words of a reminder. */
export const taskSnapshotSchema = z.object({
  id: z.string(),
  leadId: z.string(),
  leadName: z.string(),
  type: z.enum(TASK_TYPES),
  dueAt: z.string(),
  assigneeId: z.string().nullable(),
  status: z.enum(TASK_STATUSES),
  note: z.string().nullable(),
  /** The follow-up rule that made it, if one did. */
  origin: z.string().nullable(),
});
export type TaskSnapshot = z.infer<typeof taskSnapshotSchema>;

/** A note on a lead as its events carry it (issue 26). */
export const noteSnapshotSchema = z.object({ id: z.string(), body: z.string(), authorId: z.string().nullable(), mentions: z.array(z.string()) });
export type NoteSnapshot = z.infer<typeof noteSnapshotSchema>;

/** A logged call as its event carries it (issue 26). */
export const callSnapshotSchema = z.object({
  id: z.string(),
  outcome: z.enum(["reached", "voicemail", "no_answer", "wrong_number"]),
  notes: z.string().nullable(),
});
export type CallSnapshot = z.infer<typeof callSnapshotSchema>;

/** A mail of the lead's conversation with the customer as its events carry it (issue 26, decision 228). */
export const emailSnapshotSchema = z.object({
  id: z.string(),
  direction: z.enum(["out", "in"]),
  subject: z.string(),
  body: z.string(),
  from: z.string(),
  to: z.string(),
  messageId: z.string(),
  /** A reply: the id of the mail of the conversation it answers, when In-Reply-To/References name one. */
  inReplyToId: z.string().nullable(),
  attachments: z.array(z.object({ name: z.string(), size: z.number().int() })),
});
export type EmailSnapshot = z.infer<typeof emailSnapshotSchema>;

/** A template as its events carry it: which one, not its text. */
export const emailTemplateSnapshotSchema = z.object({ id: z.string(), name: z.string() });

/** A member as team events carry them: enough to tell them by e-mail after they lost access (issue 10). */
const memberSnapshotSchema = person.extend({ email: z.string() });

export const invitationSnapshotSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.enum(DEALERSHIP_ROLES),
  expiresAt: z.string(),
});
export type InvitationSnapshot = z.infer<typeof invitationSnapshotSchema>;

export const dealershipSnapshotSchema = z.object({ id: z.string(), name: z.string() });

/** An import's event lists this many of its leads (in the order they came); the rest are counted. */
export const IMPORT_LEADS_LISTED = 25;

/** One edited field: what it was and what it became. */
const change = <T extends z.ZodTypeAny>(value: T) => z.object({ before: value, after: value });

/** The fields of a lead edit (PATCH /api/leads/{id}), each present only when its value changed. */
export const leadChangesSchema = z.object({
  firstName: change(z.string()).optional(),
  lastName: change(z.string()).optional(),
  email: change(z.string().nullable()).optional(),
  phone: change(z.string().nullable()).optional(),
  description: change(z.string().nullable()).optional(),
  status: change(z.enum(LEAD_STATUSES)).optional(),
  /** Set with a move to Lost, cleared when the lead leaves Lost (decision 202). */
  lostReason: change(z.string().nullable()).optional(),
});
export type LeadChanges = z.infer<typeof leadChangesSchema>;

/** The fields of a test-drive edit (PATCH /api/test-drives/{id}), each present only when its value changed. */
export const testDriveChangesSchema = z.object({
  vehicleDriven: change(z.string().nullable()).optional(),
  stockNumber: change(z.string().nullable()).optional(),
  testDriveDate: change(z.string().nullable()).optional(),
  testDriveTime: change(z.string().nullable()).optional(),
  notes: change(z.string().nullable()).optional(),
});
export type TestDriveChanges = z.infer<typeof testDriveChangesSchema>;

/** A vehicle of the inventory as its events carry it. */
export const vehicleSnapshotSchema = z.object({
  id: z.string(),
  stockNumber: z.string(),
  year: z.string(),
  make: z.string(),
  model: z.string(),
  trim: z.string().nullable(),
  condition: z.enum(["new", "used"]),
  vin: z.string().nullable(),
});
export type VehicleSnapshot = z.infer<typeof vehicleSnapshotSchema>;

/** A test-drive unit (a demo car kept for drives) as its events carry it. */
export const unitSnapshotSchema = z.object({ id: z.string(), stockNumber: z.string(), year: z.string(), make: z.string(), model: z.string() });
export type UnitSnapshot = z.infer<typeof unitSnapshotSchema>;

/** A status change (and a return to the pool, lead.unclaimed): the status before, and the edit's other fields. */
const leadStatusChangedSchema = z.object({
  lead: leadSnapshotSchema,
  previousStatus: z.enum(LEAD_STATUSES),
  /** Every field the same edit changed, status included (absent on events written before it was added). */
  changes: leadChangesSchema.optional(),
});
/** Claimed by the rep themselves (lead.claimed) or assigned to them by someone else (lead.assigned): the same shape. */
const leadClaimedSchema = z.object({ lead: leadSnapshotSchema, claimedBy: person });

/** An API token as its events carry it (issue 28): never the token or its hash. */
export const apiTokenSnapshotSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(DEALERSHIP_ROLES),
  expiresAt: z.string().nullable(),
});

/** A webhook as its events carry it (issue 28): never its secret. */
export const webhookSnapshotSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
});

export const domainEventPayloads = {
  /** `importId`: the lead came with others in one import, whose leads.imported event tells about them together. */
  "lead.created": z.object({ lead: leadSnapshotSchema, importId: z.string().optional() }),
  /**
   * Several leads came in at once, in one transaction (an ADF document with more than one prospect; decision 174).
   * Each also has its lead.created, carrying `importId`. E-mail goes once per import, listing `leads` (the first
   * IMPORT_LEADS_LISTED of `total`).
   */
  "leads.imported": z.object({
    importId: z.string(),
    /**
     * An ADF document (each lead also has its lead.created), or a CSV file (decision 135: no lead.created per row and
     * no mail; this one event records the import).
     */
    file: z.enum(["adf", "csv"]).default("adf"),
    source: z.enum(LEAD_SOURCES),
    /** Who sent them (the intake credential's name), when known. */
    provider: z.string().nullable(),
    total: z.number().int(),
    leads: z.array(leadSnapshotSchema.pick({ id: true, firstName: true, lastName: true, email: true, phone: true })).max(IMPORT_LEADS_LISTED),
  }),
  /** Claimed by a rep from New Leads (the actor is the claimer). */
  "lead.claimed": leadClaimedSchema,
  /**
   * Given to a rep by front desk or management when the lead was created (the actor is not the claimer; its
   * lead.created comes first). Written as lead.claimed before decision 184: subscribers take both.
   */
  "lead.assigned": leadClaimedSchema,
  /**
   * The status changed (PATCH /api/leads/{id} or /status). An edit that also changed other fields publishes only this
   * event, with every changed field in `changes` (decision 184: one change, one event).
   */
  "lead.status_changed": leadStatusChangedSchema,
  /**
   * Back to New Leads: a claimed lead's status set to "new", its claim cleared (decision 184). The same payload and the
   * same subscribers as lead.status_changed; written as lead.status_changed before.
   */
  "lead.unclaimed": leadStatusChangedSchema,
  /** An edit of the lead's details that left its status alone: each changed field, before and after. */
  "lead.updated": z.object({ lead: leadSnapshotSchema, changes: leadChangesSchema }),
  /** `mergedInto`: deleted by a merge into that lead (issue 29): the bell says "merged into" and links there. */
  "lead.deleted": z.object({ lead: leadSnapshotSchema, mergedInto: leadSnapshotSchema.pick({ id: true, firstName: true, lastName: true }).optional() }),
  /**
   * Management brought back a lead deleted or merged away in the last 30 days (issue 30, decision 214), under its own
   * id, with what it had: `restored` counts the rows put back. `unmergedFrom`: it had been merged into that lead and
   * comes back apart, with its own history.
   */
  "lead.restored": z.object({
    lead: leadSnapshotSchema,
    deletedAt: z.string(),
    unmergedFrom: leadSnapshotSchema.pick({ id: true, firstName: true, lastName: true }).optional(),
    restored: z.object({
      appointments: z.number().int(),
      testDrives: z.number().int(),
      tasks: z.number().int(),
      notes: z.number().int(),
      calls: z.number().int(),
      emails: z.number().int(),
      entries: z.number().int(),
    }),
  }),
  /** Two leads of one customer became one (decision 138): `merged` was folded into `lead` and deleted (lead.deleted too). */
  "lead.merged": z.object({
    lead: leadSnapshotSchema,
    merged: leadSnapshotSchema,
    movedAppointments: z.number().int(),
    movedTestDrives: z.number().int(),
  }),
  /** New leads nobody answered within the dealership's set minutes (decision 142): management is e-mailed once per lead. */
  "lead.unattended": z.object({
    leads: z.array(z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string().nullable(), phone: z.string().nullable(), createdAt: z.string() })),
    minutes: z.number().int(),
  }),
  "appointment.created": z.object({ appointment: appointmentSnapshotSchema }),
  "appointment.status_changed": z.object({
    appointment: appointmentSnapshotSchema,
    previousStatus: z.enum(APPOINTMENT_STATUSES),
  }),
  /** A vehicle, unit or hand-entered car left with a client (POST /api/test-drives, or a booking set in progress). */
  "test_drive.taken_out": z.object({ testDrive: testDriveSnapshotSchema, takenOutBy: person }),
  /** The drive ended: returnedAt, duration, the vehicle available again. */
  "test_drive.returned": z.object({ testDrive: testDriveSnapshotSchema, returnedBy: person }),
  /** The detail screen's status change; a change that takes out or returns publishes that event as well. */
  "test_drive.status_changed": z.object({ testDrive: testDriveSnapshotSchema, previousStatus: z.enum(TEST_DRIVE_STATUSES) }),
  /** Follow-up tasks (issue 27): one event per change of a task. */
  "task.created": z.object({ task: taskSnapshotSchema }),
  "task.completed": z.object({ task: taskSnapshotSchema }),
  "task.cancelled": z.object({ task: taskSnapshotSchema }),
  /** A new due time (and maybe a note): the reminder is due again at the new time. */
  "task.rescheduled": z.object({ task: taskSnapshotSchema, previousDueAt: z.string() }),
  /** A new assignee (and maybe a new due time or note in the same change). */
  "task.reassigned": z.object({ task: taskSnapshotSchema, previousAssigneeId: z.string().nullable(), previousDueAt: z.string() }),
  /** Only the note changed. */
  "task.note_changed": z.object({ task: taskSnapshotSchema }),
  /** Its due time came: the assignee is reminded (bell and push), once per due time. */
  "task.due": z.object({ task: taskSnapshotSchema }),
  /** Management changed the automatic follow-up rules (issue 27, decision 200): the rules before and after. */
  "follow_up_rules.updated": z.object({ rules: z.record(z.string(), z.unknown()), previous: z.record(z.string(), z.unknown()) }),
  /** Management changed how new leads are handed out (decision 201): the settings before and after. */
  "lead_distribution.updated": z.object({
    settings: z.object({ mode: z.string(), autoAssignAfterMinutes: z.number().int().nullable() }),
    previous: z.object({ mode: z.string(), autoAssignAfterMinutes: z.number().int().nullable() }),
  }),
  /** A sales rep came on the floor or left it (decision 201): only reps on the floor are given new leads. */
  "rep.availability_changed": z.object({ rep: person, onFloor: z.boolean() }),
  /** Management changed the dealership's lost reasons (decision 202): the list before and after. */
  "lost_reasons.updated": z.object({ reasons: z.array(z.string()), previous: z.array(z.string()) }),
  /** The detail screen's edit of vehicle, stock number, date, time or notes: each changed field, before and after. */
  "test_drive.updated": z.object({ testDrive: testDriveSnapshotSchema, changes: testDriveChangesSchema }),
  /** Deleted (decision 064); an open drive's vehicle or unit was freed with it. */
  "test_drive.deleted": z.object({ testDrive: testDriveSnapshotSchema }),
  /** Booked for later (POST /api/test-drives with status "scheduled"): no vehicle leaves yet (issue 26's timeline). */
  "test_drive.booked": z.object({ testDrive: testDriveSnapshotSchema }),
  /** A note on a lead (issue 26); `mentions`: the members it names, each notified once. */
  "note.added": z.object({ lead: leadSnapshotSchema, note: noteSnapshotSchema }),
  /** Its author changed the text: the text before and after. */
  "note.edited": z.object({ lead: leadSnapshotSchema, note: noteSnapshotSchema, previousBody: z.string() }),
  /** Deleted by its author or by management; the text it had. */
  "note.deleted": z.object({ lead: leadSnapshotSchema, note: noteSnapshotSchema }),
  /** A call to the customer, logged with its outcome (issue 26); a first answer for speed to lead. */
  "call.logged": z.object({ lead: leadSnapshotSchema, call: callSnapshotSchema }),
  /** An e-mail to the customer, queued from the lead page (issue 26): its delivery follows as email.delivery_updated. */
  "email.sent": z.object({ lead: leadSnapshotSchema, email: emailSnapshotSchema }),
  /** The mail queue's final outcome of a sent e-mail: delivered to the SMTP server, or failed after its last try. */
  "email.delivery_updated": z.object({
    lead: leadSnapshotSchema,
    email: z.object({ id: z.string(), status: z.enum(["sent", "failed"]), error: z.string().nullable() }),
  }),
  /** The customer's reply, received at the lead's reply address: the lead's rep is told (bell and push). */
  "email.received": z.object({ lead: leadSnapshotSchema, email: emailSnapshotSchema }),
  /** Management's e-mail templates (issue 26). */
  "email_template.created": z.object({ template: emailTemplateSnapshotSchema }),
  "email_template.updated": z.object({ template: emailTemplateSnapshotSchema }),
  "email_template.deleted": z.object({ template: emailTemplateSnapshotSchema }),
  "vehicle.added": z.object({ vehicle: vehicleSnapshotSchema }),
  /** Removed from the inventory (never while out; past drives keep its name and stock number). */
  "vehicle.removed": z.object({ vehicle: vehicleSnapshotSchema }),
  "unit.added": z.object({ unit: unitSnapshotSchema }),
  "unit.removed": z.object({ unit: unitSnapshotSchema }),
  /** An invitation e-mailed, first time or resent, from the admin panel or the platform screens (issue 10). */
  "team.invitation_sent": z.object({ invitation: invitationSnapshotSchema, invitedBy: person }),
  /** A pending or expired invitation withdrawn by management or a platform admin (issue 25): its link stops working. */
  "team.invitation_deleted": z.object({ invitation: invitationSnapshotSchema }),
  "team.member_role_changed": z.object({ member: memberSnapshotSchema, previousRole: z.enum(DEALERSHIP_ROLES), role: z.enum(DEALERSHIP_ROLES) }),
  /** The member's claimed leads went back to New Leads; their sessions ended. */
  "team.member_removed": z.object({ member: memberSnapshotSchema, returnedLeads: z.number().int() }),
  "dealership.created": z.object({ dealership: dealershipSnapshotSchema }),
  "dealership.updated": z.object({ dealership: dealershipSnapshotSchema }),
  /**
   * Management saved the Settings tab (issue 30, decision 191): each changed field before and after (details, time
   * zone, business hours). The first save publishes even with nothing changed: it confirms the defaults.
   */
  "dealership.settings_changed": z.object({
    dealership: dealershipSnapshotSchema,
    changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
  }),
  /** Management dismissed the first-run checklist, for the whole dealership (decision 192). */
  "dealership.first_run_dismissed": z.object({ dealership: dealershipSnapshotSchema }),
  /** Taken out of service by a platform admin (decision 090): everyone listed lost access at once. */
  /** Management created or revoked an API token (issue 28): its name and role, never the token. */
  "api_token.created": z.object({ token: apiTokenSnapshotSchema }),
  "api_token.revoked": z.object({ token: apiTokenSnapshotSchema }),
  /** Management added, changed or removed a webhook (issue 28): its address and events, never its secret. */
  "webhook.created": z.object({ webhook: webhookSnapshotSchema }),
  "webhook.updated": z.object({ webhook: webhookSnapshotSchema }),
  "webhook.deleted": z.object({ webhook: webhookSnapshotSchema }),
  "dealership.deleted": z.object({
    dealership: dealershipSnapshotSchema,
    removedMembers: z.array(memberSnapshotSchema),
    returnedLeads: z.number().int(),
  }),
} as const;

export type DomainEventType = keyof typeof domainEventPayloads;
export const DOMAIN_EVENT_TYPES = Object.keys(domainEventPayloads) as DomainEventType[];

/**
 * Each event type's payload version, written with every event (domain_events.version). Adding an optional field keeps
 * the version; renaming, removing or retyping one takes the next, and readers (webhooks, the timeline) branch on it.
 */
export const DOMAIN_EVENT_VERSIONS: { readonly [T in DomainEventType]: number } = Object.fromEntries(
  DOMAIN_EVENT_TYPES.map((type) => [type, 1]),
) as { [T in DomainEventType]: number };

export type DomainEventPayload<T extends DomainEventType> = z.infer<(typeof domainEventPayloads)[T]>;

/** An event as published: which dealership it belongs to and who caused it (null for the system). */
export type DomainEvent = {
  [T in DomainEventType]: { type: T; dealershipId: string; actorId: string | null; payload: DomainEventPayload<T> };
}[DomainEventType];

/**
 * The one serializer of each event's payload (issue 25): checked against its schema, then JSON. publish() writes what
 * this answers; the claim's statement builds the same shape in SQL from the same schema (server/events/outbox.ts
 * jsonObjectSql, decision 185).
 */
export function serializeEventPayload<T extends DomainEventType>(type: T, payload: DomainEventPayload<T>): string {
  return JSON.stringify(domainEventPayloads[type].parse(payload));
}

/** Parses an event read back from the outbox; throws on an unknown type or a payload that does not fit. */
export function parseDomainEvent(raw: { type: string; dealershipId: string | null; actorId: string | null; payload: unknown }): DomainEvent {
  const schema = domainEventPayloads[raw.type as DomainEventType];
  if (!schema) throw new Error(`unknown domain event type ${raw.type}`);
  return { type: raw.type, dealershipId: raw.dealershipId ?? "", actorId: raw.actorId, payload: schema.parse(raw.payload) } as DomainEvent;
}
