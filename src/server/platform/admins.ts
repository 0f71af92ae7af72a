import { asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { platformAdmins } from "../db/schema/platform";
import { users } from "../db/schema/users";
import { forbidden } from "../http/errors";

// Platform administrators (part 2 §2 Users, §3 platform_admins, §5; decision 092). Grants and revocations from the
// platform screens (commands.ts) are decided with every active admin row locked (lockPlatformAdmins), so two admins
// revoking (or deleting) each other at the same moment cannot leave the installation without one.

/**
 * Grants (or re-activates) platform admin; answers false when no user has that e-mail. For the CLI and the demo data:
 * whoever runs them has the server itself. PLATFORM_ADMIN_EMAILS goes through grantListedPlatformAdmin instead.
 */
export async function grantPlatformAdminByEmail(db: Db, email: string, grantedBy: string | null = null): Promise<boolean> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  if (!user) return false;
  await db
    .insert(platformAdmins)
    .values({ userId: user.id, grantedBy })
    .onConflictDoUpdate({ target: platformAdmins.userId, set: { active: true } });
  return true;
}

/**
 * PLATFORM_ADMIN_EMAILS (decision 169): the accounts whose e-mail is listed AND proven (an e-mailed code) become
 * platform admins. An address anyone merely typed (a registration, an unproven edit) grants nothing: one statement
 * reads both conditions, so an e-mail changed in the meantime cannot slip through. Without `userId`, every such
 * account (start-up); with it, that one account (right after it proved its address).
 */
export async function grantListedPlatformAdmin(db: Db | Tx, emails: string[], userId?: string): Promise<void> {
  if (emails.length === 0) return;
  const listed = sql`array[${sql.join(
    emails.map((e) => sql`${e.trim().toLowerCase()}`),
    sql`, `,
  )}]::text[]`;
  await db.execute(sql`
    insert into ${platformAdmins} (user_id)
    select u.id from ${users} u
    where u.email = any(${listed}) and u.email_verified_at is not null ${userId ? sql`and u.id = ${userId}` : sql``}
    on conflict (user_id) do update set active = true`);
}

/** PLATFORM_ADMIN_EMAILS at start: existing accounts with a listed, proven e-mail. */
export async function grantConfiguredPlatformAdmins(db: Db, emails: string[]): Promise<void> {
  await grantListedPlatformAdmin(db, emails);
}

/**
 * Locks every active admin row (in one order, so concurrent callers queue instead of deadlocking) and checks that the
 * actor is still one of them: an admin revoked a moment ago cannot act on the request already past the guard.
 */
export async function lockPlatformAdmins(tx: Tx, actorId: string): Promise<string[]> {
  const rows = await tx
    .select({ userId: platformAdmins.userId })
    .from(platformAdmins)
    .where(eq(platformAdmins.active, true))
    .orderBy(asc(platformAdmins.userId))
    .for("update");
  const ids = rows.map((r) => r.userId);
  if (!ids.includes(actorId)) throw forbidden("Platform admin access required");
  return ids;
}

