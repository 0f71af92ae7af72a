import { and, eq, inArray } from "drizzle-orm";
import type { Note } from "../../shared/activity";
import type { Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { leadNotes } from "../db/schema/activity";
import { users } from "../db/schema/users";
import { notFound } from "../http/errors";
import { findVisibleLead } from "./queries";

// A lead's notes as they are read (issue 26, decision 218): the answer with its author and mentions, the snapshot its
// events carry, and the viewer a note is seen as. The changes are timeline-commands.ts's.

export const NOTE_NOT_FOUND = "Note not found";

export type NoteRow = typeof leadNotes.$inferSelect;

async function people(db: Db | Tx, ids: string[]) {
  if (ids.length === 0) return new Map<string, { id: string; firstName: string; lastName: string }>();
  const rows = await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, { id: r.id, firstName: r.firstName ?? "", lastName: r.lastName ?? "" }]));
}

/** The note as the routes answer it: its author and mentioned members by name. */
export async function noteAnswer(db: Db | Tx, row: NoteRow): Promise<Note> {
  const found = await people(db, [...new Set([...(row.authorId ? [row.authorId] : []), ...row.mentions])]);
  return {
    id: row.id,
    leadId: row.leadId,
    body: row.body,
    author: row.authorId ? (found.get(row.authorId) ?? null) : null,
    mentions: row.mentions.flatMap((id) => (found.has(id) ? [found.get(id)!] : [])),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The note as its events carry it. */
export const noteSnapshot = (row: NoteRow) => ({ id: row.id, body: row.body, authorId: row.authorId, mentions: row.mentions });

/** The viewer a note is seen as, or 404 (missing, or on a lead the caller may not open). */
export async function noteViewer(db: Db, userId: string, noteId: string): Promise<Viewer> {
  if (noteId.length > 64) throw notFound(NOTE_NOT_FOUND);
  const [note] = await db.select({ leadId: leadNotes.leadId }).from(leadNotes).where(eq(leadNotes.id, noteId));
  const found = note ? await findVisibleLead(db, userId, note.leadId) : undefined;
  if (!found) throw notFound(NOTE_NOT_FOUND);
  return found.viewer;
}

/** A note of the viewer's dealership, locked for the change (edits and a delete of one note take turns), or 404. */
export async function lockNote(tx: Tx, viewer: Viewer, noteId: string): Promise<NoteRow> {
  const [row] = await tx
    .select()
    .from(leadNotes)
    .where(and(eq(leadNotes.id, noteId), eq(leadNotes.dealershipId, viewer.dealershipId)))
    .for("update");
  if (!row) throw notFound(NOTE_NOT_FOUND);
  return row;
}
