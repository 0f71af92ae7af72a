import { sql, type SQL } from "drizzle-orm";
import { addDays } from "../../shared/dealership-clock";
import type { Agenda, AgendaItem } from "../../shared/schemas/responses/tasks";
import { TASK_TYPE_LABELS, type TaskType } from "../../shared/schemas/task";
import { ownAppointmentSql } from "../access/appointments";
import { namesDriveClientSql } from "../access/test-drives";
import type { Viewer } from "../auth/tenancy";
import { rowsOf, type Db, type Tx } from "../db/client";
import { appointments } from "../db/schema/appointments";
import { leads } from "../db/schema/leads";
import { tasks } from "../db/schema/tasks";
import { testDrives } from "../db/schema/test-drives";
import { users } from "../db/schema/users";
import { dueInstant, seesTaskSql, startOfLocalDay } from "./queries";

// One day's agenda (issue 27; decision 197): the day's tasks (and, on today, every open task already overdue), the
// day's appointments and test drives, in time order, from ONE statement. Appointments and drives keep the dealership's
// wall-clock date and time; they are placed in its zone here (in Node, like every conversion of the app) and sorted.
// scope=mine: my tasks, the appointments assigned to or made by me, the drives I took out or booked or that are on my
// clients. scope=all (front desk, management): the dealership's. Each part keeps its own area's visibility.

type Executor = Db | Tx;

/** The most items a day answers. */
const AGENDA_LIMIT = 1000;

interface AgendaRow {
  type: AgendaItem["type"];
  id: string;
  /** Tasks, and drives taken out without a booking: the instant. */
  at: Date | string | null;
  /** Appointments and booked drives: the dealership's date and time. */
  local_date: string | null;
  local_time: string | null;
  lead_id: string | null;
  title: string;
  name: string;
  status: string;
  assignee_id: string | null;
  assignee_name: string | null;
  task_type: TaskType | null;
  note: string | null;
  duration: number | null;
}

const personName = (alias: string) =>
  sql.raw(`coalesce(nullif(trim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, '')), ''), ${alias}.email)`);

export async function agendaOf(
  db: Executor,
  viewer: Viewer,
  query: { date: string; scope: "mine" | "all" },
  clock: { now: Date; timezone: string },
): Promise<Agenda> {
  const result = await db.execute(agendaSql(viewer, query, clock));
  return toAgenda(rowsOf<AgendaRow>(result), query.date, clock);
}

/** The agenda's one statement (the bench explains it). */
export function agendaSql(viewer: Viewer, query: { date: string; scope: "mine" | "all" }, clock: { now: Date; timezone: string }): SQL {
  const { date } = query;
  const mine = query.scope === "mine";
  const from = startOfLocalDay(date, clock.timezone).toISOString();
  const to = startOfLocalDay(addDays(date, 1), clock.timezone).toISOString();
  const isToday = clock.now >= new Date(from) && clock.now < new Date(to);
  const me = viewer.userId;

  // Tasks: due that day (open or done), plus on today every open one overdue from before.
  const taskWhen = isToday
    ? sql`((t.due_at >= ${from}::timestamptz and t.due_at < ${to}::timestamptz and t.status <> 'cancelled')
        or (t.status = 'open' and t.due_at < ${from}::timestamptz))`
    : sql`(t.due_at >= ${from}::timestamptz and t.due_at < ${to}::timestamptz and t.status <> 'cancelled')`;
  const taskWho: SQL = mine ? sql`t.assignee_id = ${me}` : sql`true`;

  const apptWho: SQL = mine ? ownAppointmentSql(me, { assignedTo: sql`a.assigned_to`, createdBy: sql`a.created_by` }) : sql`true`;

  const driveWho: SQL = mine
    ? sql`(d.taken_out_by = ${me} or d.created_by = ${me} or exists (select 1 from ${leads} dl where dl.id = d.lead_id and dl.claimed_by = ${me}))`
    : sql`true`;
  // A sales rep asking for their own sees nothing of a colleague's client (access/leads.ts); scope=all is only theirs
  // to ask when they see every lead (the route's check).
  const driveSeen: SQL = namesDriveClientSql(viewer, sql`d.lead_id`);

  return sql`
    select 'task' as type, t.id, t.due_at as at, null as local_date, null as local_time, t.lead_id, t.type as title,
      trim(l.first_name || ' ' || l.last_name) as name, t.status, t.assignee_id, ${personName("u")} as assignee_name,
      t.type as task_type, t.note, null::integer as duration
    from ${tasks} t join ${leads} l on l.id = t.lead_id left join ${users} u on u.id = t.assignee_id
    where t.dealership_id = ${viewer.dealershipId} and ${taskWho} and ${taskWhen} and ${seesTaskSql(viewer)}
    union all
    select 'appointment', a.id, null, a.date::text, a.time, a.lead_id, a.title,
      trim(a.first_name || ' ' || a.last_name), a.status, a.assigned_to, ${personName("u")}, null, null, a.duration
    from ${appointments} a left join ${users} u on u.id = a.assigned_to
    where a.dealership_id = ${viewer.dealershipId} and a.date = ${date}::date and ${apptWho}
    union all
    select 'test_drive', d.id, d.taken_out_at, d.test_drive_date, coalesce(nullif(d.test_drive_time, ''), '00:00'), d.lead_id,
      coalesce(nullif(d.vehicle_driven, ''), case when d.stock_number is not null then 'Stock #' || d.stock_number end, 'Test drive'),
      trim(d.first_name || ' ' || d.last_name), d.status, coalesce(d.taken_out_by, d.created_by), ${personName("u")}, null, null, null
    from ${testDrives} d left join ${users} u on u.id = coalesce(d.taken_out_by, d.created_by)
    where d.dealership_id = ${viewer.dealershipId} and ${driveWho} and ${driveSeen}
      and (d.test_drive_date = ${date} or (d.test_drive_date is null and d.taken_out_at >= ${from}::timestamptz and d.taken_out_at < ${to}::timestamptz))
    limit ${AGENDA_LIMIT}`;
}

function toAgenda(rows: AgendaRow[], date: string, clock: { now: Date; timezone: string }): Agenda {
  const tz = clock.timezone;
  const now = clock.now.getTime();
  const items = rows.map((row): AgendaItem => {
    // Wall-clock bookings are placed in the zone here, with the same time-zone data as every other conversion of the
    // app (Node's), not the database server's, which may be older or newer.
    const at = row.local_date ? dueInstant(`${row.local_date}T${row.local_time}`, tz) : new Date(row.at!);
    return {
      type: row.type,
      id: row.id,
      at: at.toISOString(),
      leadId: row.lead_id,
      // A task reads as what to do: "Call: ask about the trade-in".
      title: row.task_type ? (row.note ? `${TASK_TYPE_LABELS[row.task_type]}: ${row.note}` : TASK_TYPE_LABELS[row.task_type]) : row.title,
      name: row.name,
      status: row.status,
      assignee: row.assignee_id ? { id: row.assignee_id, name: row.assignee_name ?? "" } : null,
      taskType: row.task_type,
      note: row.note,
      // Appointments only: how long the booking holds its rep (the calendar's double-booking warning, decision 230).
      duration: row.duration === null ? null : Number(row.duration),
      overdue: row.type === "task" && row.status === "open" && at.getTime() < now,
    };
  });
  items.sort((a, b) => a.at.localeCompare(b.at) || a.type.localeCompare(b.type) || a.id.localeCompare(b.id));
  return { date, timezone: tz, items };
}
