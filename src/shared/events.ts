import { z } from "zod";
import { APPOINTMENT_STATUSES, DEALERSHIP_ROLES, LEAD_STATUSES } from "./constants";
import { TEST_DRIVE_STATUSES, TEST_DRIVE_VEHICLE_TYPES } from "./schemas/test-drive";

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

export const dealershipSnapshotSchema = z.object({ id: z.string(), name: z.string() });

export const domainEventPayloads = {
  "lead.created": z.object({ lead: leadSnapshotSchema }),
  /** Claimed by a rep, or assigned to one by front desk or management (then the actor is not the claimer). */
  "lead.claimed": z.object({ lead: leadSnapshotSchema, claimedBy: person }),
  "lead.status_changed": z.object({ lead: leadSnapshotSchema, previousStatus: z.enum(LEAD_STATUSES) }),
  "lead.deleted": z.object({ lead: leadSnapshotSchema }),
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
  /** An invitation e-mailed, first time or resent, from the admin panel or the platform screens (issue 10). */
  "team.invitation_sent": z.object({ invitation: invitationSnapshotSchema, invitedBy: person }),
  "team.member_role_changed": z.object({ member: memberSnapshotSchema, previousRole: z.enum(DEALERSHIP_ROLES), role: z.enum(DEALERSHIP_ROLES) }),
  /** The member's claimed leads went back to New Leads; their sessions ended. */
  "team.member_removed": z.object({ member: memberSnapshotSchema, returnedLeads: z.number().int() }),
  "dealership.created": z.object({ dealership: dealershipSnapshotSchema }),
  "dealership.updated": z.object({ dealership: dealershipSnapshotSchema }),
  /** Taken out of service by a platform admin (decision 090): everyone listed lost access at once. */
  "dealership.deleted": z.object({
    dealership: dealershipSnapshotSchema,
    removedMembers: z.array(memberSnapshotSchema),
    returnedLeads: z.number().int(),
  }),
} as const;

export type DomainEventType = keyof typeof domainEventPayloads;
export const DOMAIN_EVENT_TYPES = Object.keys(domainEventPayloads) as DomainEventType[];

export type DomainEventPayload<T extends DomainEventType> = z.infer<(typeof domainEventPayloads)[T]>;

/** An event as published: which dealership it belongs to and who caused it (null for the system). */
export type DomainEvent = {
  [T in DomainEventType]: { type: T; dealershipId: string; actorId: string | null; payload: DomainEventPayload<T> };
}[DomainEventType];

/** Parses an event read back from the outbox; throws on an unknown type or a payload that does not fit. */
export function parseDomainEvent(raw: { type: string; dealershipId: string | null; actorId: string | null; payload: unknown }): DomainEvent {
  const schema = domainEventPayloads[raw.type as DomainEventType];
  if (!schema) throw new Error(`unknown domain event type ${raw.type}`);
  return { type: raw.type, dealershipId: raw.dealershipId ?? "", actorId: raw.actorId, payload: schema.parse(raw.payload) } as DomainEvent;
}
