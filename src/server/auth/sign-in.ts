import type { FastifyInstance, FastifyReply } from "fastify";
import type { Config } from "../config";
import { SESSION_COOKIE, startSession } from "./sessions";

export function sessionPolicy(config: Config) {
  return { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs };
}

/** Starts a session for a user who has just proved who they are, and sets its cookie. */
export async function signIn(app: FastifyInstance, reply: FastifyReply, userId: string): Promise<void> {
  const client = { userAgent: reply.request.headers["user-agent"], ipAddress: reply.request.ip };
  const { token, expires } = await startSession(app.db, userId, sessionPolicy(app.config), client);
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: app.config.secureCookies,
    expires,
  });
}
