import type { FastifyInstance } from "fastify";
import { mailUnattendedLeads } from "../leads/unattended-leads";
import { emailOnEvent } from "../notifications/email-events";
import { pushOnEvent } from "../push/push-on-event";
import { notifyInAppAll } from "../notifications/in-app";

/** The once-only work each domain event starts (decision 051). Notifications and web push add theirs here. */
export function registerEventHandlers(app: FastifyInstance): void {
  app.events.handle((tx, event) => emailOnEvent({ tx, mailer: app.mailer, appUrl: app.config.appUrl }, event));
  app.events.handle((tx, event) => mailUnattendedLeads({ tx, mailer: app.mailer, appUrl: app.config.appUrl }, event));
  app.events.handle((tx, event) => pushOnEvent(app.push, tx, event, app.log));
  app.events.handleBatch((tx, events) => notifyInAppAll(tx, events));
}
