import type { FastifyInstance } from "fastify";
import { responses } from "../../shared/schemas/responses/notifications";
import { requireDealershipAccess } from "../auth/tenancy";
import { requireUser } from "../auth/current-user";
import { answers, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { notFound } from "../http/errors";
import { markAllRead, markRead, notificationsOf, unreadCount } from "./in-app-queries";

// The header bell (spec part 2 §2 Notifications, §7 Notifications and real time). Every member has a bell; each sees
// and marks only their own notifications (decision 101).
export async function notificationRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.get(
    "/api/dealerships/:id/notifications",
    { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/notifications"]) } },
    async (request) => {
      const viewer = await requireDealershipAccess(request, request.params.id);
      return notificationsOf(app.db, viewer);
    },
  );

  app.get(
    "/api/dealerships/:id/notifications/count",
    { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/notifications/count"]) } },
    async (request) => {
      const viewer = await requireDealershipAccess(request, request.params.id);
      return { count: await unreadCount(app.db, viewer) };
    },
  );

  // No body (§7). Someone else's id answers 404 like a missing one, so ids cannot be probed.
  app.post(
    "/api/notifications/:id/read",
    { schema: { params: pathOf("id"), response: answers(responses["POST /api/notifications/:id/read"]) } },
    async (request) => {
      const user = await requireUser(request);
      const notification = await markRead(app.db, user.id, request.params.id);
      if (!notification) throw notFound("Notification not found");
      return notification;
    },
  );

  app.post(
    "/api/dealerships/:id/notifications/mark-all-read",
    { schema: { params: dealershipPath, response: answers(responses["POST /api/dealerships/:id/notifications/mark-all-read"]) } },
    async (request) => {
      const viewer = await requireDealershipAccess(request, request.params.id);
      return { marked: await markAllRead(app.db, viewer) };
    },
  );
}
