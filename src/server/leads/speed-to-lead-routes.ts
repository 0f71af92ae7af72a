import type { FastifyInstance } from "fastify";
import { can } from "../../shared/permissions";
import { responses } from "../../shared/schemas/responses/speed-to-lead";
import { speedToLeadQuerySchema, speedToLeadSettingsSchema } from "../../shared/schemas/speed-to-lead";
import { requireUser } from "../auth/current-user";
import { dealershipFirst, requireCapability, requireDealershipAccess, writeInDealership } from "../auth/tenancy";
import { answers, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { notFound } from "../http/errors";
import { visibleLead } from "./visible-lead";
import { recordCall, setUnattendedLeadMinutes, speedToLead } from "./speed-to-lead";

// Speed-to-lead (issue 14; decisions 140-142): the dashboard card's and the sales-rep analytics' figures, the call
// that counts as a first answer, and management's unattended-lead time.

const SETTINGS_FORBIDDEN = "Only management can change the unattended-lead time";

export async function speedToLeadRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const memberFirst = dealershipFirst();
  // Everyone in the dealership sees its figures (the dashboard); the per-rep lines are management's (analytics).
  app.get("/api/dealerships/:id/speed-to-lead", { schema: { params: dealershipPath, querystring: speedToLeadQuerySchema, response: answers(responses["GET /api/dealerships/:id/speed-to-lead"]) }, preValidation: memberFirst }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const { days } = request.query;
    return speedToLead(app.db, access, days, new Date(), can(access.role, "managementAccess"));
  });

  app.put("/api/dealerships/:id/speed-to-lead/settings", { schema: { params: dealershipPath, body: speedToLeadSettingsSchema, response: answers(responses["PUT /api/dealerships/:id/speed-to-lead/settings"]) }, preValidation: dealershipFirst("managementAccess", SETTINGS_FORBIDDEN) }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", SETTINGS_FORBIDDEN);
    const { unattendedLeadMinutes } = request.body;
    return { unattendedLeadMinutes: await setUnattendedLeadMinutes(app.db, access.dealershipId, unattendedLeadMinutes) };
  });

  // The lead page's phone link and Call button: a call is an answer (the first one counts).
  app.post("/api/leads/:id/call", { schema: { params: pathOf("id"), response: answers(responses["POST /api/leads/:id/call"]) } }, async (request) => {
    await requireUser(request);
    const { viewer } = await visibleLead(request, request.params.id);
    const answer = await writeInDealership(app.db, viewer, (tx) => recordCall(tx, viewer, request.params.id));
    if (!answer) throw notFound("Lead not found");
    return answer;
  });
}
