import type { FastifyInstance } from "fastify";
import { followUpRulesUpdateSchema } from "../../shared/schemas/follow-up-rules";
import { responses } from "../../shared/schemas/responses/tasks";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, dealershipPath, type ZodTypeProvider } from "../http/contract";
import { changeFollowUpRules } from "./commands";
import { followUpRulesOf } from "./follow-ups";

// Automatic follow-up rules (issue 27, decision 200): management's, in the admin panel. A change publishes
// follow_up_rules.updated (commands.ts); saving the rules as they are publishes nothing.
const CHANGE_FORBIDDEN = "Only management can change the follow-up rules";

export async function followUpRuleRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.get("/api/dealerships/:id/follow-up-rules", { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/follow-up-rules"]) } }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", "Only management can see the follow-up rules");
    return followUpRulesOf(app.db, access.dealershipId);
  });

  // Management is checked before the body is validated (decision 190).
  const managerFirst = dealershipFirst("managementAccess", CHANGE_FORBIDDEN);
  app.put("/api/dealerships/:id/follow-up-rules", { schema: { params: dealershipPath, body: followUpRulesUpdateSchema, response: answers(responses["PUT /api/dealerships/:id/follow-up-rules"]) }, preValidation: managerFirst }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", CHANGE_FORBIDDEN);
    return changeFollowUpRules(app.db, access, request.body);
  });
}
