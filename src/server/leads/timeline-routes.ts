import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { activityQuerySchema, callInputSchema, noteInputSchema, noteUpdateSchema, type Note } from "../../shared/activity";
import { can } from "../../shared/permissions";
import { requireUser } from "../auth/current-user";
import { writeInDealership } from "../auth/tenancy";
import type { Tx } from "../db/client";
import { leadCalls, leadNotes } from "../db/schema/activity";
import { dealershipUsers } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { users } from "../db/schema/users";
import { publish } from "../events/outbox";
import { badRequest, forbidden, notFound, parseInput } from "../http/errors";
import { answers, checkedInHandler, pathOf } from "../http/contract";
import { cursorQuery } from "../http/page-cursor";
import { responses } from "../../shared/schemas/responses/activity";
import { activityPage, readActivityCursor } from "./activity";
import { findVisibleLead } from "./queries";
import { lockedLead, visibleLead } from "./visible-lead";
import { firstResponseSet } from "./speed-to-lead";

// The lead's story (issue 26, decision 218): its timeline, notes and logged calls. Whoever may open the lead
// (access/leads.ts) reads and writes here; anyone else gets 404, as for the lead itself. Each change publishes one
// event, whose timeline entry the same statement writes.

const NOTE_NOT_FOUND = "Note not found";
const NOT_A_MEMBER = "must name members of this dealership";

async function people(tx: Tx, ids: string[]) {
  if (ids.length === 0) return new Map<string, { id: string; firstName: string; lastName: string }>();
  const rows = await tx.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, { id: r.id, firstName: r.firstName ?? "", lastName: r.lastName ?? "" }]));
}

