import type { FastifyInstance } from "fastify";
import { analyticsRoutes } from "./analytics/routes";
import { customerMailRoutes } from "./customer-mail/routes";
import { customerMailSubscribers } from "./customer-mail/subscribers";
import { appointmentRoutes } from "./appointments/routes";
import { dealershipSettingsRoutes } from "./dealerships/settings-routes";
import { intakeRoutes } from "./intake/routes";
import { apiDocsRoutes } from "./integrations/api-docs-routes";
import { apiTokenRoutes } from "./integrations/api-token-routes";
import { webhookRoutes } from "./integrations/webhook-routes";
import { webhookSubscribers } from "./integrations/subscribers";
import { leadCsvRoutes } from "./leads/csv-routes";
import { leadDuplicateRoutes } from "./leads/duplicate-routes";
import { recentlyDeletedRoutes } from "./leads/recently-deleted-routes";
import { leadRoutes } from "./leads/routes";
import { lostReasonRoutes } from "./leads/lost-reason-routes";
import { distributionRoutes } from "./leads/distribution-routes";
import { speedToLeadRoutes } from "./leads/speed-to-lead-routes";
import { timelineRoutes } from "./leads/timeline-routes";
import { emailNotificationRoutes } from "./notifications/email-routes";
import { notificationRoutes } from "./notifications/notification-routes";
import { registerNotices } from "./notifications/notification-plan";
import { notices } from "./notices";
import { platformRoutes } from "./platform/routes";
import { profileRoutes } from "./profile/routes";
import { pushRoutes } from "./push/routes";
import { taskRoutes } from "./tasks/routes";
import { followUpRuleRoutes } from "./tasks/follow-up-routes";
import { taskSubscribers } from "./tasks/subscribers";
import { leadSubscribers } from "./leads/subscribers";
import { notificationSubscribers } from "./notifications/subscribers";
import { pushSubscribers } from "./push/subscribers";
import { teamRoutes } from "./team/routes";
import { testDriveRoutes } from "./test-drives/routes";
import { vehicleRoutes } from "./vehicles/routes";

// The product areas' HTTP routes, registered by buildApp. Each area adds its routes.ts here.
export const areaRoutes: Array<(app: FastifyInstance) => Promise<void>> = [
  appointmentRoutes,
  leadRoutes,
  leadDuplicateRoutes,
  recentlyDeletedRoutes,
  speedToLeadRoutes,
  timelineRoutes,
  customerMailRoutes,
  teamRoutes,
  emailNotificationRoutes,
  notificationRoutes,
  platformRoutes,
  profileRoutes,
  pushRoutes,
  vehicleRoutes,
  testDriveRoutes,
  taskRoutes,
  followUpRuleRoutes,
  distributionRoutes,
  lostReasonRoutes,
  analyticsRoutes,
  intakeRoutes,
  leadCsvRoutes,
  apiTokenRoutes,
  webhookRoutes,
  apiDocsRoutes,
  dealershipSettingsRoutes,
];

// The areas' event subscribers (decision 186), registered by buildApp before the dispatcher starts. Each area's
// subscribers.ts says which event types it does what on: app.events.on(type, handler, { name }).
export const areaSubscribers: Array<(app: FastifyInstance) => void> = [notificationSubscribers, pushSubscribers, leadSubscribers, taskSubscribers, webhookSubscribers, customerMailSubscribers];

// What events say in the bell and by push (decision 253): the areas' notices, handed to notifications at load, before
// any subscriber registers (buildApp) and before main.ts's demo data replays its bells.
registerNotices(notices);
