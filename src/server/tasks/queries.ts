import { TZDate } from "@date-fns/tz";
import { sql, type SQL } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import { addDays, localToday } from "../../shared/dealership-clock";
import type { TaskSnapshot } from "../../shared/events";
import type { Task } from "../../shared/schemas/responses/tasks";
import type { TaskDueFilter, TaskStatus, TaskType } from "../../shared/schemas/task";
import type { AskerRole } from "../access/asker";
import { openLeadSql, SEE_EVERY_LEAD, seesEveryLead } from "../access/leads";
import { roleSql, viewerOf, type Viewer } from "../auth/tenancy";
import { rowsOf, type Db, type Tx } from "../db/client";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { tasks } from "../db/schema/tasks";
import { users } from "../db/schema/users";

// SQL of follow-up tasks (issue 27). Who sees a task (decision 195): front desk and management every task of their
// dealership; a sales rep only tasks assigned to them, on leads they may open (access/leads.ts, the one lead rule).
// Everything else is not found.

type Executor = Db | Tx;

/** A task row joined to its lead's name and its assignee's name, as the queries below select it. */
export interface TaskRow {
  id: string;
  dealership_id: string;
  lead_id: string;
  type: TaskType;
  due_at: Date | string;
  assignee_id: string | null;
  status: TaskStatus;
  note: string | null;
  origin: string | null;
  completed_at: Date | string | null;
  created_at: Date | string;
  lead_name: string;
  assignee_name: string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The columns of TaskRow over `tasks t join leads l left join users a`. */
const TASK_COLUMNS = sql`t.id, t.dealership_id, t.lead_id, t.type, t.due_at, t.assignee_id, t.status, t.note, t.origin,
  t.completed_at, t.created_at, trim(l.first_name || ' ' || l.last_name) as lead_name,
  coalesce(nullif(trim(coalesce(a.first_name, '') || ' ' || coalesce(a.last_name, '')), ''), a.email) as assignee_name`;
const TASK_FROM = sql`${tasks} t join ${leads} l on l.id = t.lead_id left join ${users} a on a.id = t.assignee_id`;

export function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    leadId: row.lead_id,
    leadName: row.lead_name,
    type: row.type,
    dueAt: iso(row.due_at),
    assignee: row.assignee_id ? { id: row.assignee_id, name: row.assignee_name ?? "" } : null,
    status: row.status,
    note: row.note,
    completedAt: row.completed_at ? iso(row.completed_at) : null,
    createdAt: iso(row.created_at),
  };
}

export function taskSnapshot(row: TaskRow): TaskSnapshot {
  return {
    id: row.id,
    leadId: row.lead_id,
    leadName: row.lead_name,
    type: row.type,
    dueAt: iso(row.due_at),
    assigneeId: row.assignee_id,
    status: row.status,
    note: row.note,
    origin: row.origin,
  };
}

/**
 * Whether the asker sees the task (t, with its lead l): its dealership's front desk and management, or its assignee
 * while they may open its lead. `asker` may be SQL (a role found in the query).
 */
export function seesTaskSql(asker: { userId: string; role: AskerRole | SQL }): SQL {
  const lead = { status: sql`l.status`, claimedBy: sql`l.claimed_by` };
  if (typeof asker.role === "string" && seesEveryLead(asker.role)) return sql`true`;
  const everyLead = typeof asker.role === "string" ? sql`false` : sql`${asker.role} in (${sql.join(SEE_EVERY_LEAD.map((r) => sql`${r}`), sql`, `)})`;
  return sql`(${openLeadSql(asker, lead)} and (${everyLead} or t.assignee_id = ${asker.userId}))`;
}

