import { sql, type SQL } from "drizzle-orm";
import type { Viewer } from "../auth/tenancy";
import type { Column } from "./asker";

// Who may read a bell notification (decisions 101, 102): only the user it was written for, in the dealership it is
// about; nobody reads or marks anyone else's, whatever their role. (Who is *written* one is the event's plan,
// notifications/notification-plan.ts, over the lead rule.) In memory and as SQL; access/matrix.test.ts proves the
// forms agree.

export interface NotificationOwnership {
  userId: string;
  dealershipId: string;
}

export function mayReadNotification(viewer: Pick<Viewer, "userId" | "dealershipId">, notification: NotificationOwnership): boolean {
  return notification.userId === viewer.userId && notification.dealershipId === viewer.dealershipId;
}

export function mayReadNotificationSql(viewer: Pick<Viewer, "userId" | "dealershipId">, notification: { userId: Column; dealershipId: Column }): SQL {
  return sql`(${notification.userId} = ${viewer.userId} and ${notification.dealershipId} = ${viewer.dealershipId})`;
}
