import { and, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { ROLE_LABELS } from "../../shared/constants";
import { fullName } from "../../shared/format";
import { phoneSearchDigits } from "../../shared/phone";
import { CANNOT_DELETE_SELF, type platformUserUpdateSchema, type PlatformUserListQuery } from "../../shared/schemas/platform";
import type { PlatformUser, PlatformUserPage, UserDeleted } from "../../shared/schemas/responses/platform";
import type { Db, Tx } from "../db/client";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { platformAdmins } from "../db/schema/platform";
import { users } from "../db/schema/users";
import { publish } from "../events/outbox";
import { conflict, notFound } from "../http/errors";
import { likeContains } from "../leads/queries";
import { isUniqueViolation } from "../users/queries";
import { lockPlatformAdmins } from "./admins";
import { changedFields, recordAudit, type PlatformActor } from "./audit";

// Every user of the installation (part 2 §2 Users, §3 Platform user, §5, §7; decision 092).

type UpdateInput = z.output<typeof platformUserUpdateSchema>;

export const EMAIL_TAKEN = "An account with this email already exists";

// Written out: drizzle leaves a column of the selected table unqualified, and inside these subqueries "id" would be theirs.
const userId = sql`"users"."id"`;
const isAdmin = sql<boolean>`exists (select 1 from ${platformAdmins} p where p.user_id = ${userId} and p.active)`;
/** Active memberships of dealerships in service, by dealership name: the user's "dealership assignments". */
const assignments = sql<PlatformUser["dealerships"]>`coalesce((
    select json_agg(json_build_object('id', d.id, 'name', d.name, 'role', du.role) order by lower(d.name), d.id)
    from ${dealershipUsers} du join ${dealerships} d on d.id = du.dealership_id
    where du.user_id = ${userId} and du.active and d.active), '[]'::json)`;

async function platformUsers(db: Db | Tx, where: SQL | undefined, limit: number, offset = 0): Promise<PlatformUser[]> {
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phone: users.phone,
      isAdmin,
      createdAt: users.createdAt,
      dealerships: assignments,
    })
    .from(users)
    .where(where)
    .orderBy(sql`lower(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, ''))`, users.email)
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ ...r, isAdmin: Boolean(r.isAdmin), createdAt: new Date(r.createdAt).toISOString() }));
}

/** GET /api/platform/users: platform admins, or everyone; `search` looks in name, e-mail and phone. */
export async function listPlatformUsers(db: Db, query: PlatformUserListQuery): Promise<PlatformUserPage> {
  const filters: SQL[] = [];
  if (query.show === "admins") filters.push(isAdmin);
  if (query.search) {
    // A number is found however it is typed: its digits among the stored E.164 number's (decision 205).
    const digits = phoneSearchDigits(query.search);
    filters.push(
      sql`((coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '') || ' ' || ${users.email} || ' ' || coalesce(${users.phone}, '')) ilike ${likeContains(query.search)}
        or ${digits ? sql`regexp_replace(coalesce(${users.phone}, ''), '[^0-9]', '', 'g') like ${likeContains(digits)}` : sql`false`})`,
    );
  }
  const where = filters.length ? and(...filters) : undefined;
  const [items, [counted]] = await Promise.all([
    platformUsers(db, where, query.pageSize, (query.page - 1) * query.pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return { items, total: Number(counted?.n ?? 0), page: query.page, pageSize: query.pageSize };
}

export async function platformUser(db: Db | Tx, id: string): Promise<PlatformUser> {
  const [user] = await platformUsers(db, eq(users.id, id), 1);
  if (!user) throw notFound("User not found");
  return user;
}

/** PATCH /api/platform/users/{id}: name, e-mail and phone; the e-mail stays unique (409). */
export async function updatePlatformUser(db: Db, id: string, input: UpdateInput, actor: PlatformActor): Promise<PlatformUser> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone })
        .from(users)
        .where(eq(users.id, id))
        .for("update");
      if (!before) throw notFound("User not found");
      const [taken] = await tx.select({ id: users.id }).from(users).where(and(eq(users.email, input.email), ne(users.id, id))).limit(1);
      if (taken) throw conflict(EMAIL_TAKEN);
      // An address the admin typed is not proven: the account proves it from its profile (decision 169).
      await tx
        .update(users)
        .set({ ...input, ...(input.email !== before.email ? { emailVerifiedAt: null } : {}) })
        .where(eq(users.id, id));
      const changes = changedFields(before, input);
      await recordAudit(tx, actor, {
        action: "user_updated",
        subjectId: id,
        summary: `Updated user ${input.email}${Object.keys(changes).length ? ` (${Object.keys(changes).join(", ")})` : ""}`,
        details: changes,
      });
      return platformUser(tx, id);
    });
  } catch (error) {
    // Two edits giving two accounts the same e-mail at once: the unique index decides.
    if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
    throw error;
  }
}

