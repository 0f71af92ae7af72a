import { sql, type SQL } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import { addDays } from "../../shared/dealership-clock";
import { leadSourceLabel, type LeadSource } from "../../shared/lead-source";
import {
  oneDecimal,
  RECENT_ACTIVITY_PER_REP,
  RECENT_TEST_DRIVES_SHOWN,
  TOP_VEHICLES_SHOWN,
  type LeadSourceFigures,
  type RepActivityType,
  type SalesRep,
  type SalesRepAnalytics,
  type TestDriveAnalytics,
} from "../../shared/schemas/analytics";
import { mayReadAnalyticsRowSql } from "../access/analytics";
import type { Viewer } from "../auth/tenancy";
import { rowsOf, type Db, type Tx } from "../db/client";
import { appointments } from "../db/schema/appointments";
import { dealershipUsers } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { testDrives } from "../db/schema/test-drives";
import { users } from "../db/schema/users";

// Both analytics screens (part 2 §2, §3; decisions 065, 066, 069). A period of N days is the dealership's today and the N-1
// days before it, from local midnight to local midnight: the bounds are computed by PostgreSQL from the dealership's
// time zone, so a day of a daylight-saving change is 23 or 25 hours long and a drive belongs to the local day it was
// taken out on, even when it is returned after midnight. Each figure is read from an index over (dealership, time).

type Executor = Db | Tx;

/** Who reads the figures: management of the dealership (access/analytics.ts); the rows are that dealership's. */
export type AnalyticsViewer = Pick<Viewer, "dealershipId" | "role">;

export interface Period {
  /** The dealership's today, YYYY-MM-DD. */
  today: string;
  days: number;
  timezone: string;
}

/** The first local day of the period and the day after its last. */
export function periodDays(period: Period): { first: string; end: string } {
  return { first: addDays(period.today, -(period.days - 1)), end: addDays(period.today, 1) };
}

/** Local midnight of a YYYY-MM-DD day in the time zone, as an instant (SQL). */
function localMidnight(day: string, timezone: string): SQL {
  return sql`((${day}::date)::timestamp at time zone ${timezone}::text)`;
}

const iso = (v: Date | string | null) => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString());

// ---- Test drive analytics ----

interface DriveAnalyticsRow {
  total: number;
  vehicles_used: number;
  avg_duration: number | null;
  top: Array<{ vehicle: string; stockNumber: string | null; count: number }> | null;
  daily: Array<{ date: string; count: number; vehicles: string[] }> | null;
  recent: Array<{
    id: string;
    vehicleDriven: string | null;
    stockNumber: string | null;
    clientName: string;
    takenOutAt: string;
    returnedAt: string | null;
    duration: number | null;
    salesAssociate: string | null;
  }> | null;
}

/**
 * The one statement of the test drive analytics (exported for the benchmark's query plans). The period's drives are
 * read once, from testdrives_dealership_taken_out_idx alone, into a small grouping by local day and vehicle; every
 * figure comes from that grouping. The recent drives are the index read backwards, ten rows.
 */
