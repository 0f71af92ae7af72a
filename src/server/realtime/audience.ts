import type { DealershipRole } from "../../shared/constants";
import type { DomainEvent, DomainEventType } from "../../shared/events";
import { opensAppointment } from "../access/appointments";
import { opensLead } from "../access/leads";
import { opensTestDrive } from "../access/test-drives";

// Who hears what on the socket (decision 106). The socket follows the same visibility as the HTTP lists:
// - front desk and management see every lead, appointment and drive of the dealership: the whole message;
// - a sales rep gets the whole message only for what they may open: the unclaimed pool and their own clients
//   (access/leads.ts, the one rule of who may open a lead), appointments assigned to or made by them
//   (access/appointments.ts), drives of decision 064 (access/test-drives.ts);
// - a sales rep also gets a nameless copy (no client name) when their lists change without the client being theirs:
//   a lead leaving the pool (claimed, or moved on from "new" by someone else) and any drive (a vehicle going out or
//   coming back changes the inventory everyone sees). They never learn whose client it became.
// - a merge (decision 157) goes whole, with the kept and merged-away ids, to whoever may open the kept lead; other reps
//   get the nameless copy without either id.

export type Delivery = "whole" | "nameless" | "none";

export interface Listener {
  userId: string;
  role: DealershipRole;
}

/** What a drive's visibility needs beyond its event: who booked it and where its lead stands (read once per event). */
export interface DriveFacts {
  createdBy: string | null;
  leadStatus: string | null;
  leadClaimedBy: string | null;
}

type Event<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
type Decide<T extends DomainEventType> = (event: Event<T>, listener: Listener, drive?: DriveFacts) => Delivery;

function leadWhole(event: Event<"lead.created" | "lead.deleted" | "lead.restored">, listener: Listener): Delivery {
  return opensLead(listener, event.payload.lead) ? "whole" : "none";
}

// A claim (or an assignment) takes a lead out of the pool every rep sees (or makes one already someone's): refresh,
// nameless. A claimed lead is never "new", so only the claimer (and whoever sees every lead) may open it.
function leadClaimed(event: Event<"lead.claimed" | "lead.assigned">, listener: Listener): Delivery {
  return opensLead(listener, event.payload.lead) ? "whole" : "nameless";
}

function leadStatus(event: Event<"lead.status_changed" | "lead.unclaimed">, listener: Listener): Delivery {
  const { lead, previousStatus } = event.payload;
  if (opensLead(listener, lead)) return "whole";
  return previousStatus === "new" ? "nameless" : "none";
}

function appointment(event: Event<"appointment.created" | "appointment.status_changed">, listener: Listener): Delivery {
  return opensAppointment(listener, event.payload.appointment) ? "whole" : "none";
}

function drive(event: Event<"test_drive.taken_out" | "test_drive.returned" | "test_drive.status_changed">, listener: Listener, facts?: DriveFacts): Delivery {
  const { testDrive } = event.payload;
  const lead = facts?.leadStatus != null ? { status: facts.leadStatus, claimedBy: facts.leadClaimedBy } : null;
  const ownership = { leadId: testDrive.leadId, takenOutBy: testDrive.takenOutBy, createdBy: facts?.createdBy ?? null, lead };
  return opensTestDrive(listener, ownership) ? "whole" : "nameless";
}

type LeadActivityEvent = Event<"note.added" | "note.edited" | "note.deleted" | "call.logged" | "email.sent" | "email.delivery_updated" | "email.received">;

function leadActivity(event: LeadActivityEvent, listener: Listener): Delivery {
  return opensLead(listener, event.payload.lead) ? "whole" : "none";
}

/** Who hears each event type on the socket; a type not here reaches nobody. */
const deliveries: { [T in DomainEventType]?: Decide<T> } = {
  "lead.created": leadWhole,
  "lead.deleted": leadWhole,
  "lead.restored": leadWhole,
  "lead.claimed": leadClaimed,
  "lead.assigned": leadClaimed,
  "lead.status_changed": leadStatus,
  "lead.unclaimed": leadStatus,
  // Decision 157. Whoever may open the kept lead (as it now is) hears the merge whole, with both ids, so a page of the
  // merged-away lead can move to it. The event does not say where the kept lead stood before (in the pool, or a
  // colleague's), so any other rep gets the nameless copy, as for a claim: their pool may have changed; they learn
  // neither the client nor the ids. (The merged-away lead's own lead.deleted follows, by its own rule.)
  "lead.merged": (event, listener) => (opensLead(listener, event.payload.lead) ? "whole" : "nameless"),
  "appointment.created": appointment,
  "appointment.status_changed": appointment,
  "test_drive.taken_out": drive,
  "test_drive.returned": drive,
  "test_drive.status_changed": drive,
  // A note or call (issue 26): only whoever may open the lead hears it; nobody else's screen shows it.
  "note.added": leadActivity,
  "note.edited": leadActivity,
  "note.deleted": leadActivity,
  "call.logged": leadActivity,
  // The e-mail conversation (decision 228): its timeline entries, a sent mail's delivery status, a customer's reply.
  "email.sent": leadActivity,
  "email.delivery_updated": leadActivity,
  "email.received": leadActivity,
};

export function deliveryFor(event: DomainEvent, listener: Listener, facts?: DriveFacts): Delivery {
  const decide = deliveries[event.type] as Decide<DomainEventType> | undefined;
  return decide ? decide(event, listener, facts) : "none";
}

/** Whether deciding this event for a sales rep needs the drive's facts from the database. */
export function needsDriveFacts(event: DomainEvent): event is Extract<DomainEvent, { type: `test_drive.${string}` }> {
  return event.type.startsWith("test_drive.");
}
