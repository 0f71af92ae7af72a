import type { FastifyInstance } from "fastify";
import { requireDealershipAccess } from "../auth/tenancy";
import { requireUser } from "../auth/current-user";
import { notFound } from "../http/errors";
import { markAllRead, markRead, notificationsOf, unreadCount } from "./in-app-queries";

type DealershipParams = { Params: { id: string } };

// The header bell (spec part 2 §2 Notifications, §7 Notifications and real time). Every member has a bell; each sees
// and marks only their own notifications (decision 101).
export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  app.get<DealershipParams>("/api/dealerships/:id/notifications", async (request) => {
    const viewer = await requireDealershipAccess(request, request.params.id);
    return notificationsOf(app.db, viewer);
  });

  app.get<DealershipParams>("/api/dealerships/:id/notifications/count", async (request) => {
    const viewer = await requireDealershipAccess(request, request.params.id);
    return { count: await unreadCount(app.db, viewer) };
  });

  // No body (§7). Someone else's id answers 404 like a missing one, so ids cannot be probed.
  app.post<{ Params: { id: string } }>("/api/notifications/:id/read", async (request) => {
    const user = await requireUser(request);
    const notification = await markRead(app.db, user.id, request.params.id);
    if (!notification) throw notFound("Notification not found");
    return notification;
  });

  app.post<DealershipParams>("/api/dealerships/:id/notifications/mark-all-read", async (request) => {
    const viewer = await requireDealershipAccess(request, request.params.id);
    return { marked: await markAllRead(app.db, viewer) };
  });
}
