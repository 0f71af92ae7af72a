import { and, eq, sql } from "drizzle-orm";
import { DEFAULT_DISTRIBUTION, distributionSettingsSchema, type DistributionSettings, type DistributionUpdate, type RepAvailability } from "../../shared/schemas/distribution";
import type { Db, Tx } from "../db/client";
import { dealershipUsers } from "../db/schema/dealerships";
import { leadDistribution, repAvailability } from "../db/schema/distribution";
import { users } from "../db/schema/users";

// Lead distribution's settings and the reps' availability (issue 27, decision 201).

type Executor = Db | Tx;

export async function distributionOf(db: Executor, dealershipId: string): Promise<DistributionSettings> {
  const [row] = await db
    .select({ mode: leadDistribution.mode, autoAssignAfterMinutes: leadDistribution.autoAssignAfterMinutes })
    .from(leadDistribution)
    .where(eq(leadDistribution.dealershipId, dealershipId))
    .limit(1);
  return row ?? DEFAULT_DISTRIBUTION;
}

/** Saves a change (the row locked, so two managers' changes both land) and answers the settings before and after. */
export async function saveDistribution(tx: Tx, dealershipId: string, userId: string, change: DistributionUpdate): Promise<{ before: DistributionSettings; after: DistributionSettings }> {
  await tx.insert(leadDistribution).values({ dealershipId }).onConflictDoNothing();
  const [row] = await tx
    .select({ mode: leadDistribution.mode, autoAssignAfterMinutes: leadDistribution.autoAssignAfterMinutes })
    .from(leadDistribution)
    .where(eq(leadDistribution.dealershipId, dealershipId))
    .for("update");
  const before = row ?? DEFAULT_DISTRIBUTION;
  const after = distributionSettingsSchema.parse({ ...before, ...change });
  await tx.update(leadDistribution).set({ ...after, updatedBy: userId }).where(eq(leadDistribution.dealershipId, dealershipId));
  return { before, after };
}

const nameSql = sql<string>`coalesce(nullif(trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')), ''), ${users.email})`;

/** The dealership's active sales reps (or the one named), each on the floor or not, by name. */
export async function repsAvailability(db: Executor, dealershipId: string, userId?: string): Promise<RepAvailability[]> {
  const rows = await db
    .select({ userId: users.id, name: nameSql, onFloor: repAvailability.onFloor, changedAt: repAvailability.changedAt })
    .from(dealershipUsers)
    .innerJoin(users, eq(users.id, dealershipUsers.userId))
    .leftJoin(repAvailability, and(eq(repAvailability.dealershipId, dealershipUsers.dealershipId), eq(repAvailability.userId, dealershipUsers.userId)))
    .where(and(eq(dealershipUsers.dealershipId, dealershipId), eq(dealershipUsers.role, "sales"), eq(dealershipUsers.active, true), userId ? eq(dealershipUsers.userId, userId) : undefined))
    .orderBy(nameSql, users.id);
  return rows.map((r) => ({ userId: r.userId, name: r.name, onFloor: r.onFloor ?? false, changedAt: r.changedAt ? r.changedAt.toISOString() : null }));
}

/**
 * A rep on the floor or off it; answers whether that changed (the same answer twice changes nothing). The row is
 * written in one statement that reads the value it replaces, so two taps at once change it once.
 */
export async function setOnFloor(tx: Tx, dealershipId: string, userId: string, onFloor: boolean): Promise<boolean> {
  const changed = await tx
    .insert(repAvailability)
    .values({ dealershipId, userId, onFloor })
    .onConflictDoUpdate({
      target: [repAvailability.dealershipId, repAvailability.userId],
      set: { onFloor, changedAt: sql`now()` },
      setWhere: sql`${repAvailability.onFloor} is distinct from ${onFloor}`,
    })
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  const [row] = changed;
  // A first "off the floor" inserts a row that says what no row said already: no change.
  return Boolean(row) && !(row!.inserted && !onFloor);
}
