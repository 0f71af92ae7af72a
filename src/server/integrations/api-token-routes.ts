import type { FastifyInstance, FastifyRequest } from "fastify";
import { apiTokenInputSchema } from "../../shared/schemas/integrations";
import { responses } from "../../shared/schemas/responses/integrations";
import { provenEmailFirst } from "../auth/proven-email";
import { dealershipFirst, requireCapability, requireDealershipAccess, writeInDealership } from "../auth/tenancy";
import { publish } from "../events/outbox";
import { answers, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { badRequest, notFound } from "../http/errors";
import { createApiToken, listApiTokens, revokeApiToken, tokenSnapshot, toApiToken } from "./api-tokens";

// API tokens (issue 28, decision 225): management creates, lists and revokes them in the admin panel. A token
// request never reaches these routes (token-requests.ts), whatever its role.

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
      const input = request.body;
      if (input.expiresAt && new Date(input.expiresAt).getTime() <= Date.now()) {
        throw badRequest("expiresAt: must be in the future", { expiresAt: "must be in the future" });
      }
      const created = await writeInDealership(app.db, access, async (tx) => {
        const made = await createApiToken(tx, access.dealershipId, access.userId, input);
        await publish(tx, { type: "api_token.created", dealershipId: access.dealershipId, actorId: access.userId, payload: { token: tokenSnapshot(made.row) } });
        return made;
      });
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
      await writeInDealership(app.db, access, async (tx) => {
        const revoked = await revokeApiToken(tx, access.dealershipId, request.params.tokenId);
        if (!revoked) throw notFound("No such API token");
        await publish(tx, { type: "api_token.revoked", dealershipId: access.dealershipId, actorId: access.userId, payload: { token: tokenSnapshot(revoked) } });
      });
      return { message: "API token revoked" };
    },
  );
}
