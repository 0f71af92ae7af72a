import type { DealershipRole } from "../../shared/constants";
import { LEAD_STATUS_LABELS } from "../../shared/constants";
import type { DomainEvent, DomainEventType } from "../../shared/events";
import { fullName } from "../../shared/format";
import type { RealtimeEventType, RealtimeMessage } from "../../shared/realtime-messages";
import type { BellDraft, Notices } from "../events/notices";

// What the leads' events say (decision 253): in the bell and by push (who is told is notifications' rule, decision
// 100), and on the socket (who hears it is realtime/audience.ts, decision 106). Notes and calls are the lead's too.

type Event<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** The lead's page, where a notice about it opens. */
export const leadUrl = (id: string) => `/leads/detail/${id}`;

function claimedDraft(event: Event<"lead.claimed" | "lead.assigned">): BellDraft | null {
  const { lead, claimedBy } = event.payload;
  const assigned = event.actorId !== claimedBy.id;
  return {
    type: "lead_claimed",
    title: "Lead Claimed",
    message: assigned ? `Lead assigned to ${claimedBy.name}: ${fullName(lead)}` : `Lead claimed: ${fullName(lead)} by ${claimedBy.name}`,
    url: leadUrl(lead.id),
    leadId: lead.id,
    targetRoles: ["frontDesk", "management"],
    people: [claimedBy.id],
  };
}

function statusDraft(event: Event<"lead.status_changed" | "lead.unclaimed">): BellDraft | null {
  const { lead } = event.payload;
  return {
    type: "lead_status_changed",
    title: "Lead Updated",
    message: `Lead status changed to ${LEAD_STATUS_LABELS[lead.status] ?? lead.status}: ${fullName(lead)}`,
    url: leadUrl(lead.id),
    leadId: lead.id,
    targetRoles: ["management"],
    people: [lead.claimedBy],
  };
}

type LeadEvent = Event<"lead.created" | "lead.claimed" | "lead.assigned" | "lead.status_changed" | "lead.unclaimed" | "lead.deleted" | "lead.restored">;

function leadMessage(type: RealtimeEventType) {
  return (event: LeadEvent, timestamp: string): RealtimeMessage => {
    const { lead } = event.payload;
    return { type, data: { firstName: lead.firstName, lastName: lead.lastName, status: lead.status, title: "", timestamp } };
  };
}

type LeadActivityEvent = Event<"note.added" | "note.edited" | "note.deleted" | "call.logged" | "email.sent" | "email.delivery_updated" | "email.received">;

/** The socket's message for anything new on a lead's timeline (customer mail's events say the same). */
export function leadActivityMessage(event: LeadActivityEvent, timestamp: string): RealtimeMessage {
  const { lead } = event.payload;
  return { type: "lead_activity", data: { firstName: lead.firstName, lastName: lead.lastName, status: lead.status, title: event.type, timestamp, leadId: lead.id } };
}

export const leadNotices: Notices = {
  "lead.created": {
    bell: (event) => {
      const { lead } = event.payload;
      // Created and assigned to someone else: the lead.assigned that follows tells everyone once.
      if (lead.claimedBy && lead.claimedBy !== event.actorId) return null;
      // An unclaimed lead is for everyone who works New Leads; a rep's own new client is for those who see every client.
      const roles: DealershipRole[] = lead.status === "new" ? ["sales", "frontDesk", "management"] : ["frontDesk", "management"];
      return {
        type: "lead_created",
        title: "New Lead",
        message: `New lead: ${fullName(lead)}`,
        url: leadUrl(lead.id),
        leadId: lead.id,
        targetRoles: roles,
        people: [],
      };
    },
    socket: leadMessage("lead_created"),
  },
  "lead.claimed": { bell: claimedDraft, socket: leadMessage("lead_claimed") },
  "lead.assigned": { bell: claimedDraft, socket: leadMessage("lead_claimed") },
  "lead.status_changed": { bell: statusDraft, socket: leadMessage("lead_status_changed") },
  "lead.unclaimed": { bell: statusDraft, socket: leadMessage("lead_status_changed") },
  "lead.deleted": {
    bell: (event) => {
      const { lead, mergedInto } = event.payload;
      // Merged into another lead of the same customer: the customer is not gone, so the bell says where they are now.
      if (mergedInto) {
        return {
          type: "lead_deleted",
          title: "Lead Merged",
          message: `${fullName(lead)} merged into ${fullName(mergedInto)}`,
          url: leadUrl(mergedInto.id),
          leadId: mergedInto.id,
          targetRoles: ["management"],
          people: [lead.claimedBy],
          leadSnapshot: lead,
        };
      }
      return {
        type: "lead_deleted",
        title: "Lead Deleted",
        message: `Lead deleted: ${fullName(lead)}`,
        url: null,
        leadId: lead.id,
        targetRoles: ["management"],
        people: [lead.claimedBy],
        leadSnapshot: lead,
      };
    },
    socket: leadMessage("lead_deleted"),
  },
  "lead.restored": { socket: leadMessage("lead_restored") },
  "lead.merged": {
    // The kept lead as it now is, and which lead went into it: an open page of the merged-away lead moves there.
    socket: (event, timestamp) => {
      const { lead, merged } = event.payload;
      return {
        type: "lead_merged",
        data: { firstName: lead.firstName, lastName: lead.lastName, status: lead.status, title: "", timestamp, leadId: lead.id, mergedLeadId: merged.id },
      };
    },
  },
  "note.added": {
    bell: (event) => {
      // A mention (issue 26): each member the note names, once, while they may open the lead (as every lead notice).
      const { lead, note } = event.payload;
      if (note.mentions.length === 0) return null;
      const text = note.body.length > 140 ? `${note.body.slice(0, 139)}…` : note.body;
      return {
        type: "note_mention",
        title: "Mentioned in a Note",
        message: `${fullName(lead)}: ${text}`,
        url: leadUrl(lead.id),
        leadId: lead.id,
        targetRoles: [],
        people: note.mentions,
      };
    },
    socket: leadActivityMessage,
  },
  "note.edited": { socket: leadActivityMessage },
  "note.deleted": { socket: leadActivityMessage },
  "call.logged": { socket: leadActivityMessage },
};
