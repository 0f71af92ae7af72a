import { asc, eq, sql } from "drizzle-orm";
import { CANNOT_DELETE_SELF, LAST_PLATFORM_ADMIN } from "../../shared/schemas/platform";
import type { Db, Tx } from "../db/client";
import { platformAdmins } from "../db/schema/platform";
import { users } from "../db/schema/users";
import { conflict, forbidden, notFound } from "../http/errors";
import { recordAudit, type PlatformActor } from "./audit";

// Platform administrators (part 2 §2 Users, §3 platform_admins, §5; decision 092). Grants and revocations are decided
// with every active admin row locked, so two admins revoking (or deleting) each other at the same moment cannot leave
// the installation without one.

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

/** POST /api/platform/admins/grant: answers the user's id; 404 without an account, 409 when already an admin. */
export async function grantPlatformAdmin(db: Db, email: string, actor: PlatformActor): Promise<string> {
  return db.transaction(async (tx) => {
    const admins = await lockPlatformAdmins(tx, actor.id);
    const [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, email)).limit(1);
    if (!user) throw notFound("No user with this email was found. They need an account before they can be made an admin.");
    if (admins.includes(user.id)) throw conflict("This user is already a platform admin");
    await tx
      .insert(platformAdmins)
      .values({ userId: user.id, grantedBy: actor.id })
      .onConflictDoUpdate({ target: platformAdmins.userId, set: { active: true, grantedBy: actor.id, grantedAt: sql`now()` } });
    await recordAudit(tx, actor, { action: "admin_granted", subjectId: user.id, summary: `Granted platform admin to ${user.email}` });
    return user.id;
  });
}

/**
 * DELETE /api/platform/admins/{userId}: nobody revokes themselves, and the last admin stays (part 2 §5). The row is
 * kept inactive (who granted it stays on record); their access ends on their next request, which reads it.
 */
export async function revokePlatformAdmin(db: Db, userId: string, actor: PlatformActor): Promise<void> {
  if (userId === actor.id) throw conflict(CANNOT_DELETE_SELF);
  await db.transaction(async (tx) => {
    const admins = await lockPlatformAdmins(tx, actor.id);
    if (!admins.includes(userId)) throw notFound("That user is not a platform admin");
    if (admins.length <= 1) throw conflict(LAST_PLATFORM_ADMIN);
    await tx.update(platformAdmins).set({ active: false }).where(eq(platformAdmins.userId, userId));
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
    await recordAudit(tx, actor, { action: "admin_revoked", subjectId: userId, summary: `Revoked platform admin from ${user?.email ?? userId}` });
  });
}
