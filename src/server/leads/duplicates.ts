import { and, eq, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { PossibleDuplicate } from "../../shared/schemas/lead-duplicates";
import { mayOpenLeadSql } from "../access/leads";
import type { Viewer } from "../auth/tenancy";
import { rowsOf, type Db, type Tx } from "../db/client";
import { leadDuplicates } from "../db/schema/lead-duplicates";
import { leads } from "../db/schema/leads";
import { users } from "../db/schema/users";

// Possible duplicates (issue 14; decision 137). A new lead whose normalised e-mail or phone matches an OPEN lead of
// the same dealership (any status but closed or lost) is linked to it, not silently doubled. The normalised values are
// columns PostgreSQL computes (leads.email_normalized, leads.phone_normalized), each indexed per dealership, so the
// check is two index lookups whichever path inserted the lead.

/** Statuses of a finished lead: a customer coming back after one of these is a new sale, not a duplicate. */
export const FINISHED_LEAD_STATUSES = ["closed", "lost"] as const;

/** At most this many open leads are linked to one new lead (the newest matches first). */
const LINKS_PER_LEAD = 5;

/** The advisory lock of a dealership's duplicate linking: imports take it exclusively, single creates shared. */
const importLockKey = (dealershipId: string) => sql`hashtextextended(${`lead-duplicate-import:${dealershipId}`}, 0)`;

/**
 * Links a lead just inserted (in `tx`, not yet committed) to the open leads of its dealership sharing its normalised
 * e-mail or phone. Two identical leads created at the same moment must still find each other, and neither can see the
 * other's uncommitted row: so each first takes a transaction-scoped advisory lock per normalised value (in one sorted
 * order, so two creates never deadlock), then looks. The second to take the lock waits for the first to commit and,
 * its look being a new statement under READ COMMITTED, sees the first lead. Answers the number of links made.
 */
export async function linkPossibleDuplicates(
  tx: Tx,
  lead: { id: string; dealershipId: string; emailNormalized: string | null; phoneNormalized: string | null },
): Promise<number> {
  const keys = [
    lead.emailNormalized ? `email:${lead.emailNormalized}` : null,
    lead.phoneNormalized ? `phone:${lead.phoneNormalized}` : null,
  ].filter((k): k is string => k !== null);
  if (keys.length === 0) return 0;
  keys.sort();
  // Shared with every other create, exclusive against an import's linking (linkImportedDuplicates): taken before the
  // value locks, so a create queued behind an import holds none of them while it waits (no deadlock).
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${importLockKey(lead.dealershipId)})`);
  for (const key of keys) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`lead-duplicate:${lead.dealershipId}:${key}`}, 0))`);
  }
  const email = lead.emailNormalized;
  const phone = lead.phoneNormalized;
  const result = await tx.execute(sql`
    insert into ${leadDuplicates} (lead_id, duplicate_of_id, dealership_id, matched_on)
    select ${lead.id}, m.id, m.dealership_id,
           concat_ws(',', case when m.email_normalized = ${email}::text then 'email' end,
                          case when m.phone_normalized = ${phone}::text then 'phone' end)
    from (
      select l.id, l.dealership_id, l.email_normalized, l.phone_normalized
      from ${leads} l
      where l.dealership_id = ${lead.dealershipId} and l.id <> ${lead.id}
        and l.status not in (${sql.join(FINISHED_LEAD_STATUSES.map((s) => sql`${s}`), sql`, `)})
        and (l.email_normalized = ${email}::text or l.phone_normalized = ${phone}::text)
      order by l.created_at desc, l.id desc
      limit ${LINKS_PER_LEAD}
    ) m
    on conflict do nothing
    returning lead_id`);
  return rowsOf(result).length;
}

/**
 * Links imported leads (just inserted in `tx`, `importedIds` in the file's order) in one statement, so an import of
 * 5,000 rows is one query, not 5,000 locked lookups (decisions 137, 153). Each imported lead is linked, like any new
 * lead, to at most 5 open leads sharing its normalised e-mail or phone, the newest first: the rows ABOVE it in the same
 * file (newest being the nearest), then the leads the dealership already had. A row is never linked to a row below it:
 * each pair is one link, from the later row to the earlier one, as two leads created one after the other would be.
 *
 * It first takes the dealership's import lock exclusively, and `linkPossibleDuplicates` takes it shared: so the look
 * waits for every single create and every other import of the dealership still in flight to commit, and sees their
 * leads (two parallel imports of one file are linked row to row; a lead typed in during an import is linked to it).
 */