export function testDriveAnalyticsSql(viewer: AnalyticsViewer, period: Period): SQL {
  const { first, end } = periodDays(period);
  const tz = period.timezone;
  const from = localMidnight(first, tz);
  const to = localMidnight(end, tz);
  return sql`
    with g as materialized (
      select (t.taken_out_at at time zone ${tz}::text)::date as day,
        coalesce('v' || t.vehicle_id, 't' || t.tdu_id, 's' || coalesce(t.stock_number, t.vehicle_driven, '')) as vehicle_key,
        t.vehicle_driven, t.stock_number, count(*)::int as n, sum(t.duration)::bigint as minutes, count(t.duration)::int as timed
      from ${testDrives} t
      where ${mayReadAnalyticsRowSql(viewer, sql`t.dealership_id`)} and t.taken_out_at >= ${from} and t.taken_out_at < ${to}
      group by 1, 2, 3, 4
    )
    select
      (select coalesce(sum(n), 0)::int from g) as total,
      (select count(distinct vehicle_key)::int from g) as vehicles_used,
      (select round(sum(minutes)::numeric / nullif(sum(timed), 0))::int from g) as avg_duration,
      (select json_agg(json_build_object('vehicle', vehicle, 'stockNumber', stock_number, 'count', n) order by n desc, vehicle, stock_number)
        from (select coalesce(vehicle_driven, 'Unknown vehicle') as vehicle, stock_number, sum(n)::int as n from g
              group by 1, 2 order by n desc, vehicle, stock_number limit ${TOP_VEHICLES_SHOWN}) top) as top,
      (select json_agg(json_build_object('date', to_char(day, 'YYYY-MM-DD'), 'count', n, 'vehicles', vehicles) order by day)
        from (select day, sum(n)::int as n, coalesce(array_agg(distinct vehicle_driven) filter (where vehicle_driven is not null), '{}') as vehicles
              from g group by day) days) as daily,
      (select json_agg(json_build_object('id', r.id, 'vehicleDriven', r.vehicle_driven, 'stockNumber', r.stock_number,
                'clientName', trim(r.first_name || ' ' || r.last_name), 'takenOutAt', r.taken_out_at, 'returnedAt', r.returned_at,
                'duration', r.duration,
                'salesAssociate', nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')) order by r.taken_out_at desc, r.id desc)
        from (select x.id, x.vehicle_driven, x.stock_number, x.first_name, x.last_name, x.taken_out_at, x.returned_at, x.duration, x.taken_out_by
              from ${testDrives} x
              where ${mayReadAnalyticsRowSql(viewer, sql`x.dealership_id`)} and x.taken_out_at >= ${from} and x.taken_out_at < ${to}
              order by x.taken_out_at desc, x.id desc limit ${RECENT_TEST_DRIVES_SHOWN}) r
        left join ${users} u on u.id = r.taken_out_by) as recent
  `;
}

/** Part 2 §3 Test drive analytics: the drives taken out in the period (decision 065), in one statement. */
export async function testDriveAnalytics(db: Executor, viewer: AnalyticsViewer, period: Period): Promise<TestDriveAnalytics> {
  const { first } = periodDays(period);
  const row = rowsOf<DriveAnalyticsRow>(await db.execute(testDriveAnalyticsSql(viewer, period)))[0];
  if (!row) throw new Error("analytics query returned no row");
  // Every day of the period, zero days included, oldest first.
  const byDay = new Map((row.daily ?? []).map((d) => [d.date, d]));
  const dailyBreakdown = Array.from({ length: period.days }, (_, i) => {
    const date = addDays(first, i);
    const day = byDay.get(date);
    return { date, count: day?.count ?? 0, vehicles: day ? [...day.vehicles].sort() : [] };
  });
  return {
    totalTestDrives: row.total,
    vehiclesUsed: row.vehicles_used,
    avgDuration: row.avg_duration ?? 0,
    topVehicles: row.top ?? [],
    dailyBreakdown,
    recentTestDrives: (row.recent ?? []).map((r) => ({
      ...r,
      takenOutAt: iso(r.takenOutAt) as string,
      returnedAt: iso(r.returnedAt),
    })),
  };
}

// ---- Sales rep analytics ----

interface RepRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string;
  role: DealershipRole;
  leads_claimed: number;
  appointments_scheduled: number;
  test_drives_taken: number;
  recent: Array<{ type: RepActivityType; description: string; date: string }> | null;
}

/**
 * Part 2 §3 Sales rep analytics (decision 066). In the period, a rep's claimed lead is a lead of the dealership they
 * hold now with claimedAt in the period; a scheduled appointment is one they created in the period (the schedule form
 * makes its creator the assignee); a taken test drive is one they took out in the period. The reps are the active
 * members with the sales role, plus managers who claimed a lead in the period; front desk, who books appointments for
 * others, never counts (decision 189).
 */
