import { sql, type SQL } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import type { DomainEvent, DomainEventType } from "../../shared/events";
import { openLeadSql, SEE_EVERY_LEAD } from "../access/leads";
import { rowsOf, type Db, type Tx } from "../db/client";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import type { NotificationType } from "../db/schema/notifications";
import { bellDraftOf, typesWith, type BellDraft, type Notices } from "../events/notices";

// Who hears what (decision 100). ONE answer per domain event, used by the in-app bell's writer, by web push and by
// anyone else who must tell people about an event: the same people, the same words.
//
// - Recipients are active members of the (active) dealership: those whose role is targeted plus the people concerned
//   (the claimer, the assignee, the creator, who took the demo out). A platform admin's granted access is not
//   membership: their shell has no bell.
// - Never the actor: nobody is told about what they just did.
// - A sales rep is told about a lead only when they may see it (decision 010: the unclaimed pool or their own client),
//   judged on the lead as it is now; a lead already deleted is judged on the event's snapshot. An appointment or test
//   drive on a lead carries that lead, so the same rule holds for them. Front desk and management see every lead.

export interface NotificationPlan {
  type: NotificationType;
  title: string;
  message: string;
  /** The in-app page the item opens (null: nothing left to open). */
  url: string | null;
  /** The lead it is about. It may be gone by now (a deletion, or one right after): writers must not rely on the row. */
  leadId: string | null;
  dealershipId: string;
  /** The actor (null for the system). */
  createdBy: string | null;
  /** Roles told as a role (the spec's targetUsersRole); the concerned people come on top. */
  targetRoles: DealershipRole[];
  /** Everyone to tell, resolved now: never empty (no plan instead), never the actor. */
  recipientIds: string[];
}

type Executor = Db | Tx;

/** What an event says, and to whom before the rules above narrow it: written by the event's area (decision 253). */
export type Draft = BellDraft;

// The areas' notices (src/server/notices.ts), handed over by areas.ts at load: notifications cannot import the areas,
// which import it (leads' e-mail triggers, ...), without a cycle of folders.
let notices: Notices | null = null;

/** The event types that may tell someone in the bell or by push: those whose notice has a bell draft. The bell and
 * push subscribe to exactly these (notifications/subscribers.ts, push/subscribers.ts); filled by registerNotices. */
export const NOTIFIED_EVENT_TYPES: DomainEventType[] = [];

/** What each event type says in the bell and by push, from the areas' notices (areas.ts calls it once, at load). */
export function registerNotices(areaNotices: Notices): void {
  notices = areaNotices;
  NOTIFIED_EVENT_TYPES.splice(0, NOTIFIED_EVENT_TYPES.length, ...typesWith(areaNotices, "bell"));
}

function draftFor(event: DomainEvent): Draft | null {
  if (!notices) throw new Error("No notices registered: areas.ts hands the areas' notices to notifications at load");
  return bellDraftOf(notices, event);
}

/** One draft as a row of the recipients query (jsonb_to_recordset below). */
export interface DraftRow {
  i: number;
  dealership_id: string;
  actor_id: string | null;
  roles: DealershipRole[];
  people: string[];
  lead_id: string | null;
  lead_claimer: boolean;
  /** A deleted lead's snapshot: who could see it then ("new": everyone; else its claimer). */
  snapshot_new: boolean | null;
  snapshot_claimed_by: string | null;
}

/** DraftRow's columns, for `jsonb_to_recordset(...) as d(...)`. */
export const DRAFT_COLUMNS = sql.raw(
  "i int, dealership_id text, actor_id text, roles text[], people text[], lead_id text, lead_claimer boolean, snapshot_new boolean, snapshot_claimed_by text",
);

/**
 * Everyone to tell for each draft, as SQL answering (i, user_id), in ONE statement however many drafts (a dispatch
 * batch of a busy lot's claims): active members of the active dealership, by role or concerned, never the actor, and a
 * rep only about a lead they may see now (decision 010), or saw, for a deleted lead, as its snapshot says. `drafts` is
 * a FROM item named d with DRAFT_COLUMNS.
 */
