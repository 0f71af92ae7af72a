import { createHash, randomBytes } from "node:crypto";
import { eq, getTableColumns, lt, sql, type SQL } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import type { Db, Tx } from "../db/client";
import { fixedStatement, runStatement } from "../db/prepared";
import { sessions, users } from "../db/schema/users";
import { isPlatformAdminSql, roleSql } from "./tenancy";
import { SECRET_USER_FIELDS, type SessionUser } from "./current-user";

// Server-side sessions in the sessions table (decision 003). The cookie holds a random token; the table keys
// on its hash. Idle expiry slides forward with use; absolute expiry never moves. sessions.user_id is a real key
// (decision 052): ending every session of a user is one statement.

export { SESSION_COOKIE } from "../http/cookies";
// Sliding the idle expiry costs a write; do it at most once a minute per session.
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export interface ActiveSession {
  sid: string;
  userId: string;
  isPlatformAdmin: boolean;
  /** The user's role in the dealership of the request's path (/api/dealerships/{id}/...), resolved with the session. */
  dealership?: { id: string; role: DealershipRole | null };
}

export interface ResumedSession extends ActiveSession {
  user: SessionUser;
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/** Where a session was started from, for the profile's Active sessions card. */
export interface SessionClient {
  userAgent?: string | undefined;
  ipAddress?: string | undefined;
}

/** Starts a new session (a new id every login) and answers the cookie token. */
export async function startSession(
  db: Db,
  userId: string,
  policy: SessionPolicy,
  client: SessionClient = {},
): Promise<{ token: string; expires: Date }> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const absoluteExpiry = now + policy.absoluteMs;
  const expires = new Date(Math.min(now + policy.idleMs, absoluteExpiry));
  await db.insert(sessions).values({
    sid: hashToken(token),
    userId,
    sess: { userId, absoluteExpiry, createdAt: now },
    expire: expires,
    userAgent: client.userAgent?.slice(0, 500) ?? null,
    ipAddress: client.ipAddress ?? null,
  });
  return { token, expires };
}

// Every signed-in request runs one of these statements (issue 13): the live session, its user and, for a dealership
// path, the user's role there. Prepared once per connection. Two statements, not one with "role when a dealership id
// is given": PostgreSQL plans such a statement again on every call when the id is null (a plan that drops the role
// lookup looks cheaper than the generic one), 0.3 ms of planning on every claim (bench/README.md).
// The user's public columns only: the password hash and two-factor secrets stay out of every request's memory (the
// routes that check them read them on their own), and fewer columns are less to send and parse.
const secretFields: readonly string[] = SECRET_USER_FIELDS;
const userColumns = sql.join(
  Object.entries(getTableColumns(users))
    .filter(([key]) => !secretFields.includes(key))
    .map(([key, column]) => sql`u.${sql.identifier(column.name)} as ${sql.identifier(key)}`),
  sql`, `,
);
const sessionStatement = (name: string, role: SQL) =>
  fixedStatement(
    name,
    sql`select s.expire as "sessionExpire", (s.sess->>'absoluteExpiry')::bigint as "absoluteExpiry", ${userColumns},
          ${isPlatformAdminSql(sql`u.id`)} as "isPlatformAdmin", ${role} as "role"
        from ${sessions} s join ${users} u on u.id = s.user_id
        where s.sid = ${sql.placeholder("sid")} and s.expire > now()`,
  );
const sessionOnlyStatement = sessionStatement("session_resume", sql`null::text`);
const sessionInDealershipStatement = sessionStatement(
  "session_resume_in_dealership",
  roleSql(sql`u.id`, sql`${sql.placeholder("dealershipId")}::text`),
);

type SessionRow = SessionUser & { sessionExpire: Date; absoluteExpiry: string | number; isPlatformAdmin: boolean; role: DealershipRole | null };

/**
 * The live session behind a cookie token, sliding its idle expiry; null when missing or expired. With a dealership id,
 * the user's role in that dealership comes in the same query. `slide: false` only reads: what is not the person's
 * own use (the real-time socket and its reconnects, decision 156) must not keep an idle session alive.
 */
export async function resumeSession(
  db: Db,
  token: string,
  policy: SessionPolicy,
  dealershipId?: string,
  options: { slide?: boolean } = {},
): Promise<ResumedSession | null> {
  const sid = hashToken(token);
  const now = Date.now();
  const [row] = dealershipId
    ? await runStatement<SessionRow>(db, sessionInDealershipStatement, { sid, dealershipId })
    : await runStatement<SessionRow>(db, sessionOnlyStatement, { sid });
  if (!row) return null;
  const absoluteExpiry = Number(row.absoluteExpiry);
  if (absoluteExpiry <= now) {
    await endSession(db, sid);
    return null;
  }
  const slid = Math.min(now + policy.idleMs, absoluteExpiry);
  if (options.slide !== false && slid - new Date(row.sessionExpire).getTime() > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ expire: new Date(slid), lastSeenAt: new Date(now) }).where(eq(sessions.sid, sid));
  }
  const { sessionExpire: _e, absoluteExpiry: _a, isPlatformAdmin, role, ...user } = row;
  return {
    sid,
    userId: user.id,
    isPlatformAdmin,
    ...(dealershipId ? { dealership: { id: dealershipId, role } } : {}),
    user,
  };
}

export async function endSession(db: Db, sid: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.sid, sid));
}

/** Ends every session of a user (removal from a dealership, password change, 2FA, reset), or all but one. */
export async function endSessionsOfUser(db: Db | Tx, userId: string, exceptSid?: string): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(exceptSid ? sql`${sessions.userId} = ${userId} and ${sessions.sid} <> ${exceptSid}` : eq(sessions.userId, userId))
    .returning({ sid: sessions.sid });
  return rows.length;
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expire, new Date()));
}
