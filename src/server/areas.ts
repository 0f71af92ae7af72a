import type { FastifyInstance } from "fastify";
import { appointmentRoutes } from "./appointments/routes";
import { leadRoutes } from "./leads/routes";
import { emailNotificationRoutes } from "./notifications/email-routes";
import { platformRoutes } from "./platform/routes";
import { teamRoutes } from "./team/routes";

// The product areas' HTTP routes, registered by buildApp. Each area adds its routes.ts here.
export const areaRoutes: Array<(app: FastifyInstance) => Promise<void>> = [
  appointmentRoutes,
  leadRoutes,
  teamRoutes,
  emailNotificationRoutes,
  platformRoutes,
];
