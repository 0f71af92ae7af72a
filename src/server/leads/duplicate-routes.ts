import type { FastifyInstance } from "fastify";
import { mergeLeadsSchema } from "../../shared/schemas/lead-duplicates";
import { requireUser } from "../auth/current-user";
import { requireCapability } from "../auth/tenancy";
import { conflict, HttpError, notFound, parseInput } from "../http/errors";
import { dismissDuplicate, possibleDuplicates } from "./duplicates";
import { ALREADY_MERGED, mergedAwayFor, mergeLeads } from "./merge";
import { visibleLead } from "./routes";

// Possible duplicates on the lead's page and merging them (issue 14; decisions 137-139). The lead of the path is found
// with the lead's own visibility (404 for another dealership, or for a rep another rep's client); merging and "Not a
// duplicate" are for front desk and management, decided here from the session.

type LeadParams = { Params: { id: string } };
const MERGE_FORBIDDEN = "Only front desk and management can merge leads";

export async function leadDuplicateRoutes(app: FastifyInstance): Promise<void> {
  app.get<LeadParams>("/api/leads/:id/duplicates", async (request) => {
    const { viewer } = await visibleLead(request, request.params.id);
    return possibleDuplicates(app.db, viewer, request.params.id);
  });

  // The lead of the path is kept; mergeLeadId is folded into it and deleted.
  app.post<LeadParams>("/api/leads/:id/merge", async (request) => {
    const user = await requireUser(request);
    const found = await visibleLead(request, request.params.id).catch(async (error: unknown) => {
      if (error instanceof HttpError && error.statusCode === 404 && (await mergedAwayFor(app.db, user.id, request.params.id))) throw conflict(ALREADY_MERGED);
      throw error;
    });
    const { viewer } = found;
    requireCapability(viewer, "mergeLeads", MERGE_FORBIDDEN);
    const input = parseInput(mergeLeadsSchema, request.body);
    return app.db.transaction((tx) => mergeLeads(tx, viewer, request.params.id, input.mergeLeadId, input.choices));
  });

  // "Not a duplicate".
  app.delete<{ Params: { id: string; otherId: string } }>("/api/leads/:id/duplicates/:otherId", async (request) => {
    const { viewer } = await visibleLead(request, request.params.id);
    requireCapability(viewer, "mergeLeads", "Only front desk and management can dismiss a possible duplicate");
    if (!(await dismissDuplicate(app.db, viewer, request.params.id, request.params.otherId))) throw notFound("Possible duplicate not found");
    return { message: "Marked as not a duplicate" };
  });
}