export async function salesRepAnalytics(db: Executor, viewer: AnalyticsViewer, period: Period): Promise<SalesRepAnalytics> {
  // Two independent reads: on a server they run on two connections at once (the embedded database queues them).
  const [result, bySource, lost] = await Promise.all([
    db.execute(salesRepAnalyticsSql(viewer, period)),
    leadsBySource(db, viewer, period),
    lostReasonCounts(db, viewer, period),
  ]);
  return { ...summarize(rowsOf<RepRow>(result)), leadsBySource: bySource, lostReasons: lost };
}

/** Lost reasons (decision 202): the leads moved to Lost in the period, per reason, most first. */
export async function lostReasonCounts(db: Executor, viewer: AnalyticsViewer, period: Period): Promise<Array<{ reason: string; lost: number }>> {
  const { first, end } = periodDays(period);
  const result = await db.execute(sql`
    select coalesce(l.lost_reason, 'No reason given') as reason, count(*)::int as lost
    from ${leads} l
    where ${mayReadAnalyticsRowSql(viewer, sql`l.dealership_id`)} and l.status = 'lost'
      and l.lost_at >= ${localMidnight(first, period.timezone)} and l.lost_at < ${localMidnight(end, period.timezone)}
    group by 1 order by 2 desc, 1`);
  return rowsOf<{ reason: string; lost: number }>(result).map((r) => ({ reason: r.reason, lost: Number(r.lost) }));
}

interface SourceRow {
  source: LeadSource;
  provider: string | null;
  arrived: number;
  claimed: number;
  sold: number;
}

/**
 * Leads by source (issue 14, decision 150): the leads that arrived in the period, per source and ADF provider, with
 * how many are out of the pool now (claimed) and how many are Closed (sold). A range of leads_dealership_created_idx.
 */
export async function leadsBySource(db: Executor, viewer: AnalyticsViewer, period: Period): Promise<LeadSourceFigures[]> {
  const { first, end } = periodDays(period);
  const from = localMidnight(first, period.timezone);
  const to = localMidnight(end, period.timezone);
  const result = await db.execute(sql`
    select l.source, case when l.source = 'adf' then l.source_provider end as provider,
      count(*)::int as arrived,
      (count(*) filter (where l.status <> 'new'))::int as claimed,
      (count(*) filter (where l.status = 'closed'))::int as sold
    from ${leads} l
    where ${mayReadAnalyticsRowSql(viewer, sql`l.dealership_id`)} and l.created_at >= ${from} and l.created_at < ${to}
    group by 1, 2
  `);
  const label = (r: SourceRow) => leadSourceLabel(r.source, r.provider);
  return rowsOf<SourceRow>(result)
    .map((r) => ({ source: r.source, provider: r.provider, arrived: r.arrived, claimed: r.claimed, sold: r.sold }))
    .sort((a, b) => b.arrived - a.arrived || label(a).localeCompare(label(b)) || a.source.localeCompare(b.source));
}

/**
 * The one statement of the sales rep analytics (exported for the benchmark's query plans). For each active member, three
 * counts and the latest three of each kind, each an index range on (rep, time, dealership) that the index alone
 * answers: leads_claimed_by_claimed_at_idx, appointments_created_by_created_idx, testdrives_taken_out_by_idx.
 */
