import type { RealtimeMessage } from "../../shared/realtime-messages";
import type { DomainEvent } from "../../shared/events";
import { socketMessageOf } from "../events/notices";
import { notices } from "../notices";

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

/**
 * The spec's message for a domain event, or null for events no screen refreshes on (team, dealership, inventory,
 * edits): the socket part of the event's notice, written by the area that owns the event (decision 253).
 */
export function realtimeMessageOf(event: DomainEvent, at: Date): RealtimeMessage | null {
  return socketMessageOf(notices, event, at.toISOString());
}

/**
 * The same message without whose client it is: a list refresh for someone who may not see the client (decision 106).
 * A merge's copy names neither lead either (decision 157): the ids would tie a client they may not open to another.
 */
export function withoutClient(message: RealtimeMessage): RealtimeMessage {
  const { leadId: _kept, mergedLeadId: _merged, ...data } = message.data;
  return { type: message.type, data: { ...data, firstName: "", lastName: "" } };
}
