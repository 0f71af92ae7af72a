import type { FastifyInstance } from "fastify";
import { NOTIFIED_EVENT_TYPES } from "../notifications/notification-plan";
import { pushOnEvent } from "./push-on-event";

// Web push (decision 112) subscribes to the events that tell someone (the bell's words and people).
export function pushSubscribers(app: FastifyInstance): void {
  app.events.on(NOTIFIED_EVENT_TYPES, (tx, event) => pushOnEvent(app.push, tx, event, app.log), { name: "push" });
}