export function salesRepAnalyticsSql(viewer: AnalyticsViewer, period: Period): SQL {
  const { first, end } = periodDays(period);
  const from = localMidnight(first, period.timezone);
  const to = localMidnight(end, period.timezone);
  const leadsOf = sql`l.claimed_by = m.user_id and l.claimed_at >= ${from} and l.claimed_at < ${to} and ${mayReadAnalyticsRowSql(viewer, sql`l.dealership_id`)}`;
  const appointmentsOf = sql`a.created_by = m.user_id and a.created_at >= ${from} and a.created_at < ${to} and ${mayReadAnalyticsRowSql(viewer, sql`a.dealership_id`)}`;
  const drivesOf = sql`t.taken_out_by = m.user_id and t.taken_out_at >= ${from} and t.taken_out_at < ${to} and ${mayReadAnalyticsRowSql(viewer, sql`t.dealership_id`)}`;
  return sql`
    select * from (
      select u.id, u.first_name, u.last_name, u.email, m.role,
        (select count(*)::int from ${leads} l where ${leadsOf}) as leads_claimed,
        (select count(*)::int from ${appointments} a where ${appointmentsOf}) as appointments_scheduled,
        (select count(*)::int from ${testDrives} t where ${drivesOf}) as test_drives_taken,
        (select json_agg(json_build_object('type', x.type, 'description', x.description, 'date', x.at) order by x.at desc, x.id desc)
          from (select * from (
            (select 'lead' as type, l.id, l.claimed_at as at, 'Claimed lead ' || trim(l.first_name || ' ' || l.last_name) as description
              from ${leads} l where ${leadsOf} order by l.claimed_at desc limit ${RECENT_ACTIVITY_PER_REP})
            union all
            (select 'appointment', a.id, a.created_at, 'Scheduled ' || a.title || ' with ' || trim(a.first_name || ' ' || a.last_name)
              from ${appointments} a where ${appointmentsOf} order by a.created_at desc limit ${RECENT_ACTIVITY_PER_REP})
            union all
            (select 'testdrive', t.id, t.taken_out_at, 'Test drive: ' || coalesce(t.vehicle_driven, 'a vehicle') || ' with ' || trim(t.first_name || ' ' || t.last_name)
              from ${testDrives} t where ${drivesOf} order by t.taken_out_at desc limit ${RECENT_ACTIVITY_PER_REP})
          ) latest order by at desc, id desc limit ${RECENT_ACTIVITY_PER_REP}) x) as recent
      from ${dealershipUsers} m
      join ${users} u on u.id = m.user_id
      where ${mayReadAnalyticsRowSql(viewer, sql`m.dealership_id`)} and m.active
    ) members
    where role = 'sales' or (role = 'management' and leads_claimed > 0)
  `;
}

/** Totals, averages and top performers of the reps' rows. */
function summarize(rows: RepRow[]): Omit<SalesRepAnalytics, "leadsBySource" | "lostReasons"> {
  const reps: SalesRep[] = rows.map((r) => ({
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    role: r.role,
    periodStats: { leadsClaimed: r.leads_claimed, appointmentsScheduled: r.appointments_scheduled, testDrivesTaken: r.test_drives_taken },
    recentActivity: (r.recent ?? []).map((a) => ({ ...a, date: iso(a.date) as string })),
  }));
  const byName = (a: SalesRep, b: SalesRep) => nameKey(a).localeCompare(nameKey(b)) || a.id.localeCompare(b.id);
  const activity = (r: SalesRep) => r.periodStats.leadsClaimed + r.periodStats.appointmentsScheduled + r.periodStats.testDrivesTaken;
  reps.sort((a, b) => activity(b) - activity(a) || byName(a, b));
  const total = (key: keyof SalesRep["periodStats"]) => reps.reduce((sum, r) => sum + r.periodStats[key], 0);
  const top = (key: keyof SalesRep["periodStats"]) =>
    [...reps].sort((a, b) => b.periodStats[key] - a.periodStats[key] || byName(a, b)).find((r) => r.periodStats[key] > 0) ?? null;
  const perRep = (n: number) => (reps.length === 0 ? 0 : oneDecimal(n / reps.length));
  const totals = { leads: total("leadsClaimed"), appointments: total("appointmentsScheduled"), drives: total("testDrivesTaken") };
  return {
    summary: {
      totalReps: reps.length,
      totalLeadsClaimed: totals.leads,
      totalAppointmentsScheduled: totals.appointments,
      totalTestDrivesTaken: totals.drives,
      avgLeadsPerRep: perRep(totals.leads),
      avgAppointmentsPerRep: perRep(totals.appointments),
      avgTestDrivesPerRep: perRep(totals.drives),
    },
    topPerformers: { mostLeads: top("leadsClaimed"), mostAppointments: top("appointmentsScheduled"), mostTestDrives: top("testDrivesTaken") },
    salesReps: reps,
  };
}

function nameKey(rep: SalesRep): string {
  return `${rep.firstName ?? ""} ${rep.lastName ?? ""} ${rep.email}`.trim().toLowerCase();
}
