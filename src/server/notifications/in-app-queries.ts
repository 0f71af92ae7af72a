import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Notification } from "../../shared/schemas/responses/notifications";
import type { DealershipRole } from "../../shared/constants";
import { mayReadNotificationSql } from "../access/notifications";
import { roleSql, type Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { notifications } from "../db/schema/notifications";

// The bell's reads and writes (spec part 2 §2, §7; decisions 101, 102). Every statement carries `user_id` = the
// signed-in user: nobody reads or marks anyone else's, and an id that is not theirs is simply not found.

type Executor = Db | Tx;
type Row = typeof notifications.$inferSelect;

/** The list answers the newest this many (the popover shows 10; decision 102). */
export const NOTIFICATION_LIST_LIMIT = 50;

function toNotification(row: Row): Notification {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    message: row.message,
    read: row.read,
    targetUsersRole: row.targetUsersRole as DealershipRole[],
    createdBy: row.createdBy,
    url: row.url,
    leadId: row.leadId,
    dealershipId: row.dealershipId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The viewer's own notifications in the dealership (access/notifications.ts). */
const mine = (viewer: Pick<Viewer, "userId" | "dealershipId">) => mayReadNotificationSql(viewer, notifications);

/** The viewer's newest notifications in the dealership, newest first. */
export async function notificationsOf(db: Executor, viewer: Viewer): Promise<Notification[]> {
  const rows = await db
    .select()
    .from(notifications)
    .where(mine(viewer))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATION_LIST_LIMIT);
  return rows.map(toNotification);
}

/** The badge: the viewer's unread notifications in the dealership (answered from the partial unread index). */
export async function unreadCount(db: Executor, viewer: Viewer): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(mine(viewer), sql`not ${notifications.read}`));
  return row?.n ?? 0;
}

/**
 * Marks one of the user's own notifications read, in a dealership they still belong to: undefined for anyone
 * else's, a missing one, or one of a dealership they left (the route answers 404 for all alike).
 */
export async function markRead(db: Executor, userId: string, id: string): Promise<Notification | undefined> {
  const [row] = await db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), sql`${roleSql(userId, notifications.dealershipId)} is not null`))
    .returning();
  return row ? toNotification(row) : undefined;
}

/** Marks every unread notification of the viewer in the dealership read; answers how many. */
export async function markAllRead(db: Executor, viewer: Viewer): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ read: true })
    .where(and(mine(viewer), sql`not ${notifications.read}`))
    .returning({ id: notifications.id });
  return rows.length;
}
