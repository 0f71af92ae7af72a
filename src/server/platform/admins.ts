import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { platformAdmins } from "../db/schema/platform";
import { users } from "../db/schema/users";

export async function isPlatformAdmin(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(platformAdmins)
    .where(and(eq(platformAdmins.userId, userId), eq(platformAdmins.active, true)))
    .limit(1);
  return Boolean(row);
}

/** Grants (or re-activates) platform admin; answers false when no user has that e-mail. */
export async function grantPlatformAdminByEmail(db: Db, email: string, grantedBy: string | null = null): Promise<boolean> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  if (!user) return false;
  await db
    .insert(platformAdmins)
    .values({ userId: user.id, grantedBy })
    .onConflictDoUpdate({ target: platformAdmins.userId, set: { active: true } });
  return true;
}

/** PLATFORM_ADMIN_EMAILS: granted at start for existing users, and at registration for new ones. */
export async function grantConfiguredPlatformAdmins(db: Db, emails: string[]): Promise<void> {
  for (const email of emails) await grantPlatformAdminByEmail(db, email);
}
