import { endSessionsOfUser } from "../auth/sessions";
import { and, asc, eq, sql } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import type { DealershipMember } from "../../shared/schemas/team";
import type { Db, Tx } from "../db/client";
import { dealershipUsers } from "../db/schema/dealerships";
import { returnLeadsOfLeavingMember } from "../leads/lead-rows";
import { endEmailSubscriptionsOf } from "../notifications/email-triggers";
import { users } from "../db/schema/users";
import { notFound } from "../http/errors";
import { fullName } from "../../shared/format";

// Dealership members (part 2 §2 Users, §3 membership, §4, §5). Membership is read per request by the tenancy
// guard, so a role change or a removal takes effect on the member's very next request.

export const LAST_MANAGER =
  "A dealership needs at least one manager. Make another member Management before changing this one.";
export const CANNOT_REMOVE_SELF = "You cannot delete your own account.";

/** Active members with their user details, managers first, then by name (GET /api/dealerships/{id}/users). */
export async function dealershipMembers(db: Db, dealershipId: string): Promise<DealershipMember[]> {
  const rows = await db
    .select({
      userId: dealershipUsers.userId,
      role: dealershipUsers.role,
      active: dealershipUsers.active,
      addedAt: dealershipUsers.addedAt,
      user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
    })
    .from(dealershipUsers)
    .innerJoin(users, eq(users.id, dealershipUsers.userId))
    .where(and(eq(dealershipUsers.dealershipId, dealershipId), eq(dealershipUsers.active, true)))
    .orderBy(
      sql`case ${dealershipUsers.role} when 'management' then 0 when 'frontDesk' then 1 else 2 end`,
      asc(users.firstName),
      asc(users.lastName),
      asc(users.email),
    );
  return rows.map((r) => ({ ...r, addedAt: r.addedAt.toISOString() }));
}

/**
 * The active member and the snapshot their events carry, or 404. The caller holds the dealership exclusively
 * (team/commands.ts), so concurrent role changes and removals are decided one after another: two managers demoting
 * each other at once cannot leave the dealership without a manager.
 */
export async function activeMember(tx: Tx, dealershipId: string, userId: string) {
  const [member] = await tx
    .select({ role: dealershipUsers.role, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(dealershipUsers)
    .innerJoin(users, eq(users.id, dealershipUsers.userId))
    .where(and(eq(dealershipUsers.dealershipId, dealershipId), eq(dealershipUsers.userId, userId), eq(dealershipUsers.active, true)))
    .limit(1);
  if (!member) throw notFound("That user is not a member of this dealership");
  return { ...member, snapshot: { id: userId, name: fullName(member) || member.email, email: member.email } };
}

/** How many other active managers the dealership has. */
export async function otherManagers(tx: Tx, dealershipId: string, userId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(dealershipUsers)
    .where(
      and(
        eq(dealershipUsers.dealershipId, dealershipId),
        eq(dealershipUsers.role, "management"),
        eq(dealershipUsers.active, true),
        sql`${dealershipUsers.userId} <> ${userId}`,
      ),
    );
  return row?.n ?? 0;
}

/** The active membership's new role; answers whether it was written. */
export async function setMemberRole(tx: Tx, dealershipId: string, userId: string, from: DealershipRole, role: DealershipRole): Promise<boolean> {
  const written = await tx
    .update(dealershipUsers)
    .set({ role })
    .where(
      and(
        eq(dealershipUsers.dealershipId, dealershipId),
        eq(dealershipUsers.userId, userId),
        eq(dealershipUsers.active, true),
        eq(dealershipUsers.role, from),
      ),
    )
    .returning({ userId: dealershipUsers.userId });
  return written.length > 0;
}

/**
 * Ends an active membership (part 2 §4): inactive, their claimed leads in this dealership back to unclaimed, their
 * e-mail subscriptions here gone, their sessions ended. Answers how many leads returned, null when the membership was
 * not active.
 */
export async function endMembership(tx: Tx, dealershipId: string, userId: string): Promise<number | null> {
  const ended = await tx
    .update(dealershipUsers)
    .set({ active: false })
    .where(and(eq(dealershipUsers.dealershipId, dealershipId), eq(dealershipUsers.userId, userId), eq(dealershipUsers.active, true)))
    .returning({ userId: dealershipUsers.userId });
  if (ended.length === 0) return null;
  // The leads and the subscriptions are their areas' tables: each area does its part in this transaction.
  const returned = await returnLeadsOfLeavingMember(tx, dealershipId, userId);
  await endEmailSubscriptionsOf(tx, dealershipId, userId);
  // Their open sessions end with the membership (decision 052): a phone left signed in on the lot, or an open
  // real-time socket, does not keep showing this dealership's customers.
  await endSessionsOfUser(tx, userId);
  return returned;
}
