import type { FastifyInstance } from "fastify";
import { subscribeEach } from "../events/dispatcher";
import { emailHandlers } from "./email-events";
import { bellEventTypes, notifyInAppAll } from "./in-app";

// The notifications area's subscribers (decision 186): the e-mail triggers (decision 034) per event type, and the
// bell (decisions 100-103) for a dispatch batch's events at once. Each runs isolated from the other subscribers.
export function notificationSubscribers(app: FastifyInstance): void {
  subscribeEach(app.events, emailHandlers({ mailer: app.mailer, appUrl: app.config.appUrl }), { name: "email" });
  app.events.onBatch(bellEventTypes(), (tx, events) => notifyInAppAll(tx, events), { name: "bell" });
}