async function noteAnswer(tx: Tx, row: typeof leadNotes.$inferSelect): Promise<Note> {
  const found = await people(tx, [...new Set([...(row.authorId ? [row.authorId] : []), ...row.mentions])]);
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

/** The note and the viewer it is seen as, or 404 (missing, or on a lead the caller may not open). */
async function visibleNote(app: FastifyInstance, userId: string, noteId: string) {
  if (noteId.length > 64) throw notFound(NOTE_NOT_FOUND);
  const [note] = await app.db.select({ leadId: leadNotes.leadId }).from(leadNotes).where(eq(leadNotes.id, noteId));
  const found = note ? await findVisibleLead(app.db, userId, note.leadId) : undefined;
  if (!found) throw notFound(NOTE_NOT_FOUND);
  return found.viewer;
}

async function lockNote(tx: Tx, noteId: string) {
  const [row] = await tx.select().from(leadNotes).where(eq(leadNotes.id, noteId)).for("update");
  if (!row) throw notFound(NOTE_NOT_FOUND);
  return row;
}

const noteSnapshot = (row: typeof leadNotes.$inferSelect) => ({ id: row.id, body: row.body, authorId: row.authorId, mentions: row.mentions });

export async function timelineRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { id: string }; Querystring: Record<string, string> }>("/api/leads/:id/activity", {
    schema: { params: pathOf("id"), querystring: checkedInHandler(activityQuerySchema), response: answers(responses["GET /api/leads/:id/activity"]) },
  }, async (request, reply) => {
    const { lead } = await visibleLead(request, request.params.id);
    const query = parseInput(activityQuerySchema, request.query);
    const cursor = cursorQuery(query.cursor, 2, readActivityCursor);
    const page = await activityPage(app.db, lead.id, { cursor, limit: query.limit, filter: query.filter });
    if (page.next) {
      const params = new URLSearchParams({ cursor: page.next, limit: String(query.limit), filter: query.filter });
      reply.header("link", `</api/leads/${encodeURIComponent(lead.id)}/activity?${params.toString()}>; rel="next"`);
    }
    return page.entries;
  });

  app.post<{ Params: { id: string } }>("/api/leads/:id/notes", {
    schema: { params: pathOf("id"), body: checkedInHandler(noteInputSchema), response: answers(responses["POST /api/leads/:id/notes"]) },
  }, async (request, reply) => {
    const { lead, viewer } = await visibleLead(request, request.params.id);
    const input = parseInput(noteInputSchema, request.body);
    const mentions = [...new Set(input.mentions ?? [])];
    const note = await writeInDealership(app.db, viewer, async (tx) => {
      const snapshot = await lockedLead(tx, viewer, lead.id);
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
      await publish(tx, { type: "note.added", dealershipId: viewer.dealershipId, actorId: viewer.userId, payload: { lead: snapshot, note: noteSnapshot(row!) } });
      return noteAnswer(tx, row!);
    });
    return reply.code(201).send(note);
  });

  app.patch<{ Params: { id: string } }>("/api/notes/:id", {
    schema: { params: pathOf("id"), body: checkedInHandler(noteUpdateSchema), response: answers(responses["PATCH /api/notes/:id"]) },
  }, async (request) => {
    const user = await requireUser(request);
    const viewer = await visibleNote(app, user.id, request.params.id);
    const input = parseInput(noteUpdateSchema, request.body);
    return writeInDealership(app.db, viewer, async (tx) => {
      const before = await lockNote(tx, request.params.id);
      if (before.authorId !== viewer.userId) throw forbidden("Only the note's author can edit it");
      const snapshot = await lockedLead(tx, viewer, before.leadId);
      const [row] = await tx.update(leadNotes).set({ body: input.body, updatedAt: sql`now()` }).where(eq(leadNotes.id, before.id)).returning();
      await publish(tx, {
        type: "note.edited",
        dealershipId: viewer.dealershipId,
        actorId: viewer.userId,
        payload: { lead: snapshot, note: noteSnapshot(row!), previousBody: before.body },
      });
      return noteAnswer(tx, row!);
    });
  });

  app.delete<{ Params: { id: string } }>("/api/notes/:id", { schema: { params: pathOf("id"), response: answers(responses["DELETE /api/notes/:id"]) } }, async (request) => {
    const user = await requireUser(request);
    const viewer = await visibleNote(app, user.id, request.params.id);
    await writeInDealership(app.db, viewer, async (tx) => {
      const row = await lockNote(tx, request.params.id);
      if (row.authorId !== viewer.userId && !can(viewer.role, "managementAccess")) throw forbidden("Only the note's author or management can delete it");
      const snapshot = await lockedLead(tx, viewer, row.leadId);
      await tx.delete(leadNotes).where(eq(leadNotes.id, row.id));
      await publish(tx, { type: "note.deleted", dealershipId: viewer.dealershipId, actorId: viewer.userId, payload: { lead: snapshot, note: noteSnapshot(row) } });
    });
    return { id: request.params.id };
  });

  // A logged call (issue 26) is an answer to the customer: the lead's first, if nothing answered before (decision 140).
  app.post<{ Params: { id: string } }>("/api/leads/:id/calls", {
    schema: { params: pathOf("id"), body: checkedInHandler(callInputSchema), response: answers(responses["POST /api/leads/:id/calls"]) },
  }, async (request, reply) => {
    const { lead, viewer } = await visibleLead(request, request.params.id);
    const input = parseInput(callInputSchema, request.body);
    const call = await writeInDealership(app.db, viewer, async (tx) => {
      const snapshot = await lockedLead(tx, viewer, lead.id);
      const [row] = await tx
        .insert(leadCalls)
        .values({ leadId: lead.id, dealershipId: viewer.dealershipId, userId: viewer.userId, outcome: input.outcome, notes: input.notes ?? null })
        .returning();
      await tx.update(leads).set(firstResponseSet("call", viewer.userId)).where(eq(leads.id, lead.id));
      await publish(tx, {
        type: "call.logged",
        dealershipId: viewer.dealershipId,
        actorId: viewer.userId,
        payload: { lead: snapshot, call: { id: row!.id, outcome: row!.outcome, notes: row!.notes } },
      });
      return row!;
    });
    return reply.code(201).send({ id: call.id, leadId: call.leadId, outcome: call.outcome, notes: call.notes, createdAt: call.createdAt.toISOString() });
  });
}
