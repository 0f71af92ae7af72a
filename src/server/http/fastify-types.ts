import type { ActiveSession } from "../auth/sessions";
import type { SessionUser } from "../auth/current-user";
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { EventBus } from "../events/dispatcher";
import type { Mailer } from "../mail/mailer";
import type { PushService } from "../push/push-service";

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
    mailer: Mailer;
    push: PushService;
    events: EventBus;
    config: Config;
    routeList: Array<{ method: string; url: string }>;
  }
  interface FastifyRequest {
    session: ActiveSession | null;
    userCache: SessionUser | null | undefined;
  }
}
