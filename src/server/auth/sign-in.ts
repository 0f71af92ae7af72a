import type { FastifyInstance, FastifyReply } from "fastify";
import { eq } from "drizzle-orm";
import type { Config } from "../config";
import { users } from "../db/schema/users";
import { acceptInvitationsFor } from "../team/invites";
import { SESSION_COOKIE, startSession } from "./sessions";

export function sessionPolicy(config: Config) {
  return { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs };
}

/**
 * Starts a session for a user who has just proved who they are, and sets its cookie. Invitations waiting for
 * this user's e-mail are accepted here: an existing user invited to another dealership joins it on their next
 * sign-in (decision 033).
 */
export async function signIn(app: FastifyInstance, reply: FastifyReply, userId: string): Promise<void> {
  const [user] = await app.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  if (user) await app.db.transaction((tx) => acceptInvitationsFor(tx, user));
  const { token, expires } = await startSession(app.db, userId, sessionPolicy(app.config));
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: app.config.secureCookies,
    expires,
  });
}
