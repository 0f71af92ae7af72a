import type { FastifyInstance } from "fastify";
import { followUpClaim, followUpDrive, followUpNoShow } from "./follow-ups";

// The tasks area's subscribers (decision 186): the automatic follow-up rules (decision 200), each on its trigger.
export function taskSubscribers(app: FastifyInstance): void {
  const options = { name: "follow-up-rules" };
  app.events.on("lead.claimed", (tx, event) => followUpClaim(tx, event), options);
  app.events.on("lead.assigned", (tx, event) => followUpClaim(tx, event), options);
  app.events.on("test_drive.returned", (tx, event) => followUpDrive(tx, event), options);
  app.events.on("appointment.status_changed", (tx, event) => followUpNoShow(tx, event), options);
}
