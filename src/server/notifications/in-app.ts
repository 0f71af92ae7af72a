import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { DomainEvent, DomainEventType } from "../../shared/events";
import { openLeadSql } from "../access/leads";
import type { Tx } from "../db/client";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { notifications } from "../db/schema/notifications";
import { users } from "../db/schema/users";
import { fixedStatement, runStatement } from "../db/prepared";
import { DRAFT_COLUMNS, draftsOf, NOTIFIED_EVENT_TYPES, recipientsOfDrafts } from "./notification-plan";

// The header bell's writer (decisions 100-103): a once-only handler of the event dispatcher (decision 051), so the rows
// of an event commit with its "dispatched" mark, exactly once however many processes run. One row per recipient.

/** How long a notification is kept (decision 103). */
export const NOTIFICATION_RETENTION_DAYS = 90;
/** Pruning runs at most this often per process, and deletes at most PRUNE_BATCH rows at a time. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const PRUNE_BATCH = 5000;

let lastPrune = 0;

// The bell's rows of a whole dispatch batch in one prepared statement: who hears each event (the one rule of
// notification-plan.ts) and the rows, one per recipient. The lead or the actor may be gone by the time the event is
// dispatched: keep the notification, not the link. The recipients are only known inside the statement, so the ids are
// made there, in nanoid's shape (21 URL-safe characters from a random UUID's bytes), which the response schema checks.
const bellRowsStatement = fixedStatement(
  "bell_rows",
  sql`with drafts as (
      select * from jsonb_to_recordset(${sql.placeholder("drafts")}::jsonb)
        as d(${DRAFT_COLUMNS}, type text, title text, message text, url text, created_at timestamptz, event_id bigint)
    ),
    told as (${recipientsOfDrafts(sql`drafts d`)})
    insert into ${notifications} (id, user_id, type, title, message, target_users_role, created_by, url, lead_id, dealership_id, created_at)
    select left(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), 21), told.user_id, d.type, d.title, d.message,
      d.roles, (select u.id from ${users} u where u.id = d.actor_id), d.url, (select l.id from ${leads} l where l.id = d.lead_id),
      d.dealership_id, coalesce(d.created_at, (select e.created_at from ${domainEvents} e where e.id = d.event_id), now())
    from told join drafts d on d.i = told.i`,
);

type Event<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** What the bell forgets when an event takes access away, by event type. */
const forgetting: { [T in DomainEventType]?: (tx: Tx, event: Event<T>) => Promise<void> } = {
  // A removed member sees nothing of the dealership any more; rejoining starts with an empty bell.
  "team.member_removed": async (tx, event) => {
    await tx.delete(notifications).where(and(eq(notifications.userId, event.payload.member.id), eq(notifications.dealershipId, event.dealershipId)));
  },
  "dealership.deleted": async (tx, event) => {
    await tx.delete(notifications).where(eq(notifications.dealershipId, event.dealershipId));
  },
  "team.member_role_changed": async (tx, event) => {
    if (event.payload.role === "sales" && event.payload.previousRole !== "sales") await forgetUnseenLeads(tx, event.payload.member.id, event.dealershipId);
  },
};

/** The events the bell's writer takes: those that tell someone, and those that take access away. Asked when the bell
 * subscribes (buildApp), after areas.ts registered the areas' notices. */
export function bellEventTypes(): DomainEventType[] {
  return [...NOTIFIED_EVENT_TYPES, ...(Object.keys(forgetting) as DomainEventType[])];
}

/** Writes the bell's rows for one event, and forgets what a member may no longer see. */
export async function notifyInApp(tx: Tx, event: DomainEvent & { id?: number }): Promise<void> {
  await notifyInAppAll(tx, [event]);
}

/**
 * Writes the bell's rows for a dispatch batch's events: who hears what and the rows, in one statement whatever the
 * batch's size (a busy lot's claims). Forgetting comes first: the recipients are judged on the database as it stands
 * now, after every event of the batch, so a removed member is not told anyway.
 */
export async function notifyInAppAll(tx: Tx, events: ReadonlyArray<DomainEvent & { id?: number; createdAt?: Date }>): Promise<void> {
  const told: Array<DomainEvent & { id?: number; createdAt?: Date }> = [];
  for (const event of events) {
    const forget = forgetting[event.type] as ((tx: Tx, event: DomainEvent) => Promise<void>) | undefined;
    if (forget) await forget(tx, event);
    else told.push(event);
  }
  const drafts = draftsOf(told).flatMap((d, i) => {
    if (!d) return [];
    const event = told[i]!;
    const { draft, row } = d;
    return [
      {
        ...row,
        type: draft.type,
        title: draft.title,
        message: draft.message,
        url: draft.url,
        // When it happened, not when it was dispatched (a sweep may come seconds later).
        created_at: event.createdAt?.toISOString() ?? null,
        event_id: event.id ?? null,
      },
    ];
  });
  if (drafts.length) await runStatement(tx, bellRowsStatement, { drafts: JSON.stringify(drafts) });
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
        select 1 from ${leads} l where l.id = ${notifications.leadId}
          and ${openLeadSql({ userId, role: "sales" }, { status: sql`l.status`, claimedBy: sql`l.claimed_by` })})))`,
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
