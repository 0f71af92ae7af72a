import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";

type LeadRow = typeof leads.$inferSelect;

// What other areas read of a lead by its id, for work no person asks for (a customer's reply, a delivery's outcome,
// a push notification's link): the leads area owns the table (eslint/tenant-tables.js, decision 248). Imports no other
// area, so any area may call it.

/** The lead, when it still exists (no visibility: the caller acts for the system, not for a person). */
export async function leadRowById(db: Db | Tx, leadId: string): Promise<LeadRow | undefined> {
  const [lead] = await db.select().from(leads).where(eq(leads.id, leadId));
  return lead;
}

/** The lead of a dealership still in service, locked (shared) so a deletion waits for the caller's transaction. */
export async function lockLeadInService(tx: Tx, leadId: string): Promise<LeadRow | undefined> {
  const [row] = await tx
    .select({ lead: leads })
    .from(leads)
    .innerJoin(dealerships, eq(dealerships.id, leads.dealershipId))
    .where(and(eq(leads.id, leadId), eq(dealerships.active, true)))
    .for("share", { of: leads });
  return row?.lead;
}

/**
 * The lead's id while its row exists, else null, as SQL: read with the lock a foreign key to it takes anyway (FOR KEY
 * SHARE), so a merge or deletion at this moment is waited for and then reads as null.
 */
export function existingLeadIdSql(leadId: string): SQL<string | null> {
  return sql<string | null>`(select ${leads.id} from ${leads} where ${leads.id} = ${leadId} for key share)`;
}

/**
 * A member leaves the dealership (team's removal, in its transaction): every lead they hold there goes back to New
 * Leads, unclaimed. Answers how many.
 */
export async function returnLeadsOfLeavingMember(tx: Tx, dealershipId: string, userId: string): Promise<number> {
  const returned = await tx
    .update(leads)
    .set({ status: "new", claimedBy: null, claimedAt: null })
    .where(and(eq(leads.dealershipId, dealershipId), eq(leads.claimedBy, userId)))
    .returning({ id: leads.id });
  return returned.length;
}
