import type { FastifyInstance } from "fastify";
import { activityQuerySchema, callInputSchema, noteInputSchema, noteUpdateSchema } from "../../shared/activity";
import { requireUser } from "../auth/current-user";
import { answers, checkedInHandler, pathOf } from "../http/contract";
import { parseInput } from "../http/errors";
import { cursorQuery } from "../http/page-cursor";
import { responses } from "../../shared/schemas/responses/activity";
import { activityPage, readActivityCursor } from "./activity";
import { noteViewer } from "./notes";
import { addNote, deleteNote, editNote, logCall } from "./timeline-commands";
import { visibleLead } from "./visible-lead";

// The lead's story (issue 26, decision 218): its timeline, notes and logged calls. Whoever may open the lead
// (access/leads.ts) reads and writes here; anyone else gets 404, as for the lead itself. Each change is a command of
// timeline-commands.ts: its write and its one event, whose timeline entry the same statement writes.

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
    return reply.code(201).send(await addNote(app.db, viewer, lead.id, input));
  });

  app.patch<{ Params: { id: string } }>("/api/notes/:id", {
    schema: { params: pathOf("id"), body: checkedInHandler(noteUpdateSchema), response: answers(responses["PATCH /api/notes/:id"]) },
  }, async (request) => {
    const user = await requireUser(request);
    const viewer = await noteViewer(app.db, user.id, request.params.id);
    const input = parseInput(noteUpdateSchema, request.body);
    return editNote(app.db, viewer, request.params.id, input.body);
  });

  app.delete<{ Params: { id: string } }>("/api/notes/:id", { schema: { params: pathOf("id"), response: answers(responses["DELETE /api/notes/:id"]) } }, async (request) => {
    const user = await requireUser(request);
    const viewer = await noteViewer(app.db, user.id, request.params.id);
    await deleteNote(app.db, viewer, request.params.id);
    return { id: request.params.id };
  });

  app.post<{ Params: { id: string } }>("/api/leads/:id/calls", {
    schema: { params: pathOf("id"), body: checkedInHandler(callInputSchema), response: answers(responses["POST /api/leads/:id/calls"]) },
  }, async (request, reply) => {
    const { lead, viewer } = await visibleLead(request, request.params.id);
    const input = parseInput(callInputSchema, request.body);
    return reply.code(201).send(await logCall(app.db, viewer, lead.id, input));
  });
}
