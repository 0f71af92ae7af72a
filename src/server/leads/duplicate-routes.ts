import type { FastifyInstance } from "fastify";
import { mergeLeadsSchema } from "../../shared/schemas/lead-duplicates";
import { responses } from "../../shared/schemas/responses/lead-duplicates";
import { requireUser } from "../auth/current-user";
import { requireCapability, writeInDealership } from "../auth/tenancy";
import { answers, checkedFirst, pathOf, type ZodTypeProvider } from "../http/contract";
import { conflict, HttpError, notFound } from "../http/errors";
import { dismissDuplicate, possibleDuplicates } from "./duplicates";
import { ALREADY_MERGED, mergedAwayFor, mergeLeads } from "./merge";
import { visibleLead } from "./visible-lead";

// Possible duplicates on the lead's page and merging them (issue 14; decisions 137-139). The lead of the path is found
// with the lead's own visibility (404 for another dealership, or for a rep another rep's client); merging and "Not a
// duplicate" are for front desk and management, decided here from the session.

const MERGE_FORBIDDEN = "Only front desk and management can merge leads";

export async function leadDuplicateRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.get("/api/leads/:id/duplicates", { schema: { params: pathOf("id"), response: answers(responses["GET /api/leads/:id/duplicates"]) } }, async (request) => {
    const { viewer } = await visibleLead(request, request.params.id);
    return possibleDuplicates(app.db, viewer, request.params.id);
  });

  // The lead of the path is kept; mergeLeadId is folded into it and deleted. Who may merge it (401, 404, 409 when it
  // was merged away, 403) is answered before the body is validated.
  const mergeable = checkedFirst(async (request) => {
    const user = await requireUser(request);
    const id = (request.params as { id: string }).id;
    const found = await visibleLead(request, id).catch(async (error: unknown) => {
      if (error instanceof HttpError && error.statusCode === 404 && (await mergedAwayFor(app.db, user.id, id))) throw conflict(ALREADY_MERGED);
      throw error;
    });
    requireCapability(found.viewer, "mergeLeads", MERGE_FORBIDDEN);
    return found.viewer;
  });
  app.post("/api/leads/:id/merge", { schema: { params: pathOf("id"), body: mergeLeadsSchema, response: answers(responses["POST /api/leads/:id/merge"]) }, preValidation: mergeable.preValidation }, async (request) => {
    const viewer = mergeable.answer(request);
    const input = request.body;
    return writeInDealership(app.db, viewer, (tx) => mergeLeads(tx, viewer, request.params.id, input.mergeLeadId, input.choices));
  });

  // "Not a duplicate".
  app.delete("/api/leads/:id/duplicates/:otherId", { schema: { params: pathOf("id", "otherId"), response: answers(responses["DELETE /api/leads/:id/duplicates/:otherId"]) } }, async (request) => {
    const { viewer } = await visibleLead(request, request.params.id);
    requireCapability(viewer, "mergeLeads", "Only front desk and management can dismiss a possible duplicate");
    const dismissed = await writeInDealership(app.db, viewer, (tx) => dismissDuplicate(tx, viewer, request.params.id, request.params.otherId));
    if (!dismissed) throw notFound("Possible duplicate not found");
    return { message: "Marked as not a duplicate" };
  });
}
