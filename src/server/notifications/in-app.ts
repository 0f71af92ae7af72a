import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { DomainEvent } from "../../shared/events";
import type { Tx } from "../db/client";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { notifications } from "../db/schema/notifications";
import { users } from "../db/schema/users";
import { planNotifications } from "./notification-plan";

// The header bell's writer (decisions 100-103): a once-only handler of the event dispatcher (decision 051), so the rows
// of an event commit with its "dispatched" mark, exactly once however many processes run. One row per recipient.

/** How long a notification is kept (decision 103). */
export const NOTIFICATION_RETENTION_DAYS = 90;
/** Pruning runs at most this often per process, and deletes at most PRUNE_BATCH rows at a time. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const PRUNE_BATCH = 5000;

let lastPrune = 0;

/** Writes the bell's rows for one event, and forgets what a member may no longer see. */
export async function notifyInApp(tx: Tx, event: DomainEvent & { id?: number }): Promise<void> {
  await notifyInAppAll(tx, [event]);
}

/**
 * Writes the bell's rows for a dispatch batch's events: who hears what is asked in one query and the rows go in one
 * insert, whatever the batch's size (a busy lot's claims). Forgetting comes first: the recipients are judged on the
 * database as it stands now, after every event of the batch, so a removed member is not told anyway.
 */
export async function notifyInAppAll(tx: Tx, events: ReadonlyArray<DomainEvent & { id?: number }>): Promise<void> {
  const told: Array<DomainEvent & { id?: number }> = [];
  for (const event of events) {
    switch (event.type) {
      case "team.member_removed":
        // A removed member sees nothing of the dealership any more; rejoining starts with an empty bell.
        await tx.delete(notifications).where(and(eq(notifications.userId, event.payload.member.id), eq(notifications.dealershipId, event.dealershipId)));
        break;
      case "dealership.deleted":
        await tx.delete(notifications).where(eq(notifications.dealershipId, event.dealershipId));
        break;
      case "team.member_role_changed":
        if (event.payload.role === "sales" && event.payload.previousRole !== "sales") await forgetUnseenLeads(tx, event.payload.member.id, event.dealershipId);
        break;
      default:
        told.push(event);
    }
  }
  const plans = told.length ? await planNotifications(tx, told) : [];
  const rows = plans.flatMap((plan, i) => {
    if (!plan) return [];
    const eventId = told[i]!.id;
    return plan.recipientIds.map((userId) => ({
      userId,
      type: plan.type,
      title: plan.title,
      message: plan.message,
      targetUsersRole: plan.targetRoles,
      // The lead or the actor may be gone by the time the event is dispatched: keep the notification, not the link.
      createdBy: plan.createdBy ? sql`(select ${users.id} from ${users} where ${users.id} = ${plan.createdBy})` : null,
      url: plan.url,
      leadId: plan.leadId ? sql`(select ${leads.id} from ${leads} where ${leads.id} = ${plan.leadId})` : null,
      dealershipId: plan.dealershipId,
      // When it happened, not when it was dispatched (a sweep may come seconds later).
      createdAt: eventId === undefined ? sql`now()` : sql`coalesce((select ${domainEvents.createdAt} from ${domainEvents} where ${domainEvents.id} = ${eventId}), now())`,
    }));
  });
  if (rows.length) await tx.insert(notifications).values(rows);
  await pruneNow(tx);
}

/**
 * A member now a sales rep keeps only what a rep may see (decision 010): notifications about another rep's client,
 * and about deleted leads (which no longer say whose they were), go.
 */
async function forgetUnseenLeads(tx: Tx, userId: string, dealershipId: string): Promise<void> {
  await tx.delete(notifications).where(
    and(
      eq(notifications.userId, userId),
      eq(notifications.dealershipId, dealershipId),
      sql`(${notifications.type} = 'lead_deleted' or (${notifications.leadId} is not null and not exists (
        select 1 from ${leads} l where l.id = ${notifications.leadId} and (l.status = 'new' or l.claimed_by = ${userId}))))`,
    ),
  );
}

/** Deletes notifications past retention, at most once an hour per process and a batch at a time. */
async function pruneNow(tx: Tx, now = Date.now()): Promise<void> {
  if (now - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = now;
  await pruneOldNotifications(tx);
}

/** One batch of notifications older than the retention period (oldest first); answers how many went. */
export async function pruneOldNotifications(tx: Tx, days = NOTIFICATION_RETENTION_DAYS): Promise<number> {
  const cutoff = sql`now() - make_interval(days => ${days}::int)`;
  const old = tx.select({ id: notifications.id }).from(notifications).where(lt(notifications.createdAt, cutoff)).orderBy(notifications.createdAt).limit(PRUNE_BATCH);
  const deleted = await tx.delete(notifications).where(inArray(notifications.id, old)).returning({ id: notifications.id });
  return deleted.length;
}
