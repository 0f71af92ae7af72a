// What travels over /ws (spec part 2 §3 "Real-time message", §7 "WebSocket /ws"; decisions 105, 190): the one message
// a page sends, and every message the server sends. The server builds them (each event's notice in its area's
// notices.ts, read by src/server/realtime/messages.ts) and the client reads them (src/client/realtime/live-events.ts)
// with these types.
// No zod here: the page's live code (LiveShell) imports this file, and zod with its schemas costs a phone's main thread
// a long task to evaluate right after the first screen (issue 32). The page's own message and its schema, which only
// the server parses, are in ./realtime-client-message.ts.

export type { ClientMessage } from "./realtime-client-message";

export const REALTIME_EVENT_TYPES = [
  "lead_created",
  "lead_claimed",
  "lead_status_changed",
  "lead_deleted",
  "lead_merged",
  /** A deleted lead brought back by management (issue 30): lists show it again. */
  "lead_restored",
  "appointment_created",
  "appointment_status_changed",
  "test_drive_updated",
  /** A note or logged call on a lead (issue 26): an open page of that lead refreshes its timeline. */
  "lead_activity",
] as const;
export type RealtimeEventType = (typeof REALTIME_EVENT_TYPES)[number];

export interface RealtimeData {
  firstName: string;
  lastName: string;
  status: string;
  title: string;
  timestamp: string;
  /** lead_merged (decision 157): the lead kept, and the one folded into it and deleted; lead_activity: its lead. */
  leadId?: string;
  mergedLeadId?: string;
}

/** A domain event as a page hears it (cut to what its user may see, decision 106). */
export interface RealtimeMessage {
  type: RealtimeEventType;
  data: RealtimeData;
}

/** What the server says besides events: the socket is scoped, or what was wrong with the last message. */
export type ControlMessage =
  | { type: "authenticated"; data: { dealershipId: string; role: string } }
  | { type: "error"; data: { message: string } };

/** Every message the server sends on /ws. */
export type ServerMessage = RealtimeMessage | ControlMessage;
export type ServerMessageType = ServerMessage["type"];

const SERVER_MESSAGE_TYPES: ReadonlySet<string> = new Set<ServerMessageType>([...REALTIME_EVENT_TYPES, "authenticated", "error"]);

export function isServerMessageType(type: string): type is ServerMessageType {
  return SERVER_MESSAGE_TYPES.has(type);
}
