import type { FastifyRequest } from "fastify";
import { resumeSession, SESSION_COOKIE } from "./sessions";

const DEALERSHIP_PATH = "/api/dealerships/:id/";

/**
 * Resumes the request's session from its cookie, once per request, before any route runs. On a dealership path the
 * user's role there comes in the same query, and `requireDealershipAccess` reuses it.
 */
export async function resumeRequestSession(request: FastifyRequest): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return;
  const config = request.server.config;
  const route = request.routeOptions.url ?? "";
  const dealershipId = route.startsWith(DEALERSHIP_PATH) ? (request.params as { id?: string }).id : undefined;
  const resumed = await resumeSession(
    request.server.db,
    token,
    { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs },
    dealershipId,
  );
  if (resumed) {
    const { user, ...session } = resumed;
    request.session = session;
    request.userCache = user;
  }
}
