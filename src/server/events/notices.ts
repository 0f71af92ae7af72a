import type { DealershipRole } from "../../shared/constants";
import type { DomainEvent, DomainEventType, LeadSnapshot } from "../../shared/events";
import type { RealtimeMessage } from "../../shared/realtime-messages";
import type { NotificationType } from "../db/schema/notifications";

// What an event says to people (decision 253): the bell's and push's words and who they concern, and the socket's
// message. The area that owns an event type writes its notice (leads/notices.ts, appointments/notices.ts, ...);
// src/server/notices.ts gathers them; the bell and push (notifications/notification-plan.ts, which decides who is told)
// and the socket (realtime/messages.ts, with realtime/audience.ts deciding who hears it) read them by event type.

type Event<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** What an event tells in the bell and by push, and to whom before notifications' rules narrow it (decision 100). */
export interface BellDraft {
  type: NotificationType;
  title: string;
  message: string;
  /** The in-app page the item opens (null: nothing left to open). */
  url: string | null;
  leadId: string | null;
  targetRoles: DealershipRole[];
  /** Concerned people (user ids) on top of the roles. */
  people: Array<string | null | undefined>;
  /** The claimer of `leadId` as it is now is concerned too (a test drive tells the client's rep). */
  leadClaimer?: boolean;
  /** A deleted lead is judged on its snapshot. */
  leadSnapshot?: LeadSnapshot;
}

/** What one event type says: in the bell and by push (null: this event tells nobody), and on the socket. */
export interface Notice<T extends DomainEventType> {
  bell?: (event: Event<T>) => BellDraft | null;
  socket?: (event: Event<T>, timestamp: string) => RealtimeMessage;
}

/** An area's notices by event type; each function gets its exact event. A type not here says nothing. */
export type Notices = { [T in DomainEventType]?: Notice<T> };

/** The areas' notices as one map; an event type has one owner, so a type given twice is a mistake. */
export function mergeNotices(maps: readonly Notices[]): Notices {
  const merged: Record<string, unknown> = {};
  for (const map of maps) {
    for (const [type, notice] of Object.entries(map)) {
      if (type in merged) throw new Error(`Two areas say what ${type} says`);
      merged[type] = notice;
    }
  }
  return merged as Notices;
}

/** The event types whose notice has the part. */
export function typesWith(notices: Notices, part: keyof Notice<DomainEventType>): DomainEventType[] {
  return (Object.keys(notices) as DomainEventType[]).filter((type) => notices[type]?.[part]);
}

/** The bell's draft of an event by its notice (null: none, or this event tells nobody). */
export function bellDraftOf(notices: Notices, event: DomainEvent): BellDraft | null {
  const bell = notices[event.type]?.bell as ((event: DomainEvent) => BellDraft | null) | undefined;
  return bell ? bell(event) : null;
}

/** The socket's message for an event by its notice (null: no screen refreshes on it). */
export function socketMessageOf(notices: Notices, event: DomainEvent, timestamp: string): RealtimeMessage | null {
  const socket = notices[event.type]?.socket as ((event: DomainEvent, timestamp: string) => RealtimeMessage) | undefined;
  return socket ? socket(event, timestamp) : null;
}