export function recipientsOfDrafts(drafts: SQL): SQL {
  return sql`select d.i, du.user_id
    from ${drafts}
    join ${dealershipUsers} du on du.dealership_id = d.dealership_id and du.active
    join ${dealerships} dd on dd.id = du.dealership_id and dd.active
    where (du.role = any(d.roles) or du.user_id = any(d.people)
        or (d.lead_claimer and du.user_id = (select l.claimed_by from ${leads} l where l.id = d.lead_id)))
      and du.user_id is distinct from d.actor_id
      and (d.lead_id is null or du.role in (${sql.join(SEE_EVERY_LEAD.map((role) => sql`${role}`), sql`, `)})
        or case when exists (select 1 from ${leads} l where l.id = d.lead_id)
          then exists (select 1 from ${leads} l where l.id = d.lead_id and l.dealership_id = d.dealership_id
            and ${openLeadSql({ userId: sql`du.user_id`, role: sql`du.role` }, { status: sql`l.status`, claimedBy: sql`l.claimed_by` })})
          else coalesce(d.snapshot_new or du.user_id = d.snapshot_claimed_by, false) end)`;
}

async function recipientsOf(db: Executor, drafts: DraftRow[]): Promise<Map<number, string[]>> {
  const result = await db.execute(
    sql`${recipientsOfDrafts(sql`jsonb_to_recordset(${JSON.stringify(drafts)}::jsonb) as d(${DRAFT_COLUMNS})`)} order by 1, 2`,
  );
  const byDraft = new Map<number, string[]>();
  for (const { i, user_id: userId } of rowsOf<{ i: number; user_id: string }>(result)) {
    const list = byDraft.get(i);
    if (list) list.push(userId);
    else byDraft.set(i, [userId]);
  }
  return byDraft;
}

/** What each event says (null: it tells nobody in the bell), with its row for the recipients query. */
export function draftsOf(events: readonly DomainEvent[]): Array<{ draft: Draft; row: DraftRow } | null> {
  return events.map((event, i) => {
    const draft = draftFor(event);
    if (!draft) return null;
    return {
      draft,
      row: {
        i,
        dealership_id: event.dealershipId,
        actor_id: event.actorId,
        roles: draft.targetRoles,
        people: [...new Set(draft.people.filter((p): p is string => Boolean(p)))],
        lead_id: draft.leadId,
        lead_claimer: Boolean(draft.leadClaimer && draft.leadId),
        snapshot_new: draft.leadSnapshot ? draft.leadSnapshot.status === "new" : null,
        snapshot_claimed_by: draft.leadSnapshot && draft.leadSnapshot.status !== "new" ? draft.leadSnapshot.claimedBy : null,
      },
    };
  });
}

/**
 * The notification each domain event makes, with everyone to tell as the database stands now (call it inside the
 * dispatching transaction), in one query for all of them. Null for an event that tells nobody: not a notified kind,
 * or nobody left to tell.
 */
export async function planNotifications(db: Executor, events: readonly DomainEvent[]): Promise<Array<NotificationPlan | null>> {
  const drafts = draftsOf(events);
  const rows = drafts.flatMap((d) => (d ? [d.row] : []));
  const recipients = rows.length ? await recipientsOf(db, rows) : new Map<number, string[]>();
  return drafts.map((d, i) => {
    const recipientIds = recipients.get(i);
    if (!d || !recipientIds) return null;
    const { draft } = d;
    const event = events[i]!;
    return {
      type: draft.type,
      title: draft.title,
      message: draft.message,
      url: draft.url,
      leadId: draft.leadId,
      dealershipId: event.dealershipId,
      createdBy: event.actorId,
      targetRoles: draft.targetRoles,
      recipientIds,
    };
  });
}

/** planNotifications for one event. */
export async function planNotification(db: Executor, event: DomainEvent): Promise<NotificationPlan | null> {
  const [plan] = await planNotifications(db, [event]);
  return plan ?? null;
}
