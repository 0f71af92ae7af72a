import type { FastifyInstance } from "fastify";
import { recordDeliveries } from "./sending";

// A customer e-mail's delivery (issue 26, decision 228): the mail queue's final outcome updates its row and publishes
// email.delivery_updated, in the transaction that records the outcome.
export function customerMailSubscribers(app: FastifyInstance): void {
  app.mailer.afterDelivery(recordDeliveries);
}
