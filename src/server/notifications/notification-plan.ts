import { sql, type SQL } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import type { DomainEvent, LeadSnapshot, TestDriveSnapshot } from "../../shared/events";
import { fullName } from "../../shared/format";
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
interface Draft {
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

function draftFor(event: DomainEvent): Draft | null {
  switch (event.type) {
    case "lead.created": {
      const { lead } = event.payload;
      // Created and assigned to someone else: the lead.claimed that follows tells everyone once.
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
    }
    case "lead.claimed": {
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
    case "lead.status_changed": {
      const { lead } = event.payload;
      return {
        type: "lead_status_changed",
        title: "Lead Updated",
        message: `Lead status changed to ${lead.status}: ${fullName(lead)}`,
        url: leadUrl(lead.id),
        leadId: lead.id,
        targetRoles: ["management"],
        people: [lead.claimedBy],
      };
    }
    case "lead.deleted": {
      const { lead } = event.payload;
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
    }
    case "appointment.created": {
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
    }
    case "appointment.status_changed": {
      const { appointment } = event.payload;
      return {
        type: "appointment_status_changed",
        title: "Appointment Updated",
        message: `Appointment status changed to ${appointment.status}: ${appointment.title}`,
        url: CALENDAR_URL,
        leadId: appointment.leadId,
        targetRoles: ["management"],
        people: [appointment.assignedTo, appointment.createdBy],
      };
    }
    case "test_drive.taken_out": {
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
    }
    case "test_drive.returned": {
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
    }
    case "test_drive.status_changed": {
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
    }
    default:
      return null; // team and dealership events tell people by e-mail, not in the bell
  }
}

const SEE_EVERY_LEAD: DealershipRole[] = ["frontDesk", "management"];

const list = (values: readonly string[]): SQL => (values.length ? sql`(${sql.join(values.map((v) => sql`${v}`), sql`, `)})` : sql`(null)`);

/** Whether the member `du` may be told about the draft's lead (decision 010, as SQL). */
function mayHearOfLead(draft: Draft, dealershipId: string): SQL {
  if (!draft.leadId) return sql`true`;
  const seesAll = sql`du.role in ${list(SEE_EVERY_LEAD)}`;
  const now = sql`exists (select 1 from ${leads} l where l.id = ${draft.leadId} and l.dealership_id = ${dealershipId}
    and (l.status = 'new' or l.claimed_by = du.user_id))`;
  const snapshot = draft.leadSnapshot;
  const then = snapshot ? (snapshot.status === "new" ? sql`true` : sql`du.user_id = ${snapshot.claimedBy}`) : sql`false`;
  return sql`(${seesAll} or case when exists (select 1 from ${leads} l where l.id = ${draft.leadId}) then ${now} else ${then} end)`;
}

async function recipientsOf(db: Executor, draft: Draft, dealershipId: string, actorId: string | null): Promise<string[]> {
  const people = [...new Set(draft.people.filter((p): p is string => Boolean(p)))];
  const claimer = draft.leadClaimer && draft.leadId ? sql`or du.user_id = (select l.claimed_by from ${leads} l where l.id = ${draft.leadId})` : sql``;
  const result = await db.execute(sql`select du.user_id as "userId"
    from ${dealershipUsers} du join ${dealerships} d on d.id = du.dealership_id
    where du.dealership_id = ${dealershipId} and du.active and d.active
      and (du.role in ${list(draft.targetRoles)} or du.user_id in ${list(people)} ${claimer})
      and du.user_id is distinct from ${actorId}
      and ${mayHearOfLead(draft, dealershipId)}
    order by du.user_id`);
  return rowsOf<{ userId: string }>(result).map((r) => r.userId);
}

/**
 * The notification one domain event makes, with everyone to tell as the database stands now (call it inside the
 * dispatching transaction). Null when the event tells nobody: not a notified kind, or nobody left to tell.
 */
export async function planNotification(db: Executor, event: DomainEvent): Promise<NotificationPlan | null> {
  const draft = draftFor(event);
  if (!draft) return null;
  const recipientIds = await recipientsOf(db, draft, event.dealershipId, event.actorId);
  if (recipientIds.length === 0) return null;
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
}
