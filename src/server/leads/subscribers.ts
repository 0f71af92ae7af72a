import type { FastifyInstance } from "fastify";
import { mailUnattendedLeads } from "./unattended-leads";

// The leads area's subscriber: the unattended-leads e-mail (decision 142) on lead.unattended.
export function leadSubscribers(app: FastifyInstance): void {
  app.events.on("lead.unattended", (tx, event) => mailUnattendedLeads({ tx, mailer: app.mailer, appUrl: app.config.appUrl }, event), { name: "email" });
}
