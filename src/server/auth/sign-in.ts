import type { FastifyInstance, FastifyReply } from "fastify";
import type { Config } from "../config";
import { endSession, SESSION_COOKIE, startSession } from "./sessions";
import { secondFactorRefused, userWithSecrets, useSecondFactor } from "./two-factor";

export function sessionPolicy(config: Config) {
  return { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs };
}

/**
 * What the request offers for the second factor (decision 168):
 * - `{ twoFactorCode }`: the code typed in this request, if any (sign-in's second POST sends it with the password);
 * - `{ renewsOwnSession: true }`: the request's own session is replaced by a new id (the password change): that
 *   session passed the second factor when it began, and it must be this same user's.
 */
export type SecondFactorOffer = { twoFactorCode?: string | undefined } | { renewsOwnSession: true };

export type SignInResult = "signed-in" | "requires-two-factor";

/**
 * The one way a session starts, for a user who has just proved who they are in this request (password, e-mailed
 * code). It reads whether two-factor is on itself, so no caller can forget it: with it on, a session starts only
 * with an authenticator or backup code accepted here and now, or as the renewal of the user's own session. Without
 * a code it answers "requires-two-factor" and starts nothing; a wrong or used code is a 401. A session the request
 * came with ends: one browser, one session.
 */
export async function signIn(app: FastifyInstance, reply: FastifyReply, userId: string, offer: SecondFactorOffer): Promise<SignInResult> {
  const user = await userWithSecrets(app.db, userId);
  if (!user) throw new Error(`signIn: no user ${userId}`);
  const current = reply.request.session;
  if ("renewsOwnSession" in offer) {
    if (current?.userId !== userId) throw new Error("signIn: only the user's own session can be renewed");
  } else if (user.twoFactorEnabled) {
    if (!offer.twoFactorCode) return "requires-two-factor";
    const outcome = await useSecondFactor(app, app.db, user, offer.twoFactorCode);
    if (outcome !== "accepted") throw secondFactorRefused(outcome, 401);
  }
  if (current) await endSession(app.db, current.sid);
  const client = { userAgent: reply.request.headers["user-agent"], ipAddress: reply.request.ip };
  const { token, expires } = await startSession(app.db, userId, sessionPolicy(app.config), client);
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: app.config.secureCookies,
    expires,
  });
  return "signed-in";
}
