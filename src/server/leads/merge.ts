import { and, eq, sql } from "drizzle-orm";
import { LEAD_DESCRIPTION_MAX } from "../../shared/schemas/lead";
import type { MergeChoices, MergeResult } from "../../shared/schemas/lead-duplicates";
import { roleSql, type Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { appointments } from "../db/schema/appointments";
import { leadMerges } from "../db/schema/lead-duplicates";
import { leads } from "../db/schema/leads";
import { testDrives } from "../db/schema/test-drives";
import { publish } from "../events/outbox";
import { badRequest, conflict, notFound } from "../http/errors";
import { moveDuplicateLinks } from "./duplicates";
import { leadSnapshot, leadWithClaimer, type LeadRow } from "./queries";

// Merging two leads of one customer (issue 14; decision 138). Front desk and management fold the merged-away lead
// into the kept one: fields chosen per side, the merged-away lead's appointments and test drives moved, its links
// to other possible duplicates carried over, a record of the merge kept (with a snapshot of the merged-away lead), and
// the merged-away lead deleted. One transaction; both rows locked in id order, so two merges of the same pair (either
// way round) wait for each other instead of deadlocking, and the second finds one lead gone.

export const ALREADY_MERGED = "This lead was already merged into another lead.";
const LEAD_NOT_FOUND = "Lead not found";

/** Locks a lead of the viewer's dealership (FOR UPDATE) and answers it, or undefined. */
async function lockLead(tx: Tx, dealershipId: string, id: string): Promise<LeadRow | undefined> {
  const [row] = await tx
    .select()
    .from(leads)
    .where(and(eq(leads.id, id), eq(leads.dealershipId, dealershipId)))
    .limit(1)
    .for("update");
  return row;
}

/** Whether this lead was merged away in the viewer's dealership (a second merge of it is a 409, not a 404). */
async function wasMergedAway(tx: Tx, dealershipId: string, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: leadMerges.id })
    .from(leadMerges)
    .where(and(eq(leadMerges.mergedLeadId, id), eq(leadMerges.dealershipId, dealershipId)))
    .limit(1);
  return Boolean(row);
}

/**
 * Whether a lead that is not found was merged away in a dealership the user belongs to: the merge route answers 409
 * for it rather than 404 (a second merge of the pair, or the merge started from the merged-away lead's page).
 */
export async function mergedAwayFor(db: Db, userId: string, leadId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: leadMerges.id })
    .from(leadMerges)
    .where(and(eq(leadMerges.mergedLeadId, leadId), sql`${roleSql(userId, leadMerges.dealershipId)} is not null`))
    .limit(1);
  return Boolean(row);
}

/** The kept lead's fields after the merge, each from the side chosen (description may take both). */
export function mergedValues(kept: LeadRow, merged: LeadRow, choices: MergeChoices, mergerId: string) {
  const pick = <K extends "firstName" | "lastName" | "email" | "phone">(key: K) => (choices[key] === "merged" ? merged[key] : kept[key]);
  let description: string | null;
  if (choices.description === "both") {
    description = [kept.description, merged.description].filter((d): d is string => Boolean(d && d.trim())).join("\n\n") || null;
  } else {
    description = choices.description === "merged" ? merged.description : kept.description;
  }
  const status = choices.status === "merged" ? merged.status : kept.status;
  const claimSide = choices.claimedBy === "merged" ? merged : kept;
  const otherSide = choices.claimedBy === "merged" ? kept : merged;
  // "new" and "unclaimed" stay the same thing (decision 010): a new lead has no claimer; a worked lead keeps the chosen
  // side's claimer, else the other side's, else whoever merged (as a status change out of new records its mover).
  let claimedBy: string | null = null;
  let claimedAt: Date | null = null;
  if (status !== "new") {
    const claimer = claimSide.claimedBy ? claimSide : otherSide.claimedBy ? otherSide : null;
    claimedBy = claimer?.claimedBy ?? mergerId;
    claimedAt = claimer?.claimedAt ?? new Date();
  }
  // The customer was first answered at the earlier of the two first answers (speed-to-lead, decision 140).
  const answered = [kept, merged]
    .filter((l) => l.firstResponseAt)
    .sort((a, b) => a.firstResponseAt!.getTime() - b.firstResponseAt!.getTime())[0];
  return {
    firstName: pick("firstName"),
    lastName: pick("lastName"),
    email: pick("email"),
    phone: pick("phone"),
    description,
    status,
    claimedBy,
    claimedAt,
    firstResponseAt: answered?.firstResponseAt ?? null,
    firstResponseKind: answered?.firstResponseKind ?? null,
    firstResponseBy: answered?.firstResponseBy ?? null,
  };
}

