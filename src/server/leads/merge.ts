import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { LEAD_STATUSES, type LeadStatus } from "../../shared/constants";
import { LEAD_DESCRIPTION_MAX } from "../../shared/schemas/lead";
import type { MergeChoices, MergeResult } from "../../shared/schemas/lead-duplicates";
import { actorIdOf, roleSql, type Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { appointments } from "../db/schema/appointments";
import { leadMerges } from "../db/schema/lead-duplicates";
import { leads } from "../db/schema/leads";
import { notifications } from "../db/schema/notifications";
import { tasks } from "../db/schema/tasks";
import { testDrives } from "../db/schema/test-drives";
import { vehiclesOfInterest } from "../db/schema/vehicles-of-interest";
import { publish } from "../events/outbox";
import { moveActivity } from "./activity";
import { archiveLead } from "./deleted-archive";
import { badRequest, conflict, notFound } from "../http/errors";
import { moveDuplicateLinks } from "./duplicates";
import { leadSnapshot, leadWithClaimer, type LeadRow } from "./queries";

// Merging two leads of one customer (issue 14; decision 138). Front desk and management fold the merged-away lead
// into the kept one: fields chosen per side, the merged-away lead's appointments and test drives moved, its links
// to other possible duplicates carried over, a record of the merge kept (with a snapshot of the merged-away lead), and
// the merged-away lead deleted. One transaction; both rows locked in one statement in id order (decision 175), so two
// merges of the same leads (either way round) wait for each other instead of deadlocking, and the second finds one
// lead gone.

export const ALREADY_MERGED = "This lead was already merged into another lead.";
const LEAD_NOT_FOUND = "Lead not found";
/**
 * Not FOR UPDATE: that also waits for the KEY SHARE a foreign-key check takes on a lead (the bell's rows of its events,
 * links moved by another merge) while those wait for this merge's other lead, a deadlock (decision 175). NO KEY UPDATE
 * still queues every other merge and update of the lead; only the merged-away lead's DELETE waits for those checks.
 */
const LOCK = "no key update" as const;

/**
 * Locks the two leads of a merge that are in the viewer's dealership, in one statement and in id order, and answers
 * them by id. Two merges of the same leads (either way round, or any mix over three) queue on the first lead they
 * share instead of each holding one and waiting for the other.
 */
async function lockPair(tx: Tx, dealershipId: string, ids: [string, string]): Promise<Map<string, LeadRow>> {
  const rows = await tx
    .select()
    .from(leads)
    .where(and(inArray(leads.id, ids), eq(leads.dealershipId, dealershipId)))
    .orderBy(asc(leads.id))
    .for(LOCK);
  return new Map(rows.map((row) => [row.id, row]));
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

/**
 * The lead a merged-away lead now lives in (decision 188), in a dealership the user belongs to. A later merge of the
 * kept lead points the earlier records to its own kept lead, so one look-up is enough. Undefined when the id was never
 * merged away there, or the lead it went into was deleted since (kept_lead_id is then null).
 */
export async function keptLeadOf(db: Db, userId: string, leadId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ kept: leadMerges.keptLeadId })
    .from(leadMerges)
    .where(and(eq(leadMerges.mergedLeadId, leadId), sql`${roleSql(userId, leadMerges.dealershipId)} is not null`))
    .limit(1);
  return row?.kept ?? undefined;
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
  // Unless the user chose, the status further along: merging from the newer lead's page does not turn a
  // "Contacted" back into a "Claimed" (issue 29, decision 207).
  const further = furthest(kept.status, merged.status) === merged.status ? merged.status : kept.status;
  const status = choices.status === undefined ? further : choices.status === "merged" ? merged.status : kept.status;
  // The customer arrived with the older lead: its arrival time and its source (and provider) stay.
  const older = merged.createdAt.getTime() < kept.createdAt.getTime() ? merged : kept;
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
    createdAt: older.createdAt,
    source: older.source,
    sourceProvider: older.sourceProvider,
  };
}

/** The status further along the pipeline (LEAD_STATUSES order: new, claimed, contacted, ..., closed, lost). */
function furthest(a: LeadStatus, b: LeadStatus): LeadStatus {
  return LEAD_STATUSES.indexOf(b) > LEAD_STATUSES.indexOf(a) ? b : a;
}

