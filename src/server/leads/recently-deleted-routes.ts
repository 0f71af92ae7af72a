import type { FastifyInstance } from "fastify";
import { responses } from "../../shared/schemas/responses/deleted-leads";
import { mayRestoreLeads } from "../access/leads";
import { requireUser } from "../auth/current-user";
import { requireDealershipAccess, writeInDealership } from "../auth/tenancy";
import { answers, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { forbidden, notFound } from "../http/errors";
import { findDeletedLead, recentlyDeleted, restoreLead } from "./recently-deleted";

// Recently deleted leads and their restore (issue 30, decision 214): management only (access/leads.ts mayRestoreLeads).
// A deleted lead of another dealership, or one restored or purged, is not found (404); sales and front desk of its
// dealership are refused (403).

const ONLY_MANAGEMENT = "Only management can see and restore deleted leads";
const NOT_FOUND = "Deleted lead not found";

export async function recentlyDeletedRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();

  app.get("/api/dealerships/:id/deleted-leads", { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/deleted-leads"]) } }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    if (!mayRestoreLeads(access.role)) throw forbidden(ONLY_MANAGEMENT);
    return recentlyDeleted(app.db, access.dealershipId);
  });

  app.post("/api/leads/:id/restore", { schema: { params: pathOf("id"), response: answers(responses["POST /api/leads/:id/restore"]) } }, async (request) => {
    const user = await requireUser(request);
    const viewer = await findDeletedLead(app.db, user.id, request.params.id);
    if (!viewer) throw notFound(NOT_FOUND);
    if (!mayRestoreLeads(viewer.role)) throw forbidden(ONLY_MANAGEMENT);
    const result = await writeInDealership(app.db, viewer, (tx) => restoreLead(tx, viewer, request.params.id));
    // Restored by someone else a moment ago: nothing left to restore.
    if (!result) throw notFound(NOT_FOUND);
    return result;
  });
}
