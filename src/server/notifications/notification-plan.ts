import { sql, type SQL } from "drizzle-orm";
import { APPOINTMENT_STATUS_LABELS, LEAD_STATUS_LABELS, type DealershipRole } from "../../shared/constants";
import type { DomainEvent, DomainEventType, LeadSnapshot, TestDriveSnapshot } from "../../shared/events";
import { fullName } from "../../shared/format";
import { TASK_TYPE_LABELS } from "../../shared/schemas/task";
import { openLeadSql, SEE_EVERY_LEAD } from "../access/leads";
import { rowsOf, type Db, type Tx } from "../db/client";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import type { NotificationType } from "../db/schema/notifications";

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

/** What an event says, and to whom before the rules above narrow it. */
export interface Draft {
  type: NotificationType;
  title: string;
  message: string;
  url: string | null;
  leadId: string | null;
  targetRoles: DealershipRole[];
  /** Concerned people (user ids) on top of the roles. */
  people: Array<string | null | undefined>;
  /** The claimer of `leadId` as it is now is concerned too (a test drive tells the client's rep). */
  leadClaimer?: boolean;
  /** A deleted lead is judged on its snapshot. */
  leadSnapshot?: LeadSnapshot;
}

const leadUrl = (id: string) => `/leads/detail/${id}`;
const CALENDAR_URL = "/calendar";
const testDriveUrl = (id: string) => `/test-drives/${id}`;

function vehicleOf(drive: TestDriveSnapshot): string {
  return drive.vehicleDriven || (drive.stockNumber ? `stock #${drive.stockNumber}` : "a demo vehicle");
}

/** Stored test-drive statuses as words ("no_show" -> "no show"; the stored "out" is the screen's in progress). */
function testDriveStatusWords(status: TestDriveSnapshot["status"]): string {
  return status === "out" ? "in progress" : status.replace("_", " ");
}

type Event<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

function claimedDraft(event: Event<"lead.claimed" | "lead.assigned">): Draft | null {
  const { lead, claimedBy } = event.payload;
  const assigned = event.actorId !== claimedBy.id;
  return {
    type: "lead_claimed",
    title: "Lead Claimed",
    message: assigned ? `Lead assigned to ${claimedBy.name}: ${fullName(lead)}` : `Lead claimed: ${fullName(lead)} by ${claimedBy.name}`,
    url: leadUrl(lead.id),
    leadId: lead.id,
    targetRoles: ["frontDesk", "management"],
    people: [claimedBy.id],
  };
}

function statusDraft(event: Event<"lead.status_changed" | "lead.unclaimed">): Draft | null {
  const { lead } = event.payload;
  return {
    type: "lead_status_changed",
    title: "Lead Updated",
    message: `Lead status changed to ${LEAD_STATUS_LABELS[lead.status] ?? lead.status}: ${fullName(lead)}`,
    url: leadUrl(lead.id),
    leadId: lead.id,
    targetRoles: ["management"],
    people: [lead.claimedBy],
  };
}

/**
 * What each event tells in the bell and by push (its draft), by event type: the bell and push subscribe to exactly
 * these types (notifications/subscribers.ts, push/subscribers.ts). Team and dealership events tell people by e-mail,
 * not in the bell.
 */
