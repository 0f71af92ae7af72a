import type { FastifyInstance } from "fastify";
import { DOMAIN_EVENT_TYPES } from "../../shared/events";

// Webhooks subscribe to every domain event (decision 227): each matching endpoint's delivery is written, with its job,
// in the dispatching transaction, so it is sent after the event's commit and at least once.
export function webhookSubscribers(app: FastifyInstance): void {
  app.events.on(DOMAIN_EVENT_TYPES, async (tx, event) => void (await app.webhooks.enqueue(tx, event)), { name: "webhooks" });
}
