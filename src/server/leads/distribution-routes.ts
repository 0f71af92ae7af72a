import type { FastifyInstance } from "fastify";
import { availabilityUpdateSchema, distributionUpdateSchema } from "../../shared/schemas/distribution";
import { responses } from "../../shared/schemas/responses/distribution";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, dealershipPath, type ZodTypeProvider } from "../http/contract";
import { forbidden } from "../http/errors";
import { distributionOf, repsAvailability } from "../distribution/settings";
import { changeDistribution, changeRepOnFloor, FLOOR_FORBIDDEN } from "./settings-commands";

// Lead distribution's routes (issue 27, decision 201), in the leads area so that distribution/ (the hand-out every
// arrival path calls) imports no route machinery and sits in no folder cycle: management sets how new leads are handed out; each sales rep says
// whether they are on the floor; every member may see who is. The changes are settings-commands.ts.
const CHANGE_FORBIDDEN = "Only management can change how leads are distributed";

export async function distributionRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.get("/api/dealerships/:id/distribution", { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/distribution"]) } }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", "Only management can see how leads are distributed");
    return distributionOf(app.db, access.dealershipId);
  });

  app.put("/api/dealerships/:id/distribution", { schema: { params: dealershipPath, body: distributionUpdateSchema, response: answers(responses["PUT /api/dealerships/:id/distribution"]) }, preValidation: dealershipFirst("managementAccess", CHANGE_FORBIDDEN) }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", CHANGE_FORBIDDEN);
    return changeDistribution(app.db, access, request.body);
  });

  app.get("/api/dealerships/:id/availability", { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/availability"]) } }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    return repsAvailability(app.db, access.dealershipId);
  });

  // A rep about themself: front desk and management are not on the floor rota (403), nor is an API token's account
  // unless it is a sales member.
  const repFirst = async (request: Parameters<ReturnType<typeof dealershipFirst>>[0]) => {
    const access = await requireDealershipAccess(request, (request.params as { id: string }).id);
    if (access.role !== "sales") throw forbidden(FLOOR_FORBIDDEN);
  };
  app.put("/api/dealerships/:id/availability", { schema: { params: dealershipPath, body: availabilityUpdateSchema, response: answers(responses["PUT /api/dealerships/:id/availability"]) }, preValidation: repFirst }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    if (access.role !== "sales") throw forbidden(FLOOR_FORBIDDEN);
    return changeRepOnFloor(app.db, access, request.body.onFloor);
  });
}
