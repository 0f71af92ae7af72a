import type { DomainEvent, LeadChanges } from "../../shared/events";
import { actorIdOf, type Viewer } from "../auth/tenancy";
import { leadSnapshot, type LeadBefore, type LeadRow } from "./queries";

// The one event of a lead edit (PATCH /api/leads/{id} and /status; decision 184). Every edit that changed something
// publishes exactly one event:
// - back to New Leads (a claimed lead set to "new", its claim cleared): lead.unclaimed;
// - any other status change: lead.status_changed;
// - only details changed: lead.updated.
// The status events carry the edit's other changed fields in `changes` too, so nothing an edit did goes unrecorded.
// An edit that changed nothing (the same values saved again) publishes nothing.

const FIELDS = ["firstName", "lastName", "email", "phone", "description", "status", "lostReason"] as const;

/** Each field whose value the edit changed, before and after. */
export function leadChangesOf(previous: LeadBefore, row: LeadRow): LeadChanges {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const field of FIELDS) if (previous[field] !== row[field]) changes[field] = { before: previous[field], after: row[field] };
  return changes as LeadChanges;
}

/** The event to publish for an edit, or null when nothing changed. */
export function leadEditEvent(viewer: Viewer, edit: { row: LeadRow; previous: LeadBefore }): DomainEvent | null {
  const { row, previous } = edit;
  const changes = leadChangesOf(previous, row);
  const base = { dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer) };
  const lead = leadSnapshot(row);
  if (changes.status) {
    const unclaimed = row.status === "new" && previous.claimedBy !== null;
    return { ...base, type: unclaimed ? "lead.unclaimed" : "lead.status_changed", payload: { lead, previousStatus: previous.status, changes } };
  }
  if (Object.keys(changes).length === 0) return null;
  return { ...base, type: "lead.updated", payload: { lead, changes } };
}
