import type { FastifyInstance } from "fastify";
import { analyticsRoutes } from "./analytics/routes";
import { appointmentRoutes } from "./appointments/routes";
import { intakeRoutes } from "./intake/routes";
import { leadCsvRoutes } from "./leads/csv-routes";
import { leadDuplicateRoutes } from "./leads/duplicate-routes";
import { leadRoutes } from "./leads/routes";
import { speedToLeadRoutes } from "./leads/speed-to-lead-routes";
import { emailNotificationRoutes } from "./notifications/email-routes";
import { notificationRoutes } from "./notifications/notification-routes";
import { platformRoutes } from "./platform/routes";
import { profileRoutes } from "./profile/routes";
import { pushRoutes } from "./push/routes";
import { teamRoutes } from "./team/routes";
import { testDriveRoutes } from "./test-drives/routes";
import { vehicleRoutes } from "./vehicles/routes";

// The product areas' HTTP routes, registered by buildApp. Each area adds its routes.ts here.
export const areaRoutes: Array<(app: FastifyInstance) => Promise<void>> = [
  appointmentRoutes,
  leadRoutes,
  leadDuplicateRoutes,
  speedToLeadRoutes,
  teamRoutes,
  emailNotificationRoutes,
  notificationRoutes,
  platformRoutes,
  profileRoutes,
  pushRoutes,
  vehicleRoutes,
  testDriveRoutes,
  analyticsRoutes,
  intakeRoutes,
  leadCsvRoutes,
];
