import { and, eq, inArray, sql, type AnyColumn } from "drizzle-orm";
import { ACTIVITY_FILTERS, CALL_OUTCOME_LABELS, type ActivityEntry, type ActivityFilter, type ActivityType, type CallOutcome } from "../../shared/activity";
import { LEAD_STATUS_LABELS } from "../../shared/constants";
import { fullName } from "../../shared/format";
import { TASK_TYPE_LABELS, type TaskType } from "../../shared/schemas/task";
import { rowsOf, type Db, type Tx } from "../db/client";
import { leadActivity, leadCalls, leadNotes } from "../db/schema/activity";
import { moveLeadEmails, sentEmailSql } from "../customer-mail/delivery-status";
import { moveReplyAddresses } from "../customer-mail/reply-address";
import { users } from "../db/schema/users";
import { encodePageCursor } from "../http/page-cursor";

// A lead's timeline (issue 26, decision 218). Entries are written with their events (events/timeline-entries.ts);
// an entry keeps the event's payload as written (with its version), and what the timeline shows (data, summary) is
// read from it here, so a new wording needs no migration. A CSV import and a merge write here directly.

/**
 * A CSV import's leads each get a lead.imported entry (its one leads.imported event lists only the first few), in the
 * import's transaction.
 */
export async function recordImportedLeads(
  tx: Tx,
  event: { dealershipId: string; actorId: string | null; importId: string },
  leadIds: string[],
): Promise<void> {
  if (leadIds.length === 0) return;
  await tx.execute(sql`insert into ${leadActivity} (lead_id, dealership_id, type, event_type, actor_id, payload)
    select l.id, l.dealership_id, 'lead.imported', 'leads.imported', ${event.actorId}::text,
      jsonb_build_object('importId', ${event.importId}::text, 'file', 'csv', 'source', l.source,
        'lead', jsonb_build_object('id', l.id, 'firstName', l.first_name, 'lastName', l.last_name))
    from leads l where l.id in (select jsonb_array_elements_text(${JSON.stringify(leadIds)}::jsonb)) and l.dealership_id = ${event.dealershipId}`);
}

/**
 * A merge (decision 138) brings the merged-away lead's story over: its entries, notes and calls move to the kept lead,
 * each entry saying which lead it came from. Called before the merged-away lead is deleted (its rows would go with it).
 */
export async function moveActivity(
  tx: Tx,
  from: { id: string; firstName: string; lastName: string },
  toLeadId: string,
): Promise<{ lead_activity: number[]; lead_notes: string[]; lead_calls: string[]; lead_emails: string[]; lead_reply_addresses: string[] }> {
  const origin = JSON.stringify({ id: from.id, firstName: from.firstName, lastName: from.lastName });
  const entries = await tx
    .update(leadActivity)
    .set({ leadId: toLeadId, mergedFrom: sql`coalesce(${leadActivity.mergedFrom}, ${origin}::jsonb)` })
    .where(eq(leadActivity.leadId, from.id))
    .returning({ id: leadActivity.id });
  const notes = await tx.update(leadNotes).set({ leadId: toLeadId }).where(eq(leadNotes.leadId, from.id)).returning({ id: leadNotes.id });
  const calls = await tx.update(leadCalls).set({ leadId: toLeadId }).where(eq(leadCalls.leadId, from.id)).returning({ id: leadCalls.id });
  // Its e-mail conversation too, and its reply addresses: a reply to its old mail lands on the kept lead.
  const emails = await moveLeadEmails(tx, from.id, toLeadId);
  const addresses = await moveReplyAddresses(tx, from.id, toLeadId);
  // What moved, so that restoring the merged-away lead can take it back (decision 214).
  return {
    lead_activity: entries.map((r) => r.id),
    lead_notes: notes.map((r) => r.id),
    lead_calls: calls.map((r) => r.id),
    lead_emails: emails,
    lead_reply_addresses: addresses,
  };
}

