import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { users } from "../db/schema/users";
import { unauthorized } from "../http/errors";

export type UserRow = typeof users.$inferSelect;

/** The user's secrets: never sent to the client, and not read by the per-request session query either. */
export const SECRET_USER_FIELDS = ["password", "twoFactorSecret", "twoFactorBackupCodes", "twoFactorLastStep"] as const;

/** What the client may see of a user: never the password hash, two-factor secret, backup codes or last code step. */
export type SessionUser = Omit<UserRow, (typeof SECRET_USER_FIELDS)[number]>;

export function publicUser(row: UserRow): SessionUser {
  const { password: _p, twoFactorSecret: _s, twoFactorBackupCodes: _b, twoFactorLastStep: _l, ...rest } = row;
  return rest;
}

/** The signed-in user (loaded once per request), or null. */
export async function currentUser(request: FastifyRequest): Promise<SessionUser | null> {
  if (request.userCache !== undefined) return request.userCache;
  const session = request.session;
  if (!session) return (request.userCache = null);
  const [row] = await request.server.db.select().from(users).where(eq(users.id, session.userId)).limit(1);
  return (request.userCache = row ? publicUser(row) : null);
}

export async function requireUser(request: FastifyRequest): Promise<SessionUser> {
  const user = await currentUser(request);
  if (!user) throw unauthorized();
  return user;
}

/**
 * A route's preValidation for signed-in routes with a body or query schema: the 401 comes before a 400, as when the
 * handler checked first and parsed second (decision 190). The handler's own requireUser reads the cached user.
 */
export async function signedInFirst(request: FastifyRequest): Promise<void> {
  await requireUser(request);
}
