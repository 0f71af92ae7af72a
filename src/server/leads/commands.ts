import type { z } from "zod";
import type { createLeadSchema, Lead } from "../../shared/schemas/lead";
import { actorIdOf, type Viewer, writeInDealership } from "../auth/tenancy";
import type { Db } from "../db/client";
import { publish } from "../events/outbox";
import { badRequest } from "../http/errors";
import { handOutArrivals } from "../distribution/hand-out";
import { leadEditEvent } from "./edit-event";
import { lostReasonsOf, reasonOnList } from "./lost-reasons";
import { createLead, deleteLead, leadSnapshot, leadWithClaimer, lockActiveMember, updateLead, type LeadChanges, type LeadRow } from "./queries";

// The leads' changes made by the lead routes (issue 25): each is the scoped write and its event in one transaction
// that holds the dealership (decision 176). The claim is one prepared statement of its own (claimLead in queries.ts,
// decision 176); merges, imports, notes and calls have their own modules (merge.ts, csv-import.ts, timeline-commands.ts).

/**
 * Creates a lead (lead.created), claimed at once by `claimer` when there is one; front desk and management assigning
 * it to someone else (lead.assigned) lock the assignee's membership until the lead commits, so a removal cannot slip
 * in between (part 1 §6).
 */
export function createLeadWithAssignee(
  db: Db,
  access: Viewer,
  input: z.output<typeof createLeadSchema>,
  who: { assigns: boolean; assignee: string | null; claimer: string | null },
): Promise<Lead | undefined> {
  const { assigns, assignee, claimer } = who;
  return writeInDealership(db, access, async (tx) => {
    let claimerName: string | null = null;
    if (assigns && assignee) {
      // Part 1 §6: front desk and management assign to an active member of this dealership; the membership row stays
      // locked until the lead commits, so a removal cannot slip in between.
      claimerName = await lockActiveMember(tx, access.dealershipId, assignee);
      if (claimerName === null) {
        throw badRequest("assignedTo: Choose an active member of this dealership", {
          assignedTo: "Choose an active member of this dealership",
        });
      }
    }
    const row = await createLead(
      tx,
      access,
      { firstName: input.firstName, lastName: input.lastName, email: input.email || null, phone: input.phone || null, description: input.description || null, source: input.source },
      claimer,
    );
    const event = { dealershipId: access.dealershipId, actorId: actorIdOf(access) };
    await publish(tx, { ...event, type: "lead.created", payload: { lead: leadSnapshot(row) } });
    if (claimer && claimer !== access.userId) {
      await publish(tx, { ...event, type: "lead.assigned", payload: { lead: leadSnapshot(row), claimedBy: { id: claimer, name: claimerName ?? "" } } });
    }
    // Nobody took it: the reps on the floor may be given it now (decision 201).
    if (!claimer) await handOutArrivals(tx, access.dealershipId, [row.id]);
    return leadWithClaimer(tx, access, row.id);
  });
}

/** Edits a lead (one of lead.unclaimed, lead.status_changed, lead.updated when something changed); undefined when not found. */
export function changeLead(db: Db, viewer: Viewer, leadId: string, requested: LeadChanges): Promise<Lead | undefined> {
  if (requested.lostReason !== undefined && requested.status !== "lost") {
    throw badRequest("lostReason: Send a lost reason only with the status lost", { lostReason: "Send a lost reason only with the status lost" });
  }
  return writeInDealership(db, viewer, async (tx) => {
    const changes = { ...requested };
    if (changes.lostReason !== undefined) {
      // One of the dealership's reasons, as the list spells it (decision 202).
      changes.lostReason = reasonOnList(await lostReasonsOf(tx, viewer.dealershipId), changes.lostReason);
      if (!changes.lostReason) throw badRequest("lostReason: Choose one of the dealership's lost reasons", { lostReason: "Choose one of the dealership's lost reasons" });
    }
    const updated = await updateLead(tx, viewer, leadId, changes);
    if (!updated) {
      // A move to Lost without a reason matched nothing; the lead is there and may be opened: say what is missing.
      if (changes.status === "lost" && !changes.lostReason && (await leadWithClaimer(tx, viewer, leadId))) {
        throw badRequest("lostReason: Choose why the lead was lost", { lostReason: "Choose why the lead was lost" });
      }
      return undefined;
    }
    const event = leadEditEvent(viewer, updated);
    if (event) await publish(tx, event);
    return leadWithClaimer(tx, viewer, leadId);
  });
}

/** Deletes a lead the viewer may open (lead.deleted); undefined when not found. */
export function removeLead(db: Db, viewer: Viewer, leadId: string): Promise<LeadRow | undefined> {
  return writeInDealership(db, viewer, async (tx) => {
    const row = await deleteLead(tx, viewer, leadId);
    if (row) {
      await publish(tx, { type: "lead.deleted", dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer), payload: { lead: leadSnapshot(row) } });
    }
    return row;
  });
}