/**
 * Merges `mergedId` into `keptId` for a viewer allowed to merge (the route checks the capability). 400 for a lead
 * merged with itself or descriptions too long together, 404 for a lead not in the viewer's dealership, 409 for a lead
 * already merged away.
 */
export async function mergeLeads(tx: Tx, viewer: Viewer, keptId: string, mergedId: string, choices: MergeChoices): Promise<MergeResult> {
  if (keptId === mergedId) throw badRequest("mergeLeadId: A lead cannot be merged with itself", { mergeLeadId: "A lead cannot be merged with itself" });
  const locked = await lockPair(tx, viewer.dealershipId, [keptId, mergedId]);
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
  // Follow-up tasks go with the customer too (issue 27); the merged-away lead's would otherwise go with its row.
  const movedTasks = await tx
    .update(tasks)
    .set({ leadId: keptId })
    .where(and(eq(tasks.leadId, mergedId), eq(tasks.dealershipId, viewer.dealershipId)))
    .returning({ id: tasks.id });
  await moveDuplicateLinks(tx, mergedId, keptId);
  // The vehicles the customer asked for, linked to the inventory or waiting for it (decision 188).
  const interests = await tx
    .update(vehiclesOfInterest)
    .set({ leadId: keptId })
    .where(and(eq(vehiclesOfInterest.leadId, mergedId), eq(vehiclesOfInterest.dealershipId, viewer.dealershipId)))
    .returning({ id: vehiclesOfInterest.id });
  // Its story too (issue 26): entries, notes and calls, each entry saying where it came from.
  const story = await moveActivity(tx, merged!, keptId);

  // Each write carries its scope in its own WHERE clause, though both rows are locked: the kept lead of this dealership
  // is updated, the merged-away one of this dealership deleted, or the merge stops (rolled back) with a 409.
  const inDealership = (id: string) => and(eq(leads.id, id), eq(leads.dealershipId, viewer.dealershipId));
  const [updated] = await tx.update(leads).set(values).where(inDealership(keptId)).returning();
  if (!updated) throw conflict(ALREADY_MERGED);
  // The bell's entries about the merged-away lead now lead to the kept one (issue 29), instead of losing their lead.
  await tx
    .update(notifications)
    .set({ leadId: keptId, url: sql`case when ${notifications.url} = ${`/leads/detail/${mergedId}`} then ${`/leads/detail/${keptId}`} else ${notifications.url} end` })
    .where(and(eq(notifications.leadId, mergedId), eq(notifications.dealershipId, viewer.dealershipId)));
  // Leads merged into this one before now live in the kept lead too: their bookmarks lead there (decision 188).
  await tx
    .update(leadMerges)
    .set({ keptLeadId: keptId })
    .where(and(eq(leadMerges.keptLeadId, mergedId), eq(leadMerges.dealershipId, viewer.dealershipId)));
  // Recoverable for 30 days (decision 214): the merged-away lead as it was, and what moved, to take back on a restore.
  const movedIds = {
    appointments: moved.map((r) => r.id),
    test_drives: drives.map((r) => r.id),
    tasks: movedTasks.map((r) => r.id),
    vehicles_of_interest: interests.map((r) => r.id),
    ...story,
  };
  await archiveLead(tx, mergedId, viewer.userId, { into: { id: keptId, firstName: updated.firstName, lastName: updated.lastName }, moved: movedIds });
  const [deleted] = await tx.delete(leads).where(inDealership(mergedId)).returning({ id: leads.id });
  if (!deleted) throw conflict(ALREADY_MERGED);
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

  const event = { dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer) };
  await publish(tx, {
    ...event,
    type: "lead.merged",
    payload: { lead: leadSnapshot(updated), merged: leadSnapshot(merged!), movedAppointments: moved.length, movedTestDrives: drives.length },
  });
  // The merged-away lead is gone for every list and screen, as a deletion is.
  await publish(tx, {
    ...event,
    type: "lead.deleted",
    payload: { lead: leadSnapshot(merged!), mergedInto: { id: keptId, firstName: updated.firstName, lastName: updated.lastName } },
  });

  const lead = await leadWithClaimer(tx, viewer, keptId);
  if (!lead) throw new Error("kept lead vanished inside its own merge");
  return { lead, mergedLeadId: mergedId, movedAppointments: moved.length, movedTestDrives: drives.length };
}
