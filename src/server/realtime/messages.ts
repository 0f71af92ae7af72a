import type { RealtimeEventType, RealtimeMessage } from "../../shared/realtime-messages";
import type { DomainEvent, DomainEventType } from "../../shared/events";

// What travels over /ws (spec part 2 §3 "Real-time message", §7 "WebSocket /ws"; decision 105).

/** Largest message a client may send; an auth message is under 200 bytes. ws closes a larger one with 1009. */
export const MAX_CLIENT_MESSAGE_BYTES = 4096;

/**
 * The characters of our ids (nanoid: letters, digits, '_' and '-'). An auth message naming anything else is no page's
 * (it carried a NUL, which PostgreSQL refuses in text: a failed query, close 1011 and an error in the log): the socket
 * is closed as for any message against the protocol (1008; decision 172).
 */
export const DEALERSHIP_ID_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

// The messages themselves are defined in shared, where the client reads them too (decision 190).
export { clientMessageSchema } from "../../shared/realtime-client-message";
export { REALTIME_EVENT_TYPES } from "../../shared/realtime-messages";
export type { ClientMessage, ControlMessage, RealtimeData, RealtimeEventType, RealtimeMessage } from "../../shared/realtime-messages";

type Event<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
type Say<T extends DomainEventType> = (event: Event<T>, timestamp: string) => RealtimeMessage;

type LeadEvent = Event<"lead.created" | "lead.claimed" | "lead.assigned" | "lead.status_changed" | "lead.unclaimed" | "lead.deleted" | "lead.restored">;

function leadMessage(type: RealtimeEventType) {
  return (event: LeadEvent, timestamp: string): RealtimeMessage => {
    const { lead } = event.payload;
    return { type, data: { firstName: lead.firstName, lastName: lead.lastName, status: lead.status, title: "", timestamp } };
  };
}

function appointmentMessage(type: RealtimeEventType) {
  return (event: Event<"appointment.created" | "appointment.status_changed">, timestamp: string): RealtimeMessage => {
    const { appointment } = event.payload;
    return { type, data: { firstName: appointment.firstName, lastName: appointment.lastName, status: appointment.status, title: appointment.title, timestamp } };
  };
}

function driveMessage(event: Event<"test_drive.taken_out" | "test_drive.returned" | "test_drive.status_changed">, timestamp: string): RealtimeMessage {
  const { testDrive } = event.payload;
  return {
    type: "test_drive_updated",
    data: { firstName: testDrive.firstName, lastName: testDrive.lastName, status: testDrive.status, title: testDrive.vehicleDriven ?? "", timestamp },
  };
}

type LeadActivityEvent = Event<"note.added" | "note.edited" | "note.deleted" | "call.logged" | "email.sent" | "email.delivery_updated" | "email.received">;

function activityMessage(event: LeadActivityEvent, timestamp: string): RealtimeMessage {
  const { lead } = event.payload;
  return { type: "lead_activity", data: { firstName: lead.firstName, lastName: lead.lastName, status: lead.status, title: event.type, timestamp, leadId: lead.id } };
}

/** The socket's message for each event type; a type not here (team, dealership, inventory, edits) refreshes no screen. */
const messages: { [T in DomainEventType]?: Say<T> } = {
  "lead.created": leadMessage("lead_created"),
  "lead.claimed": leadMessage("lead_claimed"),
  "lead.assigned": leadMessage("lead_claimed"),
  "lead.status_changed": leadMessage("lead_status_changed"),
  "lead.unclaimed": leadMessage("lead_status_changed"),
  "lead.deleted": leadMessage("lead_deleted"),
  "lead.restored": leadMessage("lead_restored"),
  // The kept lead as it now is, and which lead went into it: an open page of the merged-away lead moves there.
  "lead.merged": (event, timestamp) => {
    const { lead, merged } = event.payload;
    return {
      type: "lead_merged",
      data: { firstName: lead.firstName, lastName: lead.lastName, status: lead.status, title: "", timestamp, leadId: lead.id, mergedLeadId: merged.id },
    };
  },
  "appointment.created": appointmentMessage("appointment_created"),
  "appointment.status_changed": appointmentMessage("appointment_status_changed"),
  "test_drive.taken_out": driveMessage,
  "test_drive.returned": driveMessage,
  "test_drive.status_changed": driveMessage,
  "note.added": activityMessage,
  "note.edited": activityMessage,
  "note.deleted": activityMessage,
  "call.logged": activityMessage,
  "email.sent": activityMessage,
  "email.delivery_updated": activityMessage,
  "email.received": activityMessage,
};

/** The spec's message for a domain event, or null for events no screen refreshes on. */
export function realtimeMessageOf(event: DomainEvent, at: Date): RealtimeMessage | null {
  const say = messages[event.type] as Say<DomainEventType> | undefined;
  return say ? say(event, at.toISOString()) : null;
}

/**
 * The same message without whose client it is: a list refresh for someone who may not see the client (decision 106).
 * A merge's copy names neither lead either (decision 157): the ids would tie a client they may not open to another.
 */
export function withoutClient(message: RealtimeMessage): RealtimeMessage {
  const { leadId: _kept, mergedLeadId: _merged, ...data } = message.data;
  return { type: message.type, data: { ...data, firstName: "", lastName: "" } };
}
