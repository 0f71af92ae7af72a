import type { FastifyInstance } from "fastify";
import { subscriptionSchema, triggerToggleSchema } from "../../shared/schemas/team";
import { requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { parseInput } from "../http/errors";
import { dealershipSubscriptions, dealershipTriggers, setSubscription, setTriggerActive } from "./email-triggers";

type DealershipParams = { Params: { id: string } };

const MANAGE = "Only management can change email notifications";

// Admin panel, Email Notifications tab (part 2 §2, §7). Management only.
export async function emailNotificationRoutes(app: FastifyInstance): Promise<void> {
  async function manager(request: Parameters<typeof requireDealershipAccess>[0], dealershipId: string) {
    const access = await requireDealershipAccess(request, dealershipId);
    requireCapability(access, "manageUsers", MANAGE);
    return access;
  }

  app.get<DealershipParams>("/api/dealerships/:id/email-notifications/triggers", async (request) => {
    const access = await manager(request, request.params.id);
    return dealershipTriggers(app.db, access.dealershipId);
  });

  app.patch<{ Params: { id: string; triggerId: string } }>(
    "/api/dealerships/:id/email-notifications/triggers/:triggerId",
    async (request) => {
      const access = await manager(request, request.params.id);
      const { isActive } = parseInput(triggerToggleSchema, request.body);
      return setTriggerActive(app.db, access.dealershipId, request.params.triggerId, isActive);
    },
  );

  app.get<DealershipParams>("/api/dealerships/:id/email-notifications/subscriptions", async (request) => {
    const access = await manager(request, request.params.id);
    return dealershipSubscriptions(app.db, access.dealershipId);
  });

  app.post<DealershipParams>("/api/dealerships/:id/email-notifications/subscriptions", async (request) => {
    const access = await manager(request, request.params.id);
    const input = parseInput(subscriptionSchema, request.body);
    return setSubscription(app.db, access.dealershipId, input);
  });
}