/**
 * DELETE /api/platform/users/{id} (decision 092): the account and everything that is only theirs (memberships,
 * sessions, admin grant, subscriptions, calendar links) go; their claimed leads return to New Leads in each dealership.
 * Refused for oneself, and for the only manager of a dealership in service (it would be left without one).
 */
export async function deletePlatformUser(db: Db, id: string, actor: PlatformActor): Promise<UserDeleted> {
  if (id === actor.id) throw conflict(CANNOT_DELETE_SELF);
  return db.transaction(async (tx) => {
    // Queued with grants and revocations: two admins deleting each other at once cannot leave none.
    await lockPlatformAdmins(tx, actor.id);
    // Their dealerships, locked against a role change or removal there (FOR UPDATE), so "the only manager" holds until
    // commit. Before the user's row, as a member's write holds the dealership's row and then the user's (decision 176);
    // NO KEY UPDATE, not UPDATE, so the KEY SHARE every foreign key to the dealership takes (the bell's rows) does not
    // queue behind it while holding the user's row.
    const memberships = await tx
      .select({ dealershipId: dealerships.id, name: dealerships.name, role: dealershipUsers.role })
      .from(dealershipUsers)
      .innerJoin(dealerships, eq(dealerships.id, dealershipUsers.dealershipId))
      .where(and(eq(dealershipUsers.userId, id), eq(dealershipUsers.active, true), eq(dealerships.active, true)))
      .orderBy(dealerships.id)
      .for("no key update", { of: dealerships });
    const [user] = await tx
      .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.id, id))
      .for("update");
    if (!user) throw notFound("User not found");
    const managed = memberships.filter((m) => m.role === "management").map((m) => m.dealershipId);
    if (managed.length) {
      const others = await tx
        .select({ dealershipId: dealershipUsers.dealershipId })
        .from(dealershipUsers)
        .where(
          and(
            inArray(dealershipUsers.dealershipId, managed),
            eq(dealershipUsers.role, "management"),
            eq(dealershipUsers.active, true),
            ne(dealershipUsers.userId, id),
          ),
        );
      const alone = memberships.filter((m) => managed.includes(m.dealershipId) && !others.some((o) => o.dealershipId === m.dealershipId));
      if (alone.length) {
        throw conflict(
          `${fullName(user) || user.email} is the only ${ROLE_LABELS.management} member of ${alone.map((m) => m.name).join(", ")}. ` +
            "Make another member Management first, or delete the dealership.",
        );
      }
    }

    const returned = await tx
      .update(leads)
      .set({ status: "new", claimedBy: null, claimedAt: null })
      .where(eq(leads.claimedBy, id))
      .returning({ dealershipId: leads.dealershipId });
    await tx.delete(users).where(eq(users.id, id));

    const snapshot = { id, name: fullName(user) || user.email, email: user.email };
    for (const m of memberships) {
      const returnedLeads = returned.filter((r) => r.dealershipId === m.dealershipId).length;
      await publish(tx, { type: "team.member_removed", dealershipId: m.dealershipId, actorId: actor.id, payload: { member: snapshot, returnedLeads } });
    }
    await recordAudit(tx, actor, {
      action: "user_deleted",
      subjectId: id,
      summary: `Deleted user ${user.email}${returned.length ? `; ${returned.length} claimed lead${returned.length === 1 ? "" : "s"} returned` : ""}`,
    });
    return { message: "User deleted", returnedLeads: returned.length };
  });
}