interface ActivityRow {
  id: number;
  type: ActivityType;
  at: Date;
  payload: Record<string, unknown>;
  mergedFrom: { id: string; firstName: string; lastName: string } | null;
  actorId: string | null;
  actorFirstName: string | null;
  actorLastName: string | null;
  emailStatus: string | null;
  emailError: string | null;
}

export interface ActivityCursor {
  at: Date;
  id: number;
}

export function readActivityCursor(parts: string[]): ActivityCursor | null {
  const [at, id] = parts as [string, string];
  const when = new Date(at);
  if (Number.isNaN(when.getTime()) || !/^[0-9]{1,18}$/.test(id)) return null;
  return { at: when, id: Number(id) };
}

/** One page of a lead's entries, newest first, and the next page's cursor. The caller has checked the lead's access. */
export async function activityPage(
  db: Db | Tx,
  leadId: string,
  options: { cursor?: ActivityCursor; limit: number; filter: ActivityFilter },
): Promise<{ entries: ActivityEntry[]; next: string | null }> {
  const rows = (await activityPageQuery(db, leadId, options)) as ActivityRow[];
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    entries: page.map(toEntry),
    next: rows.length > options.limit && last ? encodePageCursor([last.at.toISOString(), String(last.id)]) : null,
  };
}

/**
 * The page's one statement (limit + 1 rows, to know whether another page follows); the bench explains it as is. It
 * walks the lead's index newest first and stops at the page's end: the cursor is a row comparison the index answers,
 * and the actor's name is looked up only for the rows of the page (a join would read every entry of the lead first).
 */
export function activityPageQuery(db: Db | Tx, leadId: string, options: { cursor?: ActivityCursor; limit: number; filter: ActivityFilter }) {
  const types = ACTIVITY_FILTERS[options.filter];
  const actor = (column: AnyColumn) => sql`(select ${column} from ${users} where ${users.id} = ${leadActivity.actorId})`;
  // A sent e-mail's entry shows its delivery as it is now (queued, sent, failed), not as it was when queued.
  const email = (field: "status" | "error") => sentEmailSql(field, leadActivity);
  return db
    .select({
      id: leadActivity.id,
      type: leadActivity.type,
      at: leadActivity.at,
      payload: leadActivity.payload,
      mergedFrom: leadActivity.mergedFrom,
      actorId: actor(users.id).mapWith(String),
      actorFirstName: actor(users.firstName).mapWith(String),
      actorLastName: actor(users.lastName).mapWith(String),
      emailStatus: email("status"),
      emailError: email("error"),
    })
    .from(leadActivity)
    .where(
      and(
        eq(leadActivity.leadId, leadId),
        types ? inArray(leadActivity.type, [...types]) : undefined,
        options.cursor ? sql`(${leadActivity.at}, ${leadActivity.id}) < (${options.cursor.at.toISOString()}::timestamptz, ${options.cursor.id}::bigint)` : undefined,
      ),
    )
    // As the index is ordered (drizzle-kit writes DESC NULLS LAST): a plain DESC (nulls first) would sort every entry.
    .orderBy(sql`${leadActivity.at} desc nulls last`, sql`${leadActivity.id} desc nulls last`)
    .limit(options.limit + 1);
}

type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a stored payload, read by type below

const name = (person: { firstName?: string; lastName?: string } | null | undefined) => (person ? fullName({ firstName: person.firstName ?? "", lastName: person.lastName ?? "" }) : "");
const statusWords = (status: string) => (LEAD_STATUS_LABELS as Record<string, string>)[status] ?? status;
const driveWords = (status: string) => (status === "out" ? "in progress" : status.replace("_", " "));
const vehicleOf = (drive: Payload) => drive.vehicleDriven || (drive.stockNumber ? `stock #${drive.stockNumber}` : "a vehicle");
const FIELD_WORDS: Record<string, string> = {
  firstName: "first name",
  lastName: "last name",
  email: "e-mail",
  phone: "phone",
  description: "description",
  status: "status",
  lostReason: "lost reason",
};

