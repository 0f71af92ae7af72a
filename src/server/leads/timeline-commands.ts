import { and, eq, inArray, sql } from "drizzle-orm";
import type { CallInput, Note, NoteInput } from "../../shared/activity";
import type { Call } from "../../shared/schemas/responses/activity";
import { roleCan } from "../access/asker";
import { actorIdOf, writeInDealership, type Viewer } from "../auth/tenancy";
import type { Db } from "../db/client";
import { leadCalls, leadNotes } from "../db/schema/activity";
import { dealershipUsers } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { publish } from "../events/outbox";
import { badRequest, forbidden } from "../http/errors";
import { lockNote, noteAnswer, noteSnapshot } from "./notes";
import { firstResponseSet } from "./speed-to-lead";
import { lockedLead } from "./visible-lead";

// The lead's notes and logged calls (issue 25; issue 26, decision 218): each change is the scoped write and its one
// event in one transaction that holds the dealership (decision 176); the event's timeline entry is written by the same
// statement. The lead is locked (shared) until the change commits, so a claim or a deletion waits for it. A note saved
// with the text it has changes nothing and publishes nothing (decision 239). Who may open the lead or see the note is
// the caller's to find (visible-lead.ts, notes.ts): these answer 404 for a lead the viewer may not open.

const NOT_A_MEMBER = "must name members of this dealership";
export const EDIT_FORBIDDEN = "Only the note's author can edit it";
export const DELETE_FORBIDDEN = "Only the note's author or management can delete it";

const by = (viewer: Viewer) => ({ dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer) });

/** Adds a note to a lead (note.added); 400 when it mentions anyone who is not an active member of the dealership. */
export function addNote(db: Db, viewer: Viewer, leadId: string, input: NoteInput): Promise<Note> {
  const mentions = [...new Set(input.mentions ?? [])];
  return writeInDealership(db, viewer, async (tx) => {
    const lead = await lockedLead(tx, viewer, leadId);
    if (mentions.length) {
      const members = await tx
        .select({ id: dealershipUsers.userId })
        .from(dealershipUsers)
        .where(and(eq(dealershipUsers.dealershipId, viewer.dealershipId), eq(dealershipUsers.active, true), inArray(dealershipUsers.userId, mentions)));
      if (members.length !== mentions.length) throw badRequest(`mentions: ${NOT_A_MEMBER}`, { mentions: NOT_A_MEMBER });
    }
    const [row] = await tx
      .insert(leadNotes)
      .values({ leadId: lead.id, dealershipId: viewer.dealershipId, authorId: viewer.userId, body: input.body, mentions })
      .returning();
    await publish(tx, { ...by(viewer), type: "note.added", payload: { lead, note: noteSnapshot(row!) } });
    return noteAnswer(tx, row!);
  });
}

/**
 * The author rewrites their note (note.edited, with the text it replaced); 404 when it is gone or on a lead the viewer
 * may not open (before any 403, which would tell that it exists), 403 for anyone else's. The note is locked first, so edits and a delete of one note take turns and
 * each edit's previous text is the one the edit before it left.
 */
export function editNote(db: Db, viewer: Viewer, noteId: string, body: string): Promise<Note> {
  return writeInDealership(db, viewer, async (tx) => {
    const before = await lockNote(tx, viewer, noteId);
    const lead = await lockedLead(tx, viewer, before.leadId);
    if (before.authorId !== viewer.userId) throw forbidden(EDIT_FORBIDDEN);
    if (body === before.body) return noteAnswer(tx, before);
    const [row] = await tx
      .update(leadNotes)
      .set({ body, updatedAt: sql`now()` })
      .where(and(eq(leadNotes.id, before.id), eq(leadNotes.dealershipId, viewer.dealershipId), eq(leadNotes.authorId, viewer.userId)))
      .returning();
    if (!row) throw new Error("a note locked in this transaction was not updated");
    await publish(tx, { ...by(viewer), type: "note.edited", payload: { lead, note: noteSnapshot(row), previousBody: before.body } });
    return noteAnswer(tx, row);
  });
}

/** Deletes a note (note.deleted, with its text): its author or management; 404 when it is gone, 403 for others. */
export function deleteNote(db: Db, viewer: Viewer, noteId: string): Promise<void> {
  const management = roleCan(viewer.role, "managementAccess");
  return writeInDealership(db, viewer, async (tx) => {
    const before = await lockNote(tx, viewer, noteId);
    const lead = await lockedLead(tx, viewer, before.leadId);
    if (before.authorId !== viewer.userId && !management) throw forbidden(DELETE_FORBIDDEN);
    const [row] = await tx
      .delete(leadNotes)
      .where(and(eq(leadNotes.id, before.id), eq(leadNotes.dealershipId, viewer.dealershipId), management ? undefined : eq(leadNotes.authorId, viewer.userId)))
      .returning();
    if (!row) throw new Error("a note locked in this transaction was not deleted");
    await publish(tx, { ...by(viewer), type: "note.deleted", payload: { lead, note: noteSnapshot(row) } });
  });
}

/**
 * Logs a call to the lead's customer (call.logged). A logged call is an answer to the customer: the lead's first, if
 * nothing answered before (decision 140).
 */
export function logCall(db: Db, viewer: Viewer, leadId: string, input: CallInput): Promise<Call> {
  return writeInDealership(db, viewer, async (tx) => {
    const lead = await lockedLead(tx, viewer, leadId);
    const [row] = await tx
      .insert(leadCalls)
      .values({ leadId: lead.id, dealershipId: viewer.dealershipId, userId: viewer.userId, outcome: input.outcome, notes: input.notes ?? null })
      .returning();
    await tx
      .update(leads)
      .set(firstResponseSet("call", viewer.userId))
      .where(and(eq(leads.id, lead.id), eq(leads.dealershipId, viewer.dealershipId)));
    await publish(tx, { ...by(viewer), type: "call.logged", payload: { lead, call: { id: row!.id, outcome: row!.outcome, notes: row!.notes } } });
    return { id: row!.id, leadId: row!.leadId, outcome: row!.outcome, notes: row!.notes, createdAt: row!.createdAt.toISOString() };
  });
}
