import type { FastifyInstance, FastifyRequest } from "fastify";
import { apiTokenInputSchema } from "../../shared/schemas/integrations";
import { responses } from "../../shared/schemas/responses/integrations";
import { provenEmailFirst } from "../auth/proven-email";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { listApiTokens, toApiToken } from "./api-tokens";
import { issueApiToken, revokeApiToken } from "./commands";

// API tokens (issue 28, decision 225): management creates, lists and revokes them in the admin panel. A token
// request never reaches these routes (token-requests.ts), whatever its role. The changes are commands.ts's.

const MANAGEMENT_ONLY = "Only management can manage API tokens";

export async function apiTokenRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const manager = async (request: FastifyRequest, dealershipId: string) => {
    const access = await requireDealershipAccess(request, dealershipId);
    requireCapability(access, "managementAccess", MANAGEMENT_ONLY);
    return access;
  };

  app.post(
    "/api/dealerships/:id/api-tokens",
    {
      schema: { params: dealershipPath, body: apiTokenInputSchema, response: answers(responses["POST /api/dealerships/:id/api-tokens"]) },
      preValidation: [dealershipFirst("managementAccess", MANAGEMENT_ONLY), provenEmailFirst],
    },
    async (request, reply) => {
      const access = await manager(request, request.params.id);
      const created = await issueApiToken(app.db, access, request.body);
      return reply.code(201).send({ ...toApiToken(created.row), token: created.token });
    },
  );

  app.get("/api/dealerships/:id/api-tokens", { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/api-tokens"]) } }, async (request) => {
    const access = await manager(request, request.params.id);
    return listApiTokens(app.db, access.dealershipId);
  });

  app.delete(
    "/api/dealerships/:id/api-tokens/:tokenId",
    { schema: { params: pathOf("id", "tokenId"), response: answers(responses["DELETE /api/dealerships/:id/api-tokens/:tokenId"]) } },
    async (request) => {
      const access = await manager(request, request.params.id);
      await revokeApiToken(app.db, access, request.params.tokenId);
      return { message: "API token revoked" };
    },
  );
}
