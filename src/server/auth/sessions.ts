import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { sessions, users } from "../db/schema/users";

// Server-side sessions in the sessions table (decision 003). The cookie holds a random token; the table keys
// on its hash. Idle expiry slides forward with use; absolute expiry never moves.

export const SESSION_COOKIE = "showroom.sid";
// Sliding the idle expiry costs a write; do it at most once a minute per session.
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export interface ActiveSession {
  sid: string;
  userId: string;
}

export interface ResumedSession extends ActiveSession {
  /** The session's user row (null if the account is gone). */
  user: typeof users.$inferSelect | null;
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/** Starts a new session (a new id every login) and answers the cookie token. */
export async function startSession(db: Db, userId: string, policy: SessionPolicy): Promise<{ token: string; expires: Date }> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const absoluteExpiry = now + policy.absoluteMs;
  const expires = new Date(Math.min(now + policy.idleMs, absoluteExpiry));
  await db.insert(sessions).values({ sid: hashToken(token), sess: { userId, absoluteExpiry, createdAt: now }, expire: expires });
  return { token, expires };
}

/** The live session behind a cookie token, sliding its idle expiry; null when missing or expired. */
export async function resumeSession(db: Db, token: string, policy: SessionPolicy): Promise<ResumedSession | null> {
  const sid = hashToken(token);
  const now = Date.now();
  // The user comes in the same query: every signed-in request needs both.
  const [found] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .leftJoin(users, sql`${users.id} = ${sessions.sess}->>'userId'`)
    .where(and(eq(sessions.sid, sid), gt(sessions.expire, new Date(now))))
    .limit(1);
  if (!found) return null;
  const row = found.session;
  if (row.sess.absoluteExpiry <= now) {
    await db.delete(sessions).where(eq(sessions.sid, sid));
    return null;
  }
  const slid = Math.min(now + policy.idleMs, row.sess.absoluteExpiry);
  if (slid - row.expire.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ expire: new Date(slid) }).where(eq(sessions.sid, sid));
  }
  return { sid, userId: row.sess.userId, user: found.user };
}

export async function endSession(db: Db, sid: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.sid, sid));
}

/** Ends every session of a user (password change, account removal). */
export async function endSessionsOfUser(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(sql`${sessions.sess}->>'userId' = ${userId}`);
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expire, new Date()));
}