const drafts: { [T in DomainEventType]?: (event: Event<T>) => Draft | null } = {
  "lead.created": (event) => {
    const { lead } = event.payload;
    // Created and assigned to someone else: the lead.assigned that follows tells everyone once.
    if (lead.claimedBy && lead.claimedBy !== event.actorId) return null;
    // An unclaimed lead is for everyone who works New Leads; a rep's own new client is for those who see every client.
    const roles: DealershipRole[] = lead.status === "new" ? ["sales", "frontDesk", "management"] : ["frontDesk", "management"];
    return {
      type: "lead_created",
      title: "New Lead",
      message: `New lead: ${fullName(lead)}`,
      url: leadUrl(lead.id),
      leadId: lead.id,
      targetRoles: roles,
      people: [],
    };
  },
  "lead.claimed": claimedDraft,
  "lead.assigned": claimedDraft,
  "lead.status_changed": statusDraft,
  "lead.unclaimed": statusDraft,
  "lead.deleted": (event) => {
    const { lead, mergedInto } = event.payload;
    // Merged into another lead of the same customer: the customer is not gone, so the bell says where they are now.
    if (mergedInto) {
      return {
        type: "lead_deleted",
        title: "Lead Merged",
        message: `${fullName(lead)} merged into ${fullName(mergedInto)}`,
        url: leadUrl(mergedInto.id),
        leadId: mergedInto.id,
        targetRoles: ["management"],
        people: [lead.claimedBy],
        leadSnapshot: lead,
      };
    }
    return {
      type: "lead_deleted",
      title: "Lead Deleted",
      message: `Lead deleted: ${fullName(lead)}`,
      url: null,
      leadId: lead.id,
      targetRoles: ["management"],
      people: [lead.claimedBy],
      leadSnapshot: lead,
    };
  },
  "appointment.created": (event) => {
    const { appointment } = event.payload;
    return {
      type: "appointment_created",
      title: "New Appointment",
      message: `New appointment scheduled: ${appointment.title}`,
      url: CALENDAR_URL,
      leadId: appointment.leadId,
      // Front desk greets the customer; management sees the day's bookings.
      targetRoles: ["frontDesk", "management"],
      people: [appointment.assignedTo, appointment.createdBy],
    };
  },
  "appointment.status_changed": (event) => {
    const { appointment } = event.payload;
    return {
      type: "appointment_status_changed",
      title: "Appointment Updated",
      message: `Appointment status changed to ${APPOINTMENT_STATUS_LABELS[appointment.status]}: ${appointment.title}`,
      url: CALENDAR_URL,
      leadId: appointment.leadId,
      targetRoles: ["management"],
      people: [appointment.assignedTo, appointment.createdBy],
    };
  },
  "test_drive.taken_out": (event) => {
    const { testDrive, takenOutBy } = event.payload;
    return {
      type: "test_drive_taken_out",
      title: "Demo Taken Out",
      message: `Demo taken out: ${vehicleOf(testDrive)} with ${fullName(testDrive)}`,
      url: testDriveUrl(testDrive.id),
      leadId: testDrive.leadId,
      targetRoles: ["management"],
      people: [takenOutBy.id],
      leadClaimer: true,
    };
  },
  "test_drive.returned": (event) => {
    const { testDrive } = event.payload;
    const minutes = testDrive.duration === null ? "" : ` after ${testDrive.duration} min`;
    return {
      type: "test_drive_returned",
      title: "Demo Returned",
      message: `Demo returned: ${vehicleOf(testDrive)}${minutes} (${fullName(testDrive)})`,
      url: testDriveUrl(testDrive.id),
      leadId: testDrive.leadId,
      targetRoles: ["management"],
      people: [testDrive.takenOutBy],
      leadClaimer: true,
    };
  },
  "test_drive.status_changed": (event) => {
    const { testDrive, previousStatus } = event.payload;
    // Taking out and returning publish their own event as well: one notification per change, not two.
    if (testDrive.status === "out" || (previousStatus === "out" && testDrive.status === "completed")) return null;
    return {
      type: "test_drive_status_changed",
      title: "Test Drive Updated",
      message: `Test drive status changed to ${testDriveStatusWords(testDrive.status)}: ${fullName(testDrive)}`,
      url: testDriveUrl(testDrive.id),
      leadId: testDrive.leadId,
      targetRoles: ["management"],
      people: [testDrive.takenOutBy],
      leadClaimer: true,
    };
  },
  "note.added": (event) => {
    // A mention (issue 26): each member the note names, once, while they may open the lead (as every lead notice).
    const { lead, note } = event.payload;
    if (note.mentions.length === 0) return null;
    const text = note.body.length > 140 ? `${note.body.slice(0, 139)}…` : note.body;
    return {
      type: "note_mention",
      title: "Mentioned in a Note",
      message: `${fullName(lead)}: ${text}`,
      url: leadUrl(lead.id),
      leadId: lead.id,
      targetRoles: [],
      people: note.mentions,
    };
  },
  "email.received": (event) => {
    // The customer's reply (issue 26, decision 229): the lead's rep, while they may open it; nobody for a pool lead
    // (every rep could answer it: its timeline shows it to whoever opens it).
    const { lead, email } = event.payload;
    return {
      type: "email_received",
      title: "E-mail from a Customer",
      message: `${fullName(lead)}: ${email.subject}`,
      url: leadUrl(lead.id),
      leadId: lead.id,
      targetRoles: [],
      people: [lead.claimedBy],
    };
  },
  "task.due": (event) => {
    // The reminder (issue 27, decision 198): only the assignee, and only while they may open the lead.
    const { task } = event.payload;
    return {
      type: "task_due",
      title: "Task Due",
      message: `${TASK_TYPE_LABELS[task.type]} ${task.leadName}${task.note ? `: ${task.note}` : ""}`,
      url: leadUrl(task.leadId),
      leadId: task.leadId,
      targetRoles: [],
      people: [task.assigneeId],
    };
  },
};

/** The event types that may tell someone in the bell or by push. */
export const NOTIFIED_EVENT_TYPES = Object.keys(drafts) as DomainEventType[];

function draftFor(event: DomainEvent): Draft | null {
  const draft = drafts[event.type] as ((event: DomainEvent) => Draft | null) | undefined;
  return draft ? draft(event) : null;
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