/** A task with its viewer (the asker's role in the task's dealership), or undefined when the asker may not see it. */
export async function findVisibleTask(db: Executor, userId: string, taskId: string): Promise<{ viewer: Viewer; row: TaskRow } | undefined> {
  const role = sql`(${roleSql(userId, sql`t.dealership_id`)})`;
  const result = await db.execute(sql`select ${TASK_COLUMNS}, ${role} as role from ${TASK_FROM}
    where t.id = ${taskId} and ${seesTaskSql({ userId, role })}`);
  const row = rowsOf<TaskRow & { role: DealershipRole }>(result)[0];
  if (!row) return undefined;
  return { viewer: viewerOf(userId, row.dealership_id, row.role), row };
}

/** The task as the viewer sees it, locked for the rest of the transaction (the lead's row shared). */
export async function lockVisibleTask(tx: Tx, viewer: Viewer, taskId: string): Promise<TaskRow | undefined> {
  const result = await tx.execute(sql`select ${TASK_COLUMNS} from ${TASK_FROM}
    where t.id = ${taskId} and t.dealership_id = ${viewer.dealershipId} and ${seesTaskSql(viewer)}
    for update of t for share of l`);
  return rowsOf<TaskRow>(result)[0];
}

/** A new task on a lead of the viewer's dealership, as the queries above select it. */
export async function insertTask(
  tx: Tx,
  viewer: Viewer,
  values: { leadId: string; type: TaskType; dueAt: Date; assigneeId: string; note: string | null },
): Promise<TaskRow> {
  const [created] = await tx
    .insert(tasks)
    .values({ ...values, dealershipId: viewer.dealershipId, createdBy: viewer.userId })
    .returning({ id: tasks.id });
  return (await taskById(tx, created!.id))!;
}

/** What a change of an open task sets (only what changes). */
export interface TaskChanges {
  status?: "done" | "cancelled";
  dueAt?: Date;
  assigneeId?: string;
  note?: string | null;
}

/**
 * Changes an open task the viewer sees, in one UPDATE whose WHERE holds the scope (the dealership, the visibility of
 * the task and its lead) and the required state (open); undefined when it matched nothing. A new due time or a new
 * assignee makes the reminder due again.
 */
export async function updateOpenTask(tx: Tx, viewer: Viewer, taskId: string, changes: TaskChanges): Promise<TaskRow | undefined> {
  // The server's clock, as Drizzle's updates of this table write it.
  const now = sql`${new Date().toISOString()}::timestamptz`;
  const set: SQL[] = [sql`updated_at = ${now}`];
  if (changes.status) set.push(sql`status = ${changes.status}`, sql`completed_at = ${now}`);
  if (changes.dueAt) set.push(sql`due_at = ${changes.dueAt.toISOString()}::timestamptz`);
  if (changes.assigneeId !== undefined) set.push(sql`assignee_id = ${changes.assigneeId}`);
  if (changes.note !== undefined) set.push(sql`note = ${changes.note}`);
  if (changes.dueAt || changes.assigneeId !== undefined) set.push(sql`reminded_at = null`);
  const result = await tx.execute(sql`update ${tasks} t set ${sql.join(set, sql`, `)}
    from ${leads} l
    where t.id = ${taskId} and l.id = t.lead_id and t.dealership_id = ${viewer.dealershipId} and t.status = 'open'
      and ${seesTaskSql(viewer)}
    returning t.id`);
  const updated = rowsOf<{ id: string }>(result)[0];
  return updated ? taskById(tx, updated.id) : undefined;
}

export async function taskById(db: Executor, taskId: string): Promise<TaskRow | undefined> {
  const result = await db.execute(sql`select ${TASK_COLUMNS} from ${TASK_FROM} where t.id = ${taskId}`);
  return rowsOf<TaskRow>(result)[0];
}

/**
 * Whether the user may be given a task on this lead: an active member of the lead's (active) dealership who may open
 * the lead (a rep is not given a task on a colleague's client they could not see).
 */
