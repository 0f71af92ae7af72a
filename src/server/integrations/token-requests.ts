import type { FastifyRequest } from "fastify";
import { countAttempt, tooManyAttempts } from "../auth/attempt-counter";
import { SESSION_COOKIE } from "../auth/sessions";
import { HttpError } from "../http/errors";
import { API_TOKEN_PREFIX, presentedToken } from "./api-tokens";

// Requests with `Authorization: Bearer shr_...` (issue 28, decision 225). The token resolves to the same "who is
// asking" a session does (request.session and its user), so every route's own checks apply unchanged; on top of
// them a token may only reach its own dealership's records, never a person's own things (profile, two-factor,
// sessions), the platform screens, or the management of tokens and webhooks.

/** Route prefixes a token may call: a dealership's paths and the dealership records' object paths, and the API's description. */
const TOKEN_ROUTES = ["/api/openapi.json", "/api/dealerships/:id", "/api/leads", "/api/appointments", "/api/test-drives", "/api/test-drive-units", "/api/vehicles", "/api/notes", "/api/tasks"];
/** Kept for people: a token cannot make or see tokens or webhooks. */
const PEOPLE_ONLY = ["/api/dealerships/:id/api-tokens", "/api/dealerships/:id/webhooks"];

const RATE_WINDOW_MS = 60_000;

/**
 * The API token of an /api/ request: an `Authorization: Bearer shr_...` header, or null. Other bearer secrets are not
 * API tokens: lead intake's credentials come the same way and are checked by the intake routes (decision 225).
 */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string") return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match && match[1]!.startsWith(API_TOKEN_PREFIX) ? match[1]! : null;
}

const under = (route: string, prefix: string) => route === prefix || route.startsWith(`${prefix}/`);

export function tokenMayCall(route: string): boolean {
  return !PEOPLE_ONLY.some((prefix) => under(route, prefix)) && TOKEN_ROUTES.some((prefix) => under(route, prefix));
}

const unknownToken = () =>
  new HttpError(401, "This API token is not valid: it is unknown, revoked or expired", undefined, { "www-authenticate": 'Bearer realm="showroom", error="invalid_token"' });

/**
 * Resolves a token request's "who is asking": 400 with a session cookie too (which of the two would act is
 * ambiguous), 401 for a token that is not live, 403 for a route or dealership it may not reach, 429 past its rate.
 */
export async function resumeTokenRequest(request: FastifyRequest, token: string): Promise<void> {
  if (request.cookies[SESSION_COOKIE]) throw new HttpError(400, "Send either a session cookie or an API token, not both");
  const db = request.server.db;
  const presented = await presentedToken(db, token);
  if (!presented) throw unknownToken();
  const route = request.routeOptions.url;
  // No route: Fastify's 404 answers, as for anyone.
  if (route === undefined) return;
  if (!tokenMayCall(route)) throw new HttpError(403, "An API token cannot use this route");
  const pathDealership = route.startsWith("/api/dealerships/:id") ? (request.params as { id?: string }).id : undefined;
  if (pathDealership !== undefined && pathDealership !== presented.dealershipId) throw new HttpError(403, "This API token belongs to another dealership");
  const limit = request.server.config.apiRateLimit ?? 600;
  const counted = await countAttempt(db, [{ key: `api-token:${presented.id}`, limit, windowMs: RATE_WINDOW_MS, blockMs: RATE_WINDOW_MS }]);
  if (counted.blockedForSeconds !== null) throw tooManyAttempts(`This API token may make ${limit} requests a minute`, counted.blockedForSeconds);
  request.session = {
    sid: `api-token:${presented.id}`,
    userId: presented.user.id,
    isPlatformAdmin: false,
    ...(pathDealership !== undefined ? { dealership: { id: pathDealership, role: presented.role } } : {}),
  };
  request.userCache = presented.user;
}
