import { z } from "zod";
import type { DomainEvent } from "../../shared/events";

// What travels over /ws (spec part 2 §3 "Real-time message", §7 "WebSocket /ws"; decision 105).

/** Largest message a client may send; an auth message is under 200 bytes. ws closes a larger one with 1009. */
export const MAX_CLIENT_MESSAGE_BYTES = 4096;

/**
 * The one message a client sends: which dealership it is looking at. `userId` is accepted and ignored: the user is
 * the session cookie's, never what the page says.
 */
export const clientMessageSchema = z.object({
  type: z.literal("auth"),
  userId: z.unknown().optional(),
  dealershipId: z.string().trim().min(1).max(100),
});
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const REALTIME_EVENT_TYPES = [
  "lead_created",
  "lead_claimed",
  "lead_status_changed",
  "lead_deleted",
  "lead_merged",
  "appointment_created",
  "appointment_status_changed",
  "test_drive_updated",
] as const;
export type RealtimeEventType = (typeof REALTIME_EVENT_TYPES)[number];

export interface RealtimeData {
  firstName: string;
  lastName: string;
  status: string;
  title: string;
  timestamp: string;
  /** lead_merged only (decision 157): the lead kept, and the one folded into it and deleted. */
  leadId?: string;
  mergedLeadId?: string;
}

export interface RealtimeMessage {
  type: RealtimeEventType;
  data: RealtimeData;
}

/** What the server says besides events: the socket is scoped, or what was wrong with the last message. */
export type ControlMessage =
  | { type: "authenticated"; data: { dealershipId: string; role: string } }
  | { type: "error"; data: { message: string } };

/** The spec's message for a domain event, or null for events no screen refreshes on (team, dealership). */
export function realtimeMessageOf(event: DomainEvent, at: Date): RealtimeMessage | null {
  const timestamp = at.toISOString();
  switch (event.type) {
    case "lead.created":
    case "lead.claimed":
    case "lead.status_changed":
    case "lead.deleted": {
      const { lead } = event.payload;
      const type = event.type === "lead.created" ? "lead_created" : event.type === "lead.claimed" ? "lead_claimed" : event.type === "lead.deleted" ? "lead_deleted" : "lead_status_changed";
      return { type, data: { firstName: lead.firstName, lastName: lead.lastName, status: lead.status, title: "", timestamp } };
    }
    case "lead.merged": {
      // The kept lead as it now is, and which lead went into it: an open page of the merged-away lead moves there.
      const { lead, merged } = event.payload;
      return {
        type: "lead_merged",
        data: { firstName: lead.firstName, lastName: lead.lastName, status: lead.status, title: "", timestamp, leadId: lead.id, mergedLeadId: merged.id },
      };
    }
    case "appointment.created":
    case "appointment.status_changed": {
      const { appointment } = event.payload;
      return {
        type: event.type === "appointment.created" ? "appointment_created" : "appointment_status_changed",
        data: { firstName: appointment.firstName, lastName: appointment.lastName, status: appointment.status, title: appointment.title, timestamp },
      };
    }
    case "test_drive.taken_out":
    case "test_drive.returned":
    case "test_drive.status_changed": {
      const { testDrive } = event.payload;
      return {
        type: "test_drive_updated",
        data: { firstName: testDrive.firstName, lastName: testDrive.lastName, status: testDrive.status, title: testDrive.vehicleDriven ?? "", timestamp },
      };
    }
    default:
      return null;
  }
}

/**
 * The same message without whose client it is: a list refresh for someone who may not see the client (decision 106).
 * A merge's copy names neither lead either (decision 157): the ids would tie a client they may not open to another.
 */
export function withoutClient(message: RealtimeMessage): RealtimeMessage {
  const { leadId: _kept, mergedLeadId: _merged, ...data } = message.data;
  return { type: message.type, data: { ...data, firstName: "", lastName: "" } };
}
