import type { DealershipRole } from "../../shared/constants";
import type { DomainEvent } from "../../shared/events";
import { can } from "../../shared/permissions";

// Who hears what on the socket (decision 106). The socket follows the same visibility as the HTTP lists:
// - front desk and management see every lead, appointment and drive of the dealership: the whole message;
// - a sales rep gets the whole message only for what they may open: the unclaimed pool and their own clients
//   (leads/queries.ts), appointments assigned to or made by them (appointments/queries.ts), drives of decision 064;
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

export function deliveryFor(event: DomainEvent, listener: Listener, drive?: DriveFacts): Delivery {
  const me = listener.userId;
  switch (event.type) {
    case "lead.created":
    case "lead.deleted": {
      if (can(listener.role, "seeAllClaimedLeads")) return "whole";
      const { lead } = event.payload;
      return lead.status === "new" || lead.claimedBy === me ? "whole" : "none";
    }
    case "lead.claimed": {
      if (can(listener.role, "seeAllClaimedLeads")) return "whole";
      // A claim takes a lead out of the pool every rep sees (or makes one already someone's): refresh, nameless.
      return event.payload.lead.claimedBy === me ? "whole" : "nameless";
    }
    case "lead.status_changed": {
      if (can(listener.role, "seeAllClaimedLeads")) return "whole";
      const { lead, previousStatus } = event.payload;
      if (lead.status === "new" || lead.claimedBy === me) return "whole";
      return previousStatus === "new" ? "nameless" : "none";
    }
    case "lead.merged": {
      // Decision 157. Whoever may open the kept lead (as it now is) hears the merge whole, with both ids, so a page of
      // the merged-away lead can move to it. The event does not say where the kept lead stood before (in the pool, or
      // a colleague's), so any other rep gets the nameless copy, as for a claim: their pool may have changed; they
      // learn neither the client nor the ids. (The merged-away lead's own lead.deleted follows, by its own rule.)
      if (can(listener.role, "seeAllClaimedLeads")) return "whole";
      const { lead } = event.payload;
      return lead.status === "new" || lead.claimedBy === me ? "whole" : "nameless";
    }
    case "appointment.created":
    case "appointment.status_changed": {
      if (can(listener.role, "seeAllAppointments")) return "whole";
      const { appointment } = event.payload;
      return appointment.assignedTo === me || appointment.createdBy === me ? "whole" : "none";
    }
    case "test_drive.taken_out":
    case "test_drive.returned":
    case "test_drive.status_changed": {
      if (can(listener.role, "seeAllClaimedLeads")) return "whole";
      const { testDrive } = event.payload;
      const sees =
        testDrive.leadId === null ||
        testDrive.takenOutBy === me ||
        drive?.createdBy === me ||
        drive?.leadStatus === "new" ||
        (drive?.leadClaimedBy != null && drive.leadClaimedBy === me);
      return sees ? "whole" : "nameless";
    }
    default:
      return "none";
  }
}

/** Whether deciding this event for a sales rep needs the drive's facts from the database. */
export function needsDriveFacts(event: DomainEvent): event is Extract<DomainEvent, { type: `test_drive.${string}` }> {
  return event.type.startsWith("test_drive.");
}
