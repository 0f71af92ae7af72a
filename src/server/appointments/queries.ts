import { and, asc, count, eq, getTableColumns, gt, gte, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppointmentStatus, DealershipRole } from "../../shared/constants";
import { addDays, localMoment, localToday } from "../../shared/dealership-clock";
import type { AppointmentSnapshot } from "../../shared/events";
import type { AppointmentInput } from "../../shared/schemas/appointment";
import { mayOpenAppointmentSql, openAppointmentSql, ownAppointmentSql } from "../access/appointments";
import { roleSql, viewerOf, type Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { appointments } from "../db/schema/appointments";
import { users } from "../db/schema/users";

// Appointment SQL. Every read goes through `visibleTo`, which scopes rows to one dealership and, for a sales user,
// to their own appointments (spec part 1 §6; decision 020). Dates are the dealership's local calendar dates, so
// "today" and "upcoming" are computed from `now` on the dealership's clock and passed in (tests inject `now`).

type Executor = Db | Tx;
export type AppointmentRow = typeof appointments.$inferSelect;

export type { Viewer };

/**
 * The rows a viewer may see (access/appointments.ts: their dealership, and only their own unless the role sees all),
 * or with `onlyMine` only their own whatever the role.
 */
export function visibleTo(viewer: Pick<Viewer, "userId" | "dealershipId" | "role">, onlyMine = false): SQL {
  if (!onlyMine) return mayOpenAppointmentSql(viewer, appointments);
  return and(eq(appointments.dealershipId, viewer.dealershipId), ownAppointmentSql(viewer.userId, appointments))!;
}

/**
 * An appointment the user may see, with the viewer it is seen as (object routes): undefined when missing, in another
 * dealership, or another rep's for a sales user (decision 020).
 */
export async function findVisibleAppointment(db: Executor, userId: string, id: string): Promise<Viewer | undefined> {
  const role = roleSql(userId, appointments.dealershipId);
  const [row] = await db
    .select({ dealershipId: appointments.dealershipId, role: sql<DealershipRole>`${role}` })
    .from(appointments)
    .where(and(eq(appointments.id, id), openAppointmentSql({ userId, role }, appointments)))
    .limit(1);
  return row ? viewerOf(userId, row.dealershipId, row.role) : undefined;
}

export function appointmentSnapshot(row: AppointmentRow): AppointmentSnapshot {
  return {
    id: row.id,
    leadId: row.leadId,
    title: row.title,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    date: row.date,
    time: row.time,
    status: row.status,
    assignedTo: row.assignedTo,
    createdBy: row.createdBy,
  };
}

const withAssignedUser = {
  ...getTableColumns(appointments),
  assignedToUser: sql<{ firstName: string; lastName: string } | null>`case when ${users.id} is null then null else json_build_object('firstName', coalesce(${users.firstName}, ''), 'lastName', coalesce(${users.lastName}, '')) end`,
};

function selectAppointments(db: Executor) {
  return db.select(withAssignedUser).from(appointments).leftJoin(users, eq(users.id, appointments.assignedTo));
}
export type AppointmentWithUser = Awaited<ReturnType<ReturnType<typeof selectAppointments>["where"]>>[number];

const byDateAndTime = [asc(appointments.date), asc(appointments.time), asc(appointments.createdAt), asc(appointments.id)];

/** One appointment the viewer may see, with the assigned user's name. */
export async function appointmentWithUser(db: Executor, viewer: Viewer, id: string): Promise<AppointmentWithUser | undefined> {
  const [row] = await selectAppointments(db).where(and(eq(appointments.id, id), visibleTo(viewer))).limit(1);
  return row;
}

/** Creates an appointment; createdBy and assignedTo are the session user (part 1 §6), never the request body. */
export async function createAppointment(tx: Tx, viewer: Viewer, values: AppointmentInput): Promise<AppointmentRow> {
  const [row] = await tx
    .insert(appointments)
    .values({ ...values, dealershipId: viewer.dealershipId, createdBy: viewer.userId, assignedTo: viewer.userId, status: "scheduled" })
    .returning();
  if (!row) throw new Error("appointment insert returned nothing");
  return row;
}

export interface AppointmentFilter {
  /** my: only the viewer's own, whatever their role; today: the dealership's today; upcoming: see upcomingAppointments. */
  type?: "my" | "today" | "upcoming";
  date?: string;
  from?: string;
  to?: string;
}

/** GET /api/dealerships/{id}/appointments (decision 021). `now` decides "today"; `timezone` is the dealership's. */
export async function listAppointments(
  db: Executor,
  viewer: Viewer,
  filter: AppointmentFilter,
  clock: { now: Date; timezone: string },
): Promise<AppointmentWithUser[]> {
  if (filter.type === "upcoming") return upcomingAppointments(db, viewer, clock);
  const conditions: SQL[] = [visibleTo(viewer, filter.type === "my")];
  if (filter.type === "today") conditions.push(eq(appointments.date, localToday(clock.timezone, clock.now)));
  if (filter.date) conditions.push(eq(appointments.date, filter.date));
  if (filter.from) conditions.push(gte(appointments.date, filter.from));
  if (filter.to) conditions.push(lte(appointments.date, filter.to));
  return selectAppointments(db)
    .where(and(...conditions))
    .orderBy(...byDateAndTime);
}

/**
 * Upcoming (part 1 §2.3): the date is after today, or it is today and the time is later than now, both on the
 * dealership's clock. At most `limit`, sorted by date then time.
 */
export async function upcomingAppointments(
  db: Executor,
  viewer: Viewer,
  clock: { now: Date; timezone: string },
  limit = 5,
): Promise<AppointmentWithUser[]> {
  const here = localMoment(clock.timezone, clock.now);
  return selectAppointments(db)
    .where(
      and(
        visibleTo(viewer),
        or(gt(appointments.date, here.date), and(eq(appointments.date, here.date), gt(appointments.time, here.time))),
      ),
    )
    .orderBy(...byDateAndTime)
    .limit(limit);
}

/** How many appointments the viewer can see on each day of a range (the month picker's markers). */
export async function appointmentDays(db: Executor, viewer: Viewer, from: string, to: string) {
  return db
    .select({ date: appointments.date, count: count() })
    .from(appointments)
    .where(and(visibleTo(viewer), gte(appointments.date, from), lte(appointments.date, to)))
    .groupBy(appointments.date)
    .orderBy(asc(appointments.date));
}

/** A lead's appointments for its detail page, as far as the viewer may see them (decision 022). */
export async function appointmentsOfLead(db: Executor, viewer: Viewer, leadId: string): Promise<AppointmentWithUser[]> {
  return selectAppointments(db)
    .where(and(visibleTo(viewer), eq(appointments.leadId, leadId)))
    .orderBy(...byDateAndTime);
}

/**
 * Sets a status (any to any, part 1 §4) in one UPDATE, so the timestamps are decided from the row as it is
 * (decision 024):
 * - arrived: arrivedAt = the earlier arrival if one is recorded, else now; completion is cleared.
 * - completed: completedAt = now (kept if it was already completed); actualDuration = whole minutes from
 *   arrivedAt to completedAt, or null when no arrival was recorded.
 * - scheduled, cancelled, no-show: arrival and completion are cleared (the visit did not happen).
 * Only an appointment the viewer may see changes; answers it with its status before, or undefined.
 */
const before = alias(appointments, "before");

export async function setAppointmentStatus(
  tx: Tx,
  viewer: Viewer,
  id: string,
  status: AppointmentStatus,
  now: Date,
): Promise<{ row: AppointmentRow; previousStatus: AppointmentStatus } | undefined> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const s = sql`${status}::text`;
  const wasCompleted = sql`(${appointments.status} = 'completed' and ${appointments.completedAt} is not null)`;
  const [result] = await tx
    .update(appointments)
    .set({
      status,
      arrivedAt: sql`case
        when ${s} = 'arrived' then coalesce(${appointments.arrivedAt}, ${at})
        when ${s} = 'completed' then ${appointments.arrivedAt}
        else null end`,
      completedAt: sql`case
        when ${s} <> 'completed' then null
        when ${wasCompleted} then ${appointments.completedAt}
        else ${at} end`,
      actualDuration: sql`case
        when ${s} <> 'completed' then null
        when ${wasCompleted} then ${appointments.actualDuration}
        when ${appointments.arrivedAt} is null then null
        else greatest(0, round(extract(epoch from (${at} - ${appointments.arrivedAt})) / 60))::int end`,
    })
    .from(before)
    .where(and(eq(appointments.id, id), eq(before.id, appointments.id), visibleTo(viewer)))
    .returning({ row: appointments, previousStatus: before.status });
  return result;
}

/** The appointments a calendar feed publishes: the last 90 days and everything ahead, cancelled ones left out (decision 023). */
export async function appointmentsForFeed(
  db: Executor,
  viewer: Viewer,
  onlyMine: boolean,
  clock: { now: Date; timezone: string },
): Promise<AppointmentWithUser[]> {
  const since = addDays(localToday(clock.timezone, clock.now), -90);
  return selectAppointments(db)
    .where(and(visibleTo(viewer, onlyMine), gte(appointments.date, since), ne(appointments.status, "cancelled")))
    .orderBy(...byDateAndTime)
    .limit(5000);
}
