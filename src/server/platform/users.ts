import { and, eq, sql, type SQL } from "drizzle-orm";
import { phoneSearchDigits } from "../../shared/phone";
import type { PlatformUserListQuery } from "../../shared/schemas/platform";
import type { PlatformUser, PlatformUserPage } from "../../shared/schemas/responses/platform";
import type { Db, Tx } from "../db/client";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { platformAdmins } from "../db/schema/platform";
import { users } from "../db/schema/users";
import { notFound } from "../http/errors";
import { likeContains } from "../leads/queries";

// Every user of the installation (part 2 §2 Users, §3 Platform user, §5, §7; decision 092), as the platform screens
// list them. Editing and deleting an account are the platform's commands (commands.ts).

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

