import { sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "../db/client";
import { dealerships, dealershipUsers } from "../db/schema/dealerships";
import { leadDistribution, repAvailability } from "../db/schema/distribution";
import { leads } from "../db/schema/leads";
import { users } from "../db/schema/users";
import { publish } from "../events/outbox";
import type { LeadSnapshot } from "../../shared/events";

// Handing new leads to the reps on the floor (issue 27, decision 201). Every path a lead arrives by (typed in, ADF,
// CSV import) calls handOutArrivals in its own transaction; the minute job hands out leads nobody claimed in the
// dealership's minutes. Either way the dealership's lead_distribution row is locked FOR UPDATE first, so the
// distributions of one dealership take turns however many leads arrive at once: each sees the turns and open counts
// the ones before it committed, and 300 leads among 3 reps are 100 each. A lead is given only while still new and
// unclaimed (a rep's claim wins otherwise), to an active sales rep on the floor, and its one event is lead.assigned
// (the system is its actor): timeline, bell and push follow from it as for an assignment by a manager.

interface Distribution {
  mode: "round_robin" | "fewest_open";
  autoAssignAfterMinutes: number | null;
}

/** The dealership's distribution row, locked, when it hands out leads `when` asked; null otherwise (no lock kept). */
async function lockDistribution(tx: Tx, dealershipId: string, when: "arrival" | "waiting"): Promise<Distribution | null> {
  const timing = when === "arrival" ? sql`auto_assign_after_minutes is null` : sql`auto_assign_after_minutes is not null`;
  const [row] = rowsOf<{ mode: Distribution["mode"]; auto_assign_after_minutes: number | null }>(
    await tx.execute(sql`select mode, auto_assign_after_minutes from ${leadDistribution}
      where dealership_id = ${dealershipId} and mode <> 'off' and ${timing} for update`),
  );
  return row ? { mode: row.mode, autoAssignAfterMinutes: row.auto_assign_after_minutes } : null;
}

/**
 * The rep whose turn it is: an active sales rep of the dealership on the floor; round robin the one given a lead
 * longest ago, fewest open the one with the fewest open clients (claimed up to in progress), then the longest ago.
 * Their availability row is locked (a rep leaving the floor right now waits, or is not chosen) and their membership
 * and account held (a removal or deletion waits for this lead and then returns it).
 */
async function nextRep(tx: Tx, dealershipId: string, mode: Distribution["mode"]): Promise<{ id: string; name: string } | null> {
  const fewest =
    mode === "fewest_open"
      ? sql`(select count(*) from ${leads} l where l.claimed_by = ra.user_id and l.dealership_id = ra.dealership_id
              and l.status in ('claimed', 'contacted', 'qualified', 'inProgress')),`
      : sql``;
  const [row] = rowsOf<{ id: string; name: string }>(
    await tx.execute(sql`select ra.user_id as id,
        coalesce(nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), ''), u.email) as name
      from ${repAvailability} ra
        join ${dealershipUsers} du on du.dealership_id = ra.dealership_id and du.user_id = ra.user_id and du.active and du.role = 'sales'
        join ${users} u on u.id = ra.user_id
      where ra.dealership_id = ${dealershipId} and ra.on_floor
      order by ${fewest} ra.last_turn, ra.user_id
      limit 1
      for update of ra for share of du for key share of u`),
  );
  return row ?? null;
}

/** Gives each lead still new and unclaimed to the next rep, under the locked distribution; answers how many. */
async function handOut(tx: Tx, dealershipId: string, distribution: Distribution, leadIds: readonly string[]): Promise<number> {
  let given = 0;
  for (const leadId of leadIds) {
    const rep = await nextRep(tx, dealershipId, distribution.mode);
    if (!rep) return given; // nobody on the floor: the rest wait in New Leads
    // The lead.assigned snapshot, read by the UPDATE itself (shared/events.ts's leadSnapshotSchema).
    const [lead] = rowsOf<LeadSnapshot>(
      await tx.execute(sql`update ${leads} set status = 'claimed', claimed_by = ${rep.id}, claimed_at = now()
        where id = ${leadId} and dealership_id = ${dealershipId} and status = 'new' and claimed_by is null
        returning id, first_name as "firstName", last_name as "lastName", email, phone, description, status, claimed_by as "claimedBy"`),
    );
    if (!lead) continue;
    await tx.execute(sql`with turn as (update ${leadDistribution} set turn = turn + 1 where dealership_id = ${dealershipId} returning turn)
      update ${repAvailability} set last_turn = (select turn from turn) where dealership_id = ${dealershipId} and user_id = ${rep.id}`);
    await publish(tx, { type: "lead.assigned", dealershipId, actorId: null, payload: { lead, claimedBy: rep } });
    given++;
  }
  return given;
}

/**
 * At arrival (in the transaction that created them): gives the new leads to reps on the floor when the dealership
 * distributes at arrival. Answers how many were given.
 */
export async function handOutArrivals(tx: Tx, dealershipId: string, leadIds: readonly string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  const distribution = await lockDistribution(tx, dealershipId, "arrival");
  if (!distribution) return 0;
  return handOut(tx, dealershipId, distribution, leadIds);
}

/** Leads handed out per dealership per transaction by the minute job. */
const WAITING_CHUNK = 200;

/**
 * The minute job (decision 201): in each active dealership that distributes after N minutes, the leads still new
 * and unclaimed N minutes after they arrived, oldest first, go to the reps on the floor. Answers how many were given.
 */
export async function handOutWaitingLeads(db: Db, now: Date = new Date()): Promise<number> {
  const candidates = rowsOf<{ dealership_id: string }>(
    await db.execute(sql`select ld.dealership_id from ${leadDistribution} ld join ${dealerships} d on d.id = ld.dealership_id and d.active
      where ld.mode <> 'off' and ld.auto_assign_after_minutes is not null
        and exists (select 1 from ${leads} l where l.dealership_id = ld.dealership_id and l.status = 'new' and l.claimed_by is null
          and l.created_at <= ${now.toISOString()}::timestamptz - make_interval(mins => ld.auto_assign_after_minutes))`),
  );
  let given = 0;
  for (const { dealership_id: dealershipId } of candidates) {
    for (;;) {
      const { waiting, handed } = await db.transaction(async (tx) => {
        // The dealership first (lock order, decision 176): none handed out in a dealership being deleted.
        const held = rowsOf(await tx.execute(sql`select id from ${dealerships} where id = ${dealershipId} and active for share`));
        if (held.length === 0) return { waiting: 0, handed: 0 };
        const distribution = await lockDistribution(tx, dealershipId, "waiting");
        if (!distribution) return { waiting: 0, handed: 0 };
        const ids = rowsOf<{ id: string }>(
          await tx.execute(sql`select id from ${leads} where dealership_id = ${dealershipId} and status = 'new' and claimed_by is null
            and created_at <= ${now.toISOString()}::timestamptz - make_interval(mins => ${distribution.autoAssignAfterMinutes}::int)
            order by created_at, id limit ${WAITING_CHUNK}`),
        ).map((r) => r.id);
        return { waiting: ids.length, handed: await handOut(tx, dealershipId, distribution, ids) };
      });
      given += handed;
      // A short chunk, or nobody left on the floor: the next run takes what is left.
      if (waiting < WAITING_CHUNK || handed === 0) break;
    }
  }
  return given;
}
