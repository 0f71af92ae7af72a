import { createHash } from "node:crypto";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { ProfileInput } from "../../shared/schemas/profile";
import { rowsOf, type Db, type Tx } from "../db/client";
import { sessions, users } from "../db/schema/users";
import { describeDevice } from "./devices";

// The signed-in user's own record and sessions. Every statement names the user: nobody reaches another's.

/** The names; the e-mail has its own, proven change (decision 169). */
export async function updateProfile(db: Db | Tx, userId: string, input: Pick<ProfileInput, "firstName" | "lastName">) {
  const [row] = await db
    .update(users)
    .set({ firstName: input.firstName, lastName: input.lastName })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

/** Sets the picture and answers the one it replaced, read under the same row lock (two uploads cannot both keep it). */
export async function replaceProfileImage(db: Db | Tx, userId: string, url: string): Promise<{ previous: string | null } | null> {
  const result = await db.execute(sql`
    with old as (select id, profile_image_url from ${users} where id = ${userId} for update)
    update ${users} u set profile_image_url = ${url}, updated_at = now()
    from old where u.id = old.id
    returning old.profile_image_url as previous`);
  return rowsOf<{ previous: string | null }>(result)[0] ?? null;
}

/** Not the session id (that keys the sessions table): a short, stable handle for the list. */
function sessionHandle(sid: string): string {
  return createHash("sha256").update(`list:${sid}`).digest("base64url").slice(0, 16);
}

/** The user's live sessions, the most recently used first. */
export async function activeSessionsOf(db: Db | Tx, userId: string, currentSid: string | undefined) {
  const rows = await db
    .select({
      sid: sessions.sid,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      lastSeenAt: sessions.lastSeenAt,
      createdAt: sql<string>`(${sessions.sess}->>'createdAt')`,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expire, sql`now()`)))
    .orderBy(desc(sessions.lastSeenAt));
  return rows
    .map((row) => ({
      id: sessionHandle(row.sid),
      device: describeDevice(row.userAgent),
      ipAddress: row.ipAddress,
      lastSeenAt: row.sid === currentSid ? new Date() : row.lastSeenAt,
      signedInAt: new Date(Number(row.createdAt)),
      current: row.sid === currentSid,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}
