import { eq } from "drizzle-orm";
import { DEFAULT_LOST_REASONS } from "../../shared/schemas/lost-reasons";
import type { Db, Tx } from "../db/client";
import { lostReasonLists } from "../db/schema/leads";

// The dealership's lost reasons (issue 27, decision 202): the default list until management saves its own.

export async function lostReasonsOf(db: Db | Tx, dealershipId: string): Promise<string[]> {
  const [row] = await db.select({ reasons: lostReasonLists.reasons }).from(lostReasonLists).where(eq(lostReasonLists.dealershipId, dealershipId)).limit(1);
  return row?.reasons ?? [...DEFAULT_LOST_REASONS];
}

/** Saves the list (the row locked, so two managers' saves land one after the other); answers it before and after. */
export async function saveLostReasons(tx: Tx, dealershipId: string, userId: string, reasons: string[]): Promise<{ before: string[]; after: string[] }> {
  await tx.insert(lostReasonLists).values({ dealershipId, reasons: [...DEFAULT_LOST_REASONS] }).onConflictDoNothing();
  const [row] = await tx.select({ reasons: lostReasonLists.reasons }).from(lostReasonLists).where(eq(lostReasonLists.dealershipId, dealershipId)).for("update");
  await tx.update(lostReasonLists).set({ reasons, updatedBy: userId }).where(eq(lostReasonLists.dealershipId, dealershipId));
  return { before: row?.reasons ?? [...DEFAULT_LOST_REASONS], after: reasons };
}

/** The list's own spelling of a reason, matched without regard to case; undefined when it is not on the list. */
export function reasonOnList(list: readonly string[], reason: string): string | undefined {
  const wanted = reason.trim().toLowerCase();
  return list.find((r) => r.toLowerCase() === wanted);
}
