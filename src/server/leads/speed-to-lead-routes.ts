import type { FastifyInstance } from "fastify";
import { can } from "../../shared/permissions";
import { speedToLeadQuerySchema, speedToLeadSettingsSchema } from "../../shared/schemas/speed-to-lead";
import { requireUser } from "../auth/current-user";
import { requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { notFound, parseInput } from "../http/errors";
import { visibleLead } from "./routes";
import { recordCall, setUnattendedLeadMinutes, speedToLead } from "./speed-to-lead";

// Speed-to-lead (issue 14; decisions 140-142): the dashboard card's and the sales-rep analytics' figures, the call
// that counts as a first answer, and management's unattended-lead time.

type DealershipParams = { Params: { id: string } };

export async function speedToLeadRoutes(app: FastifyInstance): Promise<void> {
  // Everyone in the dealership sees its figures (the dashboard); the per-rep lines are management's (analytics).
  app.get<DealershipParams & { Querystring: Record<string, string> }>("/api/dealerships/:id/speed-to-lead", async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const { days } = parseInput(speedToLeadQuerySchema, request.query);
    return speedToLead(app.db, access, days, new Date(), can(access.role, "managementAccess"));
  });

  app.put<DealershipParams>("/api/dealerships/:id/speed-to-lead/settings", async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", "Only management can change the unattended-lead time");
    const { unattendedLeadMinutes } = parseInput(speedToLeadSettingsSchema, request.body);
    return { unattendedLeadMinutes: await setUnattendedLeadMinutes(app.db, access.dealershipId, unattendedLeadMinutes) };
  });

  // The lead page's phone link and Call button: a call is an answer (the first one counts).
  app.post<{ Params: { id: string } }>("/api/leads/:id/call", async (request) => {
    await requireUser(request);
    const { viewer } = await visibleLead(request, request.params.id);
    const answer = await recordCall(app.db, viewer, request.params.id);
    if (!answer) throw notFound("Lead not found");
    return answer;
  });
}
