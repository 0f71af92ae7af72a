import type { FastifyInstance } from "fastify";
import { lostReasonsSchema } from "../../shared/schemas/lost-reasons";
import { responses } from "../../shared/schemas/responses/distribution";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, dealershipPath, type ZodTypeProvider } from "../http/contract";
import { lostReasonsOf } from "./lost-reasons";
import { changeLostReasons } from "./settings-commands";

// Lost reasons (issue 27, decision 202): every member reads the list (the move to Lost asks for one); management
// edits it (settings-commands.ts).
const CHANGE_FORBIDDEN = "Only management can change the lost reasons";

export async function lostReasonRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.get("/api/dealerships/:id/lost-reasons", { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/lost-reasons"]) } }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    return lostReasonsOf(app.db, access.dealershipId);
  });

  app.put("/api/dealerships/:id/lost-reasons", { schema: { params: dealershipPath, body: lostReasonsSchema, response: answers(responses["PUT /api/dealerships/:id/lost-reasons"]) }, preValidation: dealershipFirst("managementAccess", CHANGE_FORBIDDEN) }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", CHANGE_FORBIDDEN);
    return changeLostReasons(app.db, access, request.body);
  });
}
