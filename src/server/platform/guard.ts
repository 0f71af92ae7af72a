import type { FastifyRequest } from "fastify";
import { requireUser, type SessionUser } from "../auth/current-user";
import { forbidden } from "../http/errors";

/**
 * Every /api/platform/* call (part 2 §6): 401 signed out, 403 for everyone but an active platform admin. The session
 * query already answered whether the user is one (one round trip per request); a revocation shows on the next request.
 */
export async function requirePlatformAdmin(request: FastifyRequest): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!request.session?.isPlatformAdmin) throw forbidden("Platform admin access required");
  return user;
}
