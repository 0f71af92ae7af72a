import type { FastifyRequest } from "fastify";
import { publicUser } from "./current-user";
import { resumeSession, SESSION_COOKIE } from "./sessions";

/** Resumes the request's session from its cookie, once per request, before any route runs. */
export async function resumeRequestSession(request: FastifyRequest): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return;
  const config = request.server.config;
  const resumed = await resumeSession(request.server.db, token, { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs });
  if (resumed) {
    request.session = { sid: resumed.sid, userId: resumed.userId };
    request.userCache = resumed.user ? publicUser(resumed.user) : null;
  }
}