/**
 * Merges `mergedId` into `keptId` for a viewer allowed to merge (the route checks the capability). 400 for a lead
 * merged with itself or descriptions too long together, 404 for a lead not in the viewer's dealership, 409 for a lead
 * already merged away.
 */
export async function mergeLeads(tx: Tx, viewer: Viewer, keptId: string, mergedId: string, choices: MergeChoices): Promise<MergeResult> {
  if (keptId === mergedId) throw badRequest("mergeLeadId: A lead cannot be merged with itself", { mergeLeadId: "A lead cannot be merged with itself" });
  // Both rows locked in id order: whichever way round two people merge the same pair, nobody deadlocks.
  const locked = new Map<string, LeadRow | undefined>();
  for (const id of [keptId, mergedId].sort()) locked.set(id, await lockLead(tx, viewer.dealershipId, id));
  const kept = locked.get(keptId);
  const merged = locked.get(mergedId);
  for (const [id, row] of [[keptId, kept], [mergedId, merged]] as const) {
    if (row) continue;
    if (await wasMergedAway(tx, viewer.dealershipId, id)) throw conflict(ALREADY_MERGED);
    throw notFound(LEAD_NOT_FOUND);
  }
  const values = mergedValues(kept!, merged!, choices, viewer.userId);
  if ((values.description?.length ?? 0) > LEAD_DESCRIPTION_MAX) {
    const message = `Together the two descriptions are longer than ${LEAD_DESCRIPTION_MAX} characters: choose one`;
    throw badRequest(`choices.description: ${message}`, { "choices.description": message });
  }

  const moved = await tx
    .update(appointments)
    .set({ leadId: keptId })
    .where(and(eq(appointments.leadId, mergedId), eq(appointments.dealershipId, viewer.dealershipId)))
    .returning({ id: appointments.id });
  const drives = await tx
    .update(testDrives)
    .set({ leadId: keptId })
    .where(and(eq(testDrives.leadId, mergedId), eq(testDrives.dealershipId, viewer.dealershipId)))
    .returning({ id: testDrives.id });
  await moveDuplicateLinks(tx, mergedId, keptId);

  const [updated] = await tx.update(leads).set(values).where(eq(leads.id, keptId)).returning();
  await tx.delete(leads).where(eq(leads.id, mergedId));
  await tx.insert(leadMerges).values({
    dealershipId: viewer.dealershipId,
    keptLeadId: keptId,
    mergedLeadId: mergedId,
    mergedLead: { ...leadSnapshot(merged!), createdAt: merged!.createdAt.toISOString(), source: merged!.source },
    choices,
    movedAppointments: moved.length,
    movedTestDrives: drives.length,
    mergedBy: viewer.userId,
  });

  const event = { dealershipId: viewer.dealershipId, actorId: viewer.userId };
  await publish(tx, {
    ...event,
    type: "lead.merged",
    payload: { lead: leadSnapshot(updated!), merged: leadSnapshot(merged!), movedAppointments: moved.length, movedTestDrives: drives.length },
  });
  // The merged-away lead is gone for every list and screen, as a deletion is.
  await publish(tx, { ...event, type: "lead.deleted", payload: { lead: leadSnapshot(merged!) } });

  const lead = await leadWithClaimer(tx, viewer, keptId);
  if (!lead) throw new Error("kept lead vanished inside its own merge");
  return { lead, mergedLeadId: mergedId, movedAppointments: moved.length, movedTestDrives: drives.length };
}
