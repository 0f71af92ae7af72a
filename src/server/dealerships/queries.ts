import { and, asc, eq } from "drizzle-orm";
import { businessHoursOrDefault } from "../../shared/business-hours";
import type { DealershipRole } from "../../shared/constants";
import { storedPhone } from "../../shared/phone";
import type { Db, Tx } from "../db/client";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { users } from "../db/schema/users";
import { seedEmailTriggers } from "../notifications/email-triggers";

export type DealershipRow = typeof dealerships.$inferSelect;
export type NewDealership = typeof dealerships.$inferInsert;

type Executor = Db | Tx;

export async function createDealership(tx: Executor, values: NewDealership): Promise<DealershipRow> {
  // The platform's form sends E.164 already (decision 205); the demo data and tests type numbers as people do.
  const phone = values.phone ? (storedPhone(values.phone) ?? values.phone) : values.phone;
  const [row] = await tx.insert(dealerships).values({ ...values, phone }).returning();
  if (!row) throw new Error("dealership insert returned nothing");
  // Other areas' per-dealership setup (e.g. e-mail notification triggers) is called here, in the same transaction.
  await seedEmailTriggers(tx, row.id);
  return row;
}

/** Adds (or re-activates with a new role) a membership. */
export async function addMember(
  tx: Executor,
  member: { userId: string; dealershipId: string; role: DealershipRole; addedBy?: string | null },
): Promise<void> {
  await tx
    .insert(dealershipUsers)
    .values({ ...member, addedBy: member.addedBy ?? null })
    .onConflictDoUpdate({
      target: [dealershipUsers.userId, dealershipUsers.dealershipId],
      set: { role: member.role, active: true },
    });
}

/** The user's active memberships in active dealerships, oldest first (GET /api/dealerships). */
export async function dealershipsOfUser(db: Db, userId: string) {
  const rows = await db
    .select({
      id: dealerships.id,
      name: dealerships.name,
      address: dealerships.address,
      phone: dealerships.phone,
      timezone: dealerships.timezone,
      businessHours: dealerships.businessHours,
      role: dealershipUsers.role,
    })
    .from(dealershipUsers)
    .innerJoin(dealerships, eq(dealerships.id, dealershipUsers.dealershipId))
    .where(and(eq(dealershipUsers.userId, userId), eq(dealershipUsers.active, true), eq(dealerships.active, true)))
    .orderBy(asc(dealershipUsers.addedAt), asc(dealerships.name));
  return rows.map((row) => ({ ...row, businessHours: businessHoursOrDefault(row.businessHours) }));
}

export async function setCurrentDealership(db: Db, userId: string, dealershipId: string): Promise<void> {
  await db.update(users).set({ currentDealershipId: dealershipId }).where(eq(users.id, userId));
}

export async function dealershipById(db: Db, id: string): Promise<DealershipRow | undefined> {
  const [row] = await db.select().from(dealerships).where(eq(dealerships.id, id)).limit(1);
  return row;
}
