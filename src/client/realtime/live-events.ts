import { LEAD_STATUS_LABELS, type LeadStatus } from "../../shared/constants";
import { isServerMessageType, type RealtimeData, type ServerMessageType } from "../../shared/realtime-messages";
import { LIVE_TOAST_MAX_EVENT_AGE_MS, LIVE_TOAST_QUIET_AFTER_LOAD_MS } from "./constants";

// What a real-time message means for this tab (part 2 §3 Real-time message, §4 live toasts): which data to refresh
// and which toast, if any, to show. Pure, so the rules are tested without a socket.

/**
 * A message from /ws as this tab reads it: one of the types the server sends (src/shared/realtime-messages.ts, the
 * server's own definitions), with each field of its data optional: a copy cut for a user who may not open the lead
 * leaves the name out, and lead_merged's leadId and mergedLeadId (decision 157) are absent from a nameless copy.
 */
export interface LiveMessage {
  type: ServerMessageType;
  data: Partial<RealtimeData>;
}

/** Which cached data an event makes stale; notifications and their count are refreshed for every event. */
export type LiveArea = "leads" | "appointments" | "testDrives";

export function areaOf(type: ServerMessageType): LiveArea | null {
  if (type.startsWith("lead_")) return "leads";
  if (type.startsWith("appointment_")) return "appointments";
  if (type.startsWith("test_drive_")) return "testDrives";
  return null;
}

/** A message from the socket; one that is not one of the server's types throws (the caller logs it). */
export function parseLiveMessage(text: string): LiveMessage {
  const value: unknown = JSON.parse(text);
  const type = value && typeof value === "object" ? (value as { type?: unknown }).type : undefined;
  if (typeof type !== "string" || !isServerMessageType(type)) throw new Error("not a real-time message");
  const data = (value as { data?: unknown }).data;
  return { type, data: data && typeof data === "object" ? (data as LiveMessage["data"]) : {} };
}

function statusLabel(status: string | undefined): string {
  if (!status) return "";
  return LEAD_STATUS_LABELS[status as LeadStatus] ?? status;
}

function name(data: LiveMessage["data"]): string {
  return [data.firstName, data.lastName].filter(Boolean).join(" ");
}

/** The spec's titles and texts per event type; test-drive events and anything unknown have no toast. */
export function liveToastText(message: LiveMessage): { title: string; description: string } | null {
  const { data } = message;
  switch (message.type) {
    case "lead_created":
      return { title: "New Lead", description: `New lead: ${name(data)}` };
    case "lead_claimed":
      return { title: "Lead Claimed", description: `Lead claimed: ${name(data)}` };
    case "lead_status_changed":
      return { title: "Lead Updated", description: `Lead status changed to ${statusLabel(data.status)}` };
    case "lead_merged":
      return { title: "Leads Merged", description: `Leads merged: ${name(data)}` };
    case "appointment_created":
      return { title: "New Appointment", description: `New appointment scheduled: ${data.title ?? ""}` };
    case "appointment_status_changed":
      return { title: "Appointment Updated", description: `Appointment status changed to ${data.status ?? ""}` };
    default:
      return null;
  }
}

/** What the tab knows at the moment an event arrives. */
export interface ToastContext {
  now: number;
  /** When the app loaded (performance.timeOrigin). */
  appLoadedAt: number;
  /** This tab is saving something, or saved within OWN_WRITE_ECHO_MS: the event is most likely its own echo. */
  writingRecently: boolean;
}

/** How long after its own write a tab takes an event for the echo of it (the server's events do not name the actor). */
export const OWN_WRITE_ECHO_MS = 3000;

/**
 * The toast to show now, or null when it stays quiet: during the first 30 s after the app loaded, for an event older
 * than 10 s (one delivered late), for every appointment event (spec); and, decision 116, for the echo of this tab's
 * own change (it would replace the change's own confirmation) and for a client whose name the server withheld.
 */
export function liveToast(message: LiveMessage, context: ToastContext): { title: string; description: string } | null {
  const { now, appLoadedAt, writingRecently } = context;
  if (now - appLoadedAt < LIVE_TOAST_QUIET_AFTER_LOAD_MS) return null;
  if (areaOf(message.type) === "appointments") return null;
  const at = message.data.timestamp ? Date.parse(message.data.timestamp) : Number.NaN;
  if (Number.isFinite(at) && now - at > LIVE_TOAST_MAX_EVENT_AGE_MS) return null;
  if (writingRecently) return null;
  if ((message.type === "lead_created" || message.type === "lead_claimed" || message.type === "lead_merged") && !name(message.data)) return null;
  return liveToastText(message);
}

/** Messages about the socket itself, not events: 'authenticated' (scoped) and 'error' (the last message was refused). */
export function isControlMessage(message: LiveMessage): boolean {
  return message.type === "authenticated" || message.type === "error";
}

const LEAD_PAGE = /^\/leads\/detail\/([^/]+)\/?$/;

/**
 * Where a tab showing the merged-away lead's page goes when that lead is merged into another (decision 157): the kept
 * lead's page, with a toast saying why, instead of "Lead Not Found". Null when this tab is not on that page, or the
 * message does not name the kept lead (a nameless copy: the rep may not open it).
 */
export function mergedLeadRedirect(message: LiveMessage, pathname: string): { to: string; toast: { title: string; description: string } } | null {
  if (message.type !== "lead_merged") return null;
  const { leadId, mergedLeadId } = message.data;
  if (typeof leadId !== "string" || typeof mergedLeadId !== "string" || !leadId || !mergedLeadId) return null;
  const open = LEAD_PAGE.exec(pathname)?.[1];
  if (!open || decodeURIComponent(open) !== mergedLeadId) return null;
  const into = name(message.data);
  return {
    to: `/leads/detail/${encodeURIComponent(leadId)}`,
    toast: { title: "Lead Merged", description: into ? `This lead was merged into ${into}.` : "This lead was merged into another lead." },
  };
}

/**
 * Events that reach a hidden tab wait until it is shown again (decision 156): refreshing would make requests, and each
 * request slides the session's idle expiry, so a tab left open on a lot computer would stay signed in on other
 * people's work. Without the socket a hidden tab asks nothing; with it, it asks nothing either until someone looks.
 * One event per kind is kept (the latest; a merge per merged-away lead), so a tab hidden for days holds a handful, not
 * thousands; they are handed back once the tab is visible. Toasts are left to their own silences.
 */
export class HeldWhileHidden {
  private held = new Map<string, LiveMessage>();

  constructor(private readonly isHidden: () => boolean) {}

  /** True: handle the message now. False: the tab is hidden and the message is kept for later. */
  offer(message: LiveMessage): boolean {
    if (!this.isHidden()) return true;
    this.held.set(`${message.type} ${message.type === "lead_merged" ? (message.data.mergedLeadId ?? "") : ""}`, message);
    return false;
  }

  /** What was kept while hidden, one per kind, in the order each kind first came; nothing once taken. */
  take(): LiveMessage[] {
    const held = [...this.held.values()];
    this.held.clear();
    return held;
  }
}
