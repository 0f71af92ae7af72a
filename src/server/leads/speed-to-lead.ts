import { and, eq, sql } from "drizzle-orm";
import type { FirstResponseKind } from "../../shared/speed-to-lead";
import type { FirstResponse, SpeedFigures, SpeedToLead } from "../../shared/schemas/speed-to-lead";
import { mayOpenLeadSql } from "../access/leads";
import type { Viewer } from "../auth/tenancy";
import { rowsOf, type Db, type Tx } from "../db/client";
import { dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { users } from "../db/schema/users";

// Speed-to-lead (issue 14; decisions 140, 141): the time from a lead's arrival (createdAt) to its first human answer
// (a claim, a call, a status change), stored on the lead when it happens and never moved afterwards (coalesce). The
// figures of a period are counted on the dealership's clock: "7 days" is today and the six days before it there.

/**
 * The SET clause of a first answer: fills first_response_* only while empty, so of a claim, a call and a status change
 * only the first counts. Used inside the claim's, the edit's and the call's own UPDATE (no read-then-write).
 */
export function firstResponseSet(kind: FirstResponseKind, userId: string) {
  return {
    firstResponseAt: sql`coalesce(${leads.firstResponseAt}, now())`,
    firstResponseKind: sql`coalesce(${leads.firstResponseKind}, ${kind})`,
    firstResponseBy: sql`case when ${leads.firstResponseAt} is null then ${userId}::text else ${leads.firstResponseBy} end`,
  };
}

/**
 * A call to the lead (the phone link or Call button on the lead's page, decision 140): the first answer if nothing
 * came before. Answers the lead's first answer, or undefined when the viewer may not see the lead.
 */
export async function recordCall(db: Db | Tx, viewer: Viewer, leadId: string): Promise<FirstResponse | undefined> {
  const [row] = await db
    .update(leads)
    .set(firstResponseSet("call", viewer.userId))
    .where(
      and(
        eq(leads.id, leadId),
        mayOpenLeadSql(viewer, leads),
      ),
    )
    .returning({ at: leads.firstResponseAt, kind: leads.firstResponseKind });
  if (!row?.at || !row.kind) return undefined;
  return { firstResponseAt: row.at.toISOString(), firstResponseKind: row.kind };
}

interface FiguresRow {
  arrived: number | string;
  answered: number | string;
  median: number | string | null;
  within5: number | string;
  within15: number | string;
}

function figures(row: FiguresRow | undefined): SpeedFigures {
  const arrived = Number(row?.arrived ?? 0);
  const within5 = Number(row?.within5 ?? 0);
  const within15 = Number(row?.within15 ?? 0);
  return {
    arrived,
    answered: Number(row?.answered ?? 0),
    medianSeconds: row?.median === null || row?.median === undefined ? null : Math.round(Number(row.median)),
    within5,
    within15,
    within5Share: arrived ? within5 / arrived : null,
    within15Share: arrived ? within15 / arrived : null,
  };
}

/**
 * The speed-to-lead figures of a dealership over `days` days ending today on its clock. Counted: every lead that
 * arrived in the period except a rep's own walk-ins (kind "created"). The median is over the answered leads; a lead
 * not answered yet counts as answered within neither mark (decision 141). Per rep (management): the leads each rep
 * answered first.
 */
export async function speedToLead(db: Db, viewer: Viewer, days: number, now: Date, withReps: boolean): Promise<SpeedToLead> {
  const nowIso = now.toISOString();
  const period = sql`
    with bounds as (
      select (date_trunc('day', ${nowIso}::timestamptz at time zone d.timezone) - make_interval(days => ${days - 1})) at time zone d.timezone as start,
             to_char(date_trunc('day', ${nowIso}::timestamptz at time zone d.timezone) - make_interval(days => ${days - 1}), 'YYYY-MM-DD') as from_date,
             d.unattended_lead_minutes
      from ${dealerships} d where d.id = ${viewer.dealershipId}
    ),
    arrived as (
      select l.first_response_by,
             -- greatest() skips nulls: an unanswered lead must stay null, not become 0 seconds
             case when l.first_response_at is not null then greatest(0, extract(epoch from (l.first_response_at - l.created_at))) end as seconds
      from ${leads} l, bounds
      where l.dealership_id = ${viewer.dealershipId}
        and l.created_at >= bounds.start and l.created_at <= ${nowIso}::timestamptz
        and l.first_response_kind is distinct from 'created'
    )`;
  const totals = await db.execute(sql`${period}
    select (select from_date from bounds) as from_date, (select unattended_lead_minutes from bounds) as minutes,
           count(*)::int as arrived, count(seconds)::int as answered,
           percentile_cont(0.5) within group (order by seconds) as median,
           count(*) filter (where seconds <= 300)::int as within5,
           count(*) filter (where seconds <= 900)::int as within15
    from arrived`);
  const total = rowsOf<FiguresRow & { from_date: string | null; minutes: number | null }>(totals)[0];
  let reps: SpeedToLead["reps"] = [];
  if (withReps) {
    const byRep = await db.execute(sql`${period}
      select a.first_response_by as user_id,
             coalesce(nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), ''), u.email) as name,
             count(*)::int as answered,
             percentile_cont(0.5) within group (order by a.seconds) as median,
             count(*) filter (where a.seconds <= 300)::int as within5,
             count(*) filter (where a.seconds <= 900)::int as within15
      from arrived a join ${users} u on u.id = a.first_response_by
      where a.seconds is not null
      group by a.first_response_by, u.first_name, u.last_name, u.email
      order by median asc, name asc`);
    reps = rowsOf<FiguresRow & { user_id: string; name: string }>(byRep).map((r) => {
      const f = figures({ ...r, arrived: r.answered });
      return { userId: r.user_id, name: r.name, answered: f.answered, medianSeconds: f.medianSeconds, within5: f.within5, within15: f.within15 };
    });
  }
  return {
    days,
    from: total?.from_date ?? nowIso.slice(0, 10),
    dealership: figures(total),
    reps,
    unattendedLeadMinutes: Number(total?.minutes ?? 15),
  };
}

/** Sets the dealership's unattended-lead time (management). */
export async function setUnattendedLeadMinutes(db: Db, dealershipId: string, minutes: number): Promise<number> {
  const [row] = await db
    .update(dealerships)
    .set({ unattendedLeadMinutes: minutes })
    .where(eq(dealerships.id, dealershipId))
    .returning({ minutes: dealerships.unattendedLeadMinutes });
  return row?.minutes ?? minutes;
}
