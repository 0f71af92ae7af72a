import type { ActiveSession } from "./auth/sessions";
import type { SessionUser } from "./auth/current-user";
import type { Config } from "./config";
import type { Db } from "./db/client";
import type { EventBus } from "./events/dispatcher";
import type { Mailer } from "./mail/mailer";
import type { Metrics } from "./http/metrics";
import type { PushService } from "./push/push-service";
import type { WebhookService } from "./integrations/webhooks";

// The app's decorations of Fastify (buildApp sets them): here at the composition root, beside app.ts, since they
// name services of several areas; http/ itself knows no area.

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
    mailer: Mailer;
    push: PushService;
    /** Webhook delivery (issue 28, decision 227). */
    webhooks: WebhookService;
    events: EventBus;
    config: Config;
    routeList: Array<{ method: string; url: string }>;
    /** Prometheus metrics, when METRICS_TOKEN or METRICS_PORT is set (decision 211). */
    metrics: Metrics | null;
    /** Marks the process as stopping: /api/ready answers 503 from now on (SIGTERM). */
    drain(): void;
  }
  interface FastifyRequest {
    session: ActiveSession | null;
    userCache: SessionUser | null | undefined;
  }
}
