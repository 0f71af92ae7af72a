import type { FastifyInstance } from "fastify";
import { responses } from "../../shared/schemas/responses/email-notifications";
import { subscriptionSchema, triggerToggleSchema } from "../../shared/schemas/team";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { dealershipSubscriptions, dealershipTriggers, setSubscription, setTriggerActive } from "./email-triggers";

const MANAGE = "Only management can change email notifications";

// Admin panel, Email Notifications tab (part 2 §2, §7). Management only.
export async function emailNotificationRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const managerFirst = dealershipFirst("manageUsers", MANAGE);
  async function manager(request: Parameters<typeof requireDealershipAccess>[0], dealershipId: string) {
    const access = await requireDealershipAccess(request, dealershipId);
    requireCapability(access, "manageUsers", MANAGE);
    return access;
  }

  app.get(
    "/api/dealerships/:id/email-notifications/triggers",
    { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/email-notifications/triggers"]) } },
    async (request) => {
      const access = await manager(request, request.params.id);
      return dealershipTriggers(app.db, access.dealershipId);
    },
  );

  app.patch(
    "/api/dealerships/:id/email-notifications/triggers/:triggerId",
    {
      schema: {
        params: pathOf("id", "triggerId"),
        body: triggerToggleSchema,
        response: answers(responses["PATCH /api/dealerships/:id/email-notifications/triggers/:triggerId"]),
      },
      preValidation: managerFirst,
    },
    async (request) => {
      const access = await manager(request, request.params.id);
      const { isActive } = request.body;
      return setTriggerActive(app.db, access.dealershipId, request.params.triggerId, isActive);
    },
  );

  app.get(
    "/api/dealerships/:id/email-notifications/subscriptions",
    { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/email-notifications/subscriptions"]) } },
    async (request) => {
      const access = await manager(request, request.params.id);
      return dealershipSubscriptions(app.db, access.dealershipId);
    },
  );

  app.post(
    "/api/dealerships/:id/email-notifications/subscriptions",
    { schema: { params: dealershipPath, body: subscriptionSchema, response: answers(responses["POST /api/dealerships/:id/email-notifications/subscriptions"]) }, preValidation: managerFirst },
    async (request) => {
      const access = await manager(request, request.params.id);
      const input = request.body;
      return setSubscription(app.db, access.dealershipId, input);
    },
  );
}
