import type { FastifyInstance } from "fastify";
import { pushSubscriptionSchema, pushUnsubscribeSchema } from "../../shared/schemas/push";
import { requireUser } from "../auth/current-user";
import { roleInDealership } from "../auth/tenancy";
import { parseInput, unauthorized } from "../http/errors";
import { assertBrowserKey, assertPushServiceEndpoint, endSubscription, saveSubscription } from "./subscriptions";

// Web push subscriptions (issue 11; the routes are ours, not the spec's: decision 111). Only ever the signed-in
// user's own: the user comes from the session, never from the body.
export async function pushRoutes(app: FastifyInstance): Promise<void> {
  app.get("/api/push/public-key", async (request) => {
    await requireUser(request);
    return { publicKey: await app.push.publicKey() };
  });

  app.post("/api/push/subscriptions", async (request, reply) => {
    const user = await requireUser(request);
    const input = parseInput(pushSubscriptionSchema, request.body);
    assertPushServiceEndpoint(input.endpoint, app.config.pushLocalEndpoints);
    assertBrowserKey(input.keys.p256dh);
    const session = request.session;
    if (!session) throw unauthorized();
    const role = user.currentDealershipId ? await roleInDealership(app.db, user.id, user.currentDealershipId) : null;
    const saved = await saveSubscription(app.db, { userId: user.id, sessionId: session.sid, role }, input);
    return reply.code(201).send(saved);
  });

  app.delete("/api/push/subscriptions", async (request) => {
    const user = await requireUser(request);
    const { endpoint } = parseInput(pushUnsubscribeSchema, request.body);
    // The same answer whether or not the endpoint was the caller's: nobody learns about another's browser.
    await endSubscription(app.db, user.id, endpoint);
    return { message: "Push notifications turned off on this device" };
  });
}
