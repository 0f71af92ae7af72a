import type { FastifyInstance } from "fastify";
import { responses } from "../../shared/schemas/responses/push";
import { pushSubscriptionSchema, pushUnsubscribeSchema } from "../../shared/schemas/push";
import { requireUser, signedInFirst } from "../auth/current-user";
import { roleInDealership } from "../auth/tenancy";
import { answers, type ZodTypeProvider } from "../http/contract";
import { unauthorized } from "../http/errors";
import { assertBrowserKey, endSubscription, pushServiceUrl, saveSubscription } from "./subscriptions";

// Web push subscriptions (issue 11; the routes are ours, not the spec's: decision 111). Only ever the signed-in
// user's own: the user comes from the session, never from the body.
export async function pushRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.get("/api/push/public-key", { schema: { response: answers(responses["GET /api/push/public-key"]) } }, async (request) => {
    await requireUser(request);
    return { publicKey: await app.push.publicKey() };
  });

  app.post(
    "/api/push/subscriptions",
    { schema: { body: pushSubscriptionSchema, response: answers(responses["POST /api/push/subscriptions"]) }, preValidation: signedInFirst },
    async (request, reply) => {
      const user = await requireUser(request);
      const input = request.body;
      const endpoint = pushServiceUrl(input.endpoint, app.config.pushLocalEndpoints);
      assertBrowserKey(input.keys.p256dh);
      const session = request.session;
      if (!session) throw unauthorized();
      const role = user.currentDealershipId ? await roleInDealership(app.db, user.id, user.currentDealershipId) : null;
      const saved = await saveSubscription(app.db, { userId: user.id, sessionId: session.sid, role }, input, endpoint);
      return reply.code(201).send(saved);
    },
  );

  app.delete(
    "/api/push/subscriptions",
    { schema: { body: pushUnsubscribeSchema, response: answers(responses["DELETE /api/push/subscriptions"]) }, preValidation: signedInFirst },
    async (request) => {
      const user = await requireUser(request);
      const { endpoint } = request.body;
      // The same answer whether or not the endpoint was the caller's: nobody learns about another's browser.
      await endSubscription(app.db, user.id, endpoint);
      return { message: "Push notifications turned off on this device" };
    },
  );
}