export async function linkImportedDuplicates(tx: Tx, dealershipId: string, importedIds: string[]): Promise<number> {
  if (importedIds.length === 0) return 0;
  await tx.execute(sql`select pg_advisory_xact_lock(${importLockKey(dealershipId)})`);
  // Each imported id with its place in the file, as one jsonb object read once (a key lookup in it is a binary search):
  // a lead not in it is older than the file.
  const places = JSON.stringify(Object.fromEntries(importedIds.map((id, i) => [id, i + 1])));
  const place = (alias: string) => sql.raw(`(f.places ->> ${alias}.id)::int`);
  const result = await tx.execute(sql`
    with f as materialized (select ${places}::jsonb as places)
    insert into ${leadDuplicates} (lead_id, duplicate_of_id, dealership_id, matched_on)
    select i.id, m.id, i.dealership_id,
           concat_ws(',', case when m.email_normalized = i.email_normalized then 'email' end,
                          case when m.phone_normalized = i.phone_normalized then 'phone' end)
    from f
    cross join lateral jsonb_each_text(f.places) p(id, place)
    join ${leads} i on i.id = p.id and i.dealership_id = ${dealershipId}
    cross join lateral (
      select l.id, l.email_normalized, l.phone_normalized
      from ${leads} l
      where l.dealership_id = ${dealershipId} and coalesce(${place("l")}, 0) < p.place::int
        and l.status not in (${sql.join(FINISHED_LEAD_STATUSES.map((s) => sql`${s}`), sql`, `)})
        and (l.email_normalized = i.email_normalized or l.phone_normalized = i.phone_normalized)
      order by ${place("l")} desc nulls last, l.created_at desc, l.id desc
      limit ${LINKS_PER_LEAD}
    ) m
    on conflict do nothing
    returning lead_id`);
  return rowsOf(result).length;
}

const other = alias(leads, "other");

/**
 * The possible duplicates of a lead the viewer may see, both ways (it matched them, or a later lead matched it), not
 * dismissed. A sales rep is shown only a lead they may open themselves (the unclaimed pool and their own clients), so
 * the link never tells them about a colleague's client (decision 139).
 */
export async function possibleDuplicates(db: Db | Tx, viewer: Viewer, leadId: string): Promise<PossibleDuplicate[]> {
  const otherId = sql<string>`case when ${leadDuplicates.leadId} = ${leadId} then ${leadDuplicates.duplicateOfId} else ${leadDuplicates.leadId} end`;
  const rows = await db
    .select({
      lead: other,
      matchedOn: leadDuplicates.matchedOn,
      linkedAt: leadDuplicates.createdAt,
      claimedByName: sql<string | null>`nullif(trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')), '')`,
    })
    .from(leadDuplicates)
    .innerJoin(other, sql`${other.id} = ${otherId}`)
    .leftJoin(users, eq(users.id, other.claimedBy))
    .where(
      and(
        or(eq(leadDuplicates.leadId, leadId), eq(leadDuplicates.duplicateOfId, leadId)),
        eq(leadDuplicates.dealershipId, viewer.dealershipId),
        isNull(leadDuplicates.dismissedAt),
        mayOpenLeadSql(viewer, other),
      ),
    )
    .orderBy(sql`${other.createdAt} desc`, sql`${other.id} desc`);
  return rows.map((r) => ({
    id: r.lead.id,
    firstName: r.lead.firstName,
    lastName: r.lead.lastName,
    email: r.lead.email,
    phone: r.lead.phone,
    description: r.lead.description,
    status: r.lead.status,
    claimedBy: r.lead.claimedBy,
    claimedByName: r.claimedByName,
    createdAt: r.lead.createdAt.toISOString(),
    source: r.lead.source,
    sourceProvider: r.lead.sourceProvider,
    matchedOn: r.matchedOn.split(",").filter((m): m is "email" | "phone" => m === "email" || m === "phone"),
    linkedAt: r.linkedAt.toISOString(),
  }));
}

/**
 * "Not a duplicate": dismisses the link between two leads of the viewer's dealership, whichever way it runs. The link
 * is kept with who dismissed it and when. Answers whether a link was dismissed.
 */
export async function dismissDuplicate(db: Db | Tx, viewer: Viewer, leadId: string, otherLeadId: string): Promise<boolean> {
  const rows = await db
    .update(leadDuplicates)
    .set({ dismissedAt: sql`now()`, dismissedBy: viewer.userId })
    .where(
      and(
        eq(leadDuplicates.dealershipId, viewer.dealershipId),
        isNull(leadDuplicates.dismissedAt),
        or(
          and(eq(leadDuplicates.leadId, leadId), eq(leadDuplicates.duplicateOfId, otherLeadId)),
          and(eq(leadDuplicates.leadId, otherLeadId), eq(leadDuplicates.duplicateOfId, leadId)),
        ),
      ),
    )
    .returning({ leadId: leadDuplicates.leadId });
  return rows.length > 0;
}

/**
 * A merge folds `mergedId` into `keptId`: the merged-away lead's links to third leads become the kept lead's (a link
 * between the two themselves goes with the deleted row).
 */
export async function moveDuplicateLinks(tx: Tx, mergedId: string, keptId: string): Promise<void> {
  await tx.execute(sql`
    insert into ${leadDuplicates} (lead_id, duplicate_of_id, dealership_id, matched_on, created_at, dismissed_at, dismissed_by)
    select case when d.lead_id = ${mergedId} then ${keptId} else d.lead_id end,
           case when d.duplicate_of_id = ${mergedId} then ${keptId} else d.duplicate_of_id end,
           d.dealership_id, d.matched_on, d.created_at, d.dismissed_at, d.dismissed_by
    from ${leadDuplicates} d
    where (d.lead_id = ${mergedId} or d.duplicate_of_id = ${mergedId}) and d.lead_id <> ${keptId} and d.duplicate_of_id <> ${keptId}
    on conflict do nothing`);
}
