import { and, desc, eq, sql } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import type { DeletedLead, RestoreResult } from "../../shared/schemas/deleted-leads";
import { actorIdOf, roleSql, type Viewer, viewerOf } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { deletedLeads } from "../db/schema/deleted-leads";
import { leads } from "../db/schema/leads";
import { users } from "../db/schema/users";
import { publish } from "../events/outbox";
import { RESTORABLE_DAYS, restoreArchivedLead, type LeadRef } from "./deleted-archive";
import { leadSnapshot, leadWithClaimer } from "./queries";

// Recently deleted (issue 30, decision 214): management's list of the leads deleted or merged away in the last 30
// days, and the restore, which is one change with one event (lead.restored) and its timeline entry.

const RESTORABLE = sql.raw(`interval '${RESTORABLE_DAYS} days'`);
/** The list is the newest this many: more than a month of deletions in one dealership is not a list anyone reads. */
export const RECENTLY_DELETED_LIMIT = 500;

/**
 * The dealership of a deleted lead the user has a role in, with that role: undefined when there is none to find (never
 * deleted, restored, past 30 days, or another dealership's), so the route answers 404 before asking the role.
 */
export async function findDeletedLead(db: Db, userId: string, leadId: string): Promise<Viewer | undefined> {
  const role = roleSql(userId, deletedLeads.dealershipId);
  const [row] = await db
    .select({ dealershipId: deletedLeads.dealershipId, role: sql<DealershipRole | null>`${role}` })
    .from(deletedLeads)
    .where(and(eq(deletedLeads.leadId, leadId), sql`${deletedLeads.deletedAt} > now() - ${RESTORABLE}`, sql`${role} is not null`))
    .limit(1);
  return row?.role ? viewerOf(userId, row.dealershipId, row.role) : undefined;
}

/** The dealership's recently deleted leads, newest first (the caller checked the role). */
export async function recentlyDeleted(db: Db, dealershipId: string): Promise<DeletedLead[]> {
  const rows = await db
    .select({
      id: deletedLeads.leadId,
      lead: deletedLeads.lead,
      deletedAt: deletedLeads.deletedAt,
      mergedInto: deletedLeads.mergedInto,
      deletedById: users.id,
      deletedByFirst: users.firstName,
      deletedByLast: users.lastName,
    })
    .from(deletedLeads)
    .leftJoin(users, eq(users.id, deletedLeads.deletedBy))
    .where(and(eq(deletedLeads.dealershipId, dealershipId), sql`${deletedLeads.deletedAt} > now() - ${RESTORABLE}`))
    .orderBy(desc(deletedLeads.deletedAt))
    .limit(RECENTLY_DELETED_LIMIT);
  return rows.map((row) => {
    const lead = row.lead as Record<string, string | null>;
    return {
      id: row.id,
      firstName: lead.first_name ?? "",
      lastName: lead.last_name ?? "",
      email: lead.email ?? null,
      phone: lead.phone ?? null,
      status: lead.status as DeletedLead["status"],
      deletedAt: row.deletedAt.toISOString(),
      restorableUntil: new Date(row.deletedAt.getTime() + RESTORABLE_DAYS * 86_400_000).toISOString(),
      deletedBy: row.deletedById ? { id: row.deletedById, firstName: row.deletedByFirst ?? "", lastName: row.deletedByLast ?? "" } : null,
      mergedInto: (row.mergedInto as LeadRef | null) ?? null,
    };
  });
}

/**
 * Restores a deleted or merged-away lead of the viewer's dealership (management; the route checked) and publishes
 * lead.restored: undefined when it is not there to restore (restored already by someone else, or purged).
 */
export async function restoreLead(tx: Tx, viewer: Viewer, leadId: string): Promise<RestoreResult | undefined> {
  const outcome = await restoreArchivedLead(tx, viewer.dealershipId, leadId);
  if (!outcome) return undefined;
  const [row] = await tx.select().from(leads).where(eq(leads.id, leadId));
  if (!row) throw new Error("restored lead vanished inside its own restore");
  await publish(tx, {
    type: "lead.restored",
    dealershipId: viewer.dealershipId,
    actorId: actorIdOf(viewer),
    payload: {
      lead: leadSnapshot(row),
      deletedAt: outcome.deletedAt.toISOString(),
      ...(outcome.mergedInto ? { unmergedFrom: outcome.mergedInto } : {}),
      restored: outcome.restored,
    },
  });
  const lead = await leadWithClaimer(tx, viewer, leadId);
  if (!lead) throw new Error("restored lead not visible to management");
  return { message: "Lead restored", lead, restored: outcome.restored };
}