export async function mayBeAssigned(db: Executor, dealershipId: string, leadId: string, userId: string): Promise<boolean> {
  const result = await db.execute(sql`select 1 from ${dealershipUsers} du
    join ${dealerships} d on d.id = du.dealership_id and d.active
    join ${leads} l on l.id = ${leadId} and l.dealership_id = du.dealership_id
    where du.user_id = ${userId} and du.dealership_id = ${dealershipId} and du.active
      and ${openLeadSql({ userId: sql`du.user_id`, role: sql`du.role` }, { status: sql`l.status`, claimedBy: sql`l.claimed_by` })}`);
  return rowsOf(result).length > 0;
}

/**
 * A due time as sent: an instant when it carries an offset or Z, else the dealership's wall-clock time in its zone
 * (a time that does not exist on that day, in the spring-forward gap, moves forward as the clock does).
 */
export function dueInstant(value: string, timezone: string): Date {
  if (/(Z|[+-]\d{2}:\d{2})$/.test(value)) return new Date(value);
  const [date, time] = value.split("T") as [string, string];
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [hh, mm, ss = 0] = time.split(":").map(Number) as [number, number, number?];
  return new Date(new TZDate(y, m - 1, d, hh, mm, Math.floor(ss), timezone).getTime());
}

/** The instant a local calendar day starts in the dealership's zone. */
export function startOfLocalDay(date: string, timezone: string): Date {
  return dueInstant(`${date}T00:00`, timezone);
}

export interface TaskListFilter {
  scope: "mine" | "all";
  due?: TaskDueFilter;
  status: "open" | "done";
}

/** The most a list answers (a rep's whole backlog is not one page). */
export const TASK_LIST_LIMIT = 500;

/** The due-time window of "overdue", "today" and "upcoming" on the dealership's clock: disjoint, in that order. */
export function dueWindow(due: TaskDueFilter, now: Date, timezone: string): { from: Date | null; to: Date | null } {
  const tomorrow = startOfLocalDay(addDays(localToday(timezone, now), 1), timezone);
  if (due === "overdue") return { from: null, to: now };
  if (due === "today") return { from: now, to: tomorrow };
  return { from: tomorrow, to: null };
}

export async function listTasks(db: Executor, viewer: Viewer, filter: TaskListFilter, clock: { now: Date; timezone: string }): Promise<Task[]> {
  const result = await db.execute(listTasksSql(viewer, filter, clock));
  return rowsOf<TaskRow>(result).map(toTask);
}

/** The list's one statement (the bench explains it). */
export function listTasksSql(viewer: Viewer, filter: TaskListFilter, clock: { now: Date; timezone: string }): SQL {
  const window = filter.due ? dueWindow(filter.due, clock.now, clock.timezone) : { from: null, to: null };
  const owner = filter.scope === "mine" ? sql`t.assignee_id = ${viewer.userId}` : sql`t.dealership_id = ${viewer.dealershipId}`;
  const order = filter.status === "done" ? sql`t.completed_at desc, t.id desc` : sql`t.due_at, t.id`;
  return sql`select ${TASK_COLUMNS} from ${TASK_FROM}
    where ${owner} and t.dealership_id = ${viewer.dealershipId} and t.status = ${filter.status}
      and ${seesTaskSql(viewer)}
      ${window.from ? sql`and t.due_at >= ${window.from.toISOString()}::timestamptz` : sql``}
      ${window.to ? sql`and t.due_at < ${window.to.toISOString()}::timestamptz` : sql``}
    order by ${order} limit ${TASK_LIST_LIMIT}`;
}

/** A lead's tasks the viewer may see, open ones first by due time (the lead's page). */
export async function tasksOfLead(db: Executor, viewer: Viewer, leadId: string): Promise<Task[]> {
  const result = await db.execute(sql`select ${TASK_COLUMNS} from ${TASK_FROM}
    where t.lead_id = ${leadId} and t.dealership_id = ${viewer.dealershipId} and ${seesTaskSql(viewer)}
    order by (t.status = 'open') desc, t.due_at, t.id limit ${TASK_LIST_LIMIT}`);
  return rowsOf<TaskRow>(result).map(toTask);
}
