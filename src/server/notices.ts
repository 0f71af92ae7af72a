import { appointmentNotices } from "./appointments/notices";
import { customerMailNotices } from "./customer-mail/notices";
import { mergeNotices } from "./events/notices";
import { leadNotices } from "./leads/notices";
import { taskNotices } from "./tasks/notices";
import { testDriveNotices } from "./test-drives/notices";

// What each event says to people, gathered from the areas that own the events (decision 253; events/notices.ts).
// The socket reads it (realtime/messages.ts); areas.ts hands it to the bell and push at load
// (notifications/notification-plan.ts), which cannot import the areas that import notifications. Each area adds its
// notices.ts here.
export const notices = mergeNotices([leadNotices, appointmentNotices, testDriveNotices, customerMailNotices, taskNotices]);