/** What an entry shows: its data (the facts the screens and webhooks need) and a one-line summary. */
export function describeActivity(
  type: ActivityType,
  p: Payload,
  delivery?: { status: string; error: string | null },
): { data: Record<string, unknown>; summary: string } {
  switch (type) {
    case "lead.created": {
      const source = p.source ?? null;
      const provider = p.provider ?? null;
      return { data: { source, provider, importId: p.importId ?? null }, summary: `Lead created${source ? ` (${source}${provider ? `, ${provider}` : ""})` : ""}` };
    }
    case "lead.imported":
      return { data: { source: p.source ?? null, importId: p.importId ?? null, file: p.file ?? "csv" }, summary: "Imported from a file" };
    case "lead.claimed":
      return { data: { claimedBy: p.claimedBy }, summary: `Claimed by ${p.claimedBy?.name ?? "a rep"}` };
    case "lead.assigned":
      return { data: { assignedTo: p.claimedBy }, summary: `Assigned to ${p.claimedBy?.name ?? "a rep"}` };
    case "lead.unclaimed":
      return { data: { from: p.previousStatus, to: p.lead?.status, changes: p.changes ?? {} }, summary: "Returned to New Leads" };
    case "lead.status_changed":
      return {
        data: { from: p.previousStatus, to: p.lead?.status, changes: p.changes ?? {} },
        // A move to Lost says why (decision 202).
        summary: `Status changed from ${statusWords(p.previousStatus)} to ${statusWords(p.lead?.status)}${p.changes?.lostReason?.after ? `: ${p.changes.lostReason.after}` : ""}`,
      };
    case "lead.updated": {
      const fields = Object.keys(p.changes ?? {}).map((key) => FIELD_WORDS[key] ?? key);
      return { data: { changes: p.changes ?? {} }, summary: `Changed ${fields.join(", ") || "details"}` };
    }
    case "lead.merged":
      return {
        data: { merged: { id: p.merged?.id, firstName: p.merged?.firstName, lastName: p.merged?.lastName }, movedAppointments: p.movedAppointments, movedTestDrives: p.movedTestDrives },
        summary: `Merged with ${name(p.merged)}; its history is below`,
      };
    case "lead.restored":
      return {
        data: { deletedAt: p.deletedAt ?? null, unmergedFrom: p.unmergedFrom ?? null, restored: p.restored ?? {} },
        summary: p.unmergedFrom ? `Restored: taken back out of ${name(p.unmergedFrom)}` : "Restored from Recently deleted",
      };
    case "note.added":
      return { data: { noteId: p.note?.id, body: p.note?.body, mentions: p.note?.mentions ?? [] }, summary: "Added a note" };
    case "note.edited":
      return { data: { noteId: p.note?.id, body: p.note?.body, previousBody: p.previousBody }, summary: "Edited a note" };
    case "note.deleted":
      return { data: { noteId: p.note?.id, body: p.note?.body }, summary: "Deleted a note" };
    case "call.logged": {
      const outcome = p.call?.outcome as CallOutcome;
      return { data: { callId: p.call?.id, outcome, notes: p.call?.notes ?? null }, summary: `Call: ${CALL_OUTCOME_LABELS[outcome] ?? outcome}` };
    }
    case "appointment.scheduled": {
      const a = p.appointment ?? {};
      return { data: { appointmentId: a.id, title: a.title, date: a.date, time: a.time }, summary: `Appointment scheduled: ${a.title} on ${a.date} at ${a.time}` };
    }
    case "appointment.status_changed": {
      const a = p.appointment ?? {};
      return { data: { appointmentId: a.id, title: a.title, from: p.previousStatus, to: a.status }, summary: `Appointment ${a.title}: ${p.previousStatus} to ${a.status}` };
    }
    case "test_drive.booked": {
      const d = p.testDrive ?? {};
      return { data: { testDriveId: d.id, vehicle: vehicleOf(d), date: d.testDriveDate, time: d.testDriveTime }, summary: `Test drive booked: ${vehicleOf(d)}` };
    }
    case "test_drive.out": {
      const d = p.testDrive ?? {};
      return { data: { testDriveId: d.id, vehicle: vehicleOf(d), takenOutBy: p.takenOutBy ?? null }, summary: `Test drive out: ${vehicleOf(d)}` };
    }
    case "test_drive.returned": {
      const d = p.testDrive ?? {};
      return { data: { testDriveId: d.id, vehicle: vehicleOf(d), duration: d.duration ?? null }, summary: `Test drive returned: ${vehicleOf(d)}${d.duration != null ? ` after ${d.duration} min` : ""}` };
    }
    case "test_drive.status_changed": {
      const d = p.testDrive ?? {};
      return { data: { testDriveId: d.id, vehicle: vehicleOf(d), from: p.previousStatus, to: d.status }, summary: `Test drive ${driveWords(p.previousStatus)} to ${driveWords(d.status)}` };
    }
    case "email.sent": {
      // `delivery`: the row as it is now (queued until the mail queue's final outcome); the payload says what was sent.
      const e = p.email ?? {};
      const status = delivery?.status ?? "queued";
      return {
        data: { emailId: e.id, subject: e.subject, body: e.body, from: e.from, to: e.to, messageId: e.messageId, inReplyToId: e.inReplyToId ?? null, status, error: delivery?.error ?? null },
        summary: `E-mail ${status === "queued" ? "queued" : status === "failed" ? "failed" : "sent"}: ${e.subject}`,
      };
    }
    case "email.received": {
      const e = p.email ?? {};
      return {
        data: { emailId: e.id, subject: e.subject, body: e.body, from: e.from, to: e.to, messageId: e.messageId, inReplyToId: e.inReplyToId ?? null, attachments: e.attachments ?? [] },
        summary: `E-mail received: ${e.subject}`,
      };
    }
    case "task.completed":
    case "task.rescheduled":
    case "task.reassigned":
    case "task.cancelled": {
      // Follow-up tasks (issue 27): the instants stay instants in data; the screen writes them on the dealership's clock.
      const task = p.task ?? {};
      const what = `${TASK_TYPE_LABELS[task.type as TaskType] ?? "Task"}${task.note ? `: ${task.note}` : ""}`;
      const data = { taskId: task.id, taskType: task.type, note: task.note ?? null, dueAt: task.dueAt, assigneeId: task.assigneeId ?? null };
      if (type === "task.rescheduled") return { data: { ...data, from: p.previousDueAt, to: task.dueAt }, summary: `Task rescheduled: ${what}` };
      if (type === "task.reassigned") return { data: { ...data, from: p.previousAssigneeId ?? null, to: task.assigneeId ?? null }, summary: `Task reassigned: ${what}` };
      return { data, summary: `${type === "task.completed" ? "Task done" : "Task cancelled"}: ${what}` };
    }
  }
}

function toEntry(row: ActivityRow): ActivityEntry {
  const delivery = row.emailStatus ? { status: row.emailStatus, error: row.emailError } : undefined;
  const { data, summary } = describeActivity(row.type, row.payload as Payload, delivery);
  return {
    id: String(row.id),
    type: row.type,
    at: row.at.toISOString(),
    actor: row.actorId ? { id: row.actorId, firstName: row.actorFirstName ?? "", lastName: row.actorLastName ?? "" } : null,
    summary: row.mergedFrom ? `${summary} (from ${name(row.mergedFrom)}, merged)` : summary,
    data: row.mergedFrom ? { ...data, mergedFrom: row.mergedFrom } : data,
  };
}

/** For tests and the bench: every entry of a lead, oldest first. */
export async function allActivity(db: Db | Tx, leadId: string): Promise<Array<{ type: string; eventId: number | null }>> {
  return rowsOf<{ type: string; eventId: number | null }>(
    await db.execute(sql`select type, event_id as "eventId" from ${leadActivity} where lead_id = ${leadId} order by at, id`),
  );
}
