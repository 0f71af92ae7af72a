import { sql, type SQL } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { DealershipRole } from "../../shared/constants";
import { can, type Capability } from "../../shared/permissions";
import { rowsOf, type Db, type Tx } from "../db/client";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { platformAdminDealershipAccess, platformAdmins } from "../db/schema/platform";
import { forbidden } from "../http/errors";
import { requireUser, type SessionUser } from "./current-user";

// Tenancy (ARCHITECTURE invariant 2; decision 050). A Viewer is who asks, in which dealership, with which role: every
// area's queries take one and put `dealership_id = viewer.dealershipId` plus the role's visibility into their own
// SELECT, UPDATE and DELETE. Dealership paths get their viewer here (403 when the user has no role there); object paths
// (/api/leads/{id}) find their viewer inside the area's query, joined to `roleSql`, so an object of a dealership the
// user cannot reach is simply not found (404). Membership is read on every request: a removal takes effect at once.

export interface Viewer {
  userId: string;
  dealershipId: string;
  role: DealershipRole;
  isPlatformAdmin: boolean;
}

/** A dealership-path viewer with the signed-in user's public record. */
export interface DealershipAccess extends Viewer {
  user: SessionUser;
}

/**
 * The user's role in a dealership as SQL, null when none: an active membership of an active dealership, or
 * "management" for an active platform admin granted access to it. The one definition of access, used by the session
 * query and by every area's object queries.
 */
export function roleSql(userId: unknown, dealershipId: unknown): SQL<DealershipRole | null> {
  return sql<DealershipRole | null>`coalesce(
    (select du.role from ${dealershipUsers} du join ${dealerships} d on d.id = du.dealership_id
      where du.user_id = ${userId} and du.dealership_id = ${dealershipId} and du.active and d.active limit 1),
    (select 'management'::text from ${platformAdminDealershipAccess} a join ${platformAdmins} p on p.user_id = a.user_id
      where a.user_id = ${userId} and a.dealership_id = ${dealershipId} and a.active and p.active limit 1))`;
}

/** Whether the user is an active platform admin, as SQL. */
export function isPlatformAdminSql(userId: unknown): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${platformAdmins} p where p.user_id = ${userId} and p.active)`;
}

export async function roleInDealership(db: Db | Tx, userId: string, dealershipId: string): Promise<DealershipRole | null> {
  const result = await db.execute(sql`select ${roleSql(userId, dealershipId)} as role`);
  return rowsOf<{ role: DealershipRole | null }>(result)[0]?.role ?? null;
}

/**
 * For /api/dealerships/{id}/... paths: 401 signed out, 403 without a role there. The session query already resolved
 * the role in the path's dealership (one round trip per request); another dealership id is looked up.
 */
export async function requireDealershipAccess(request: FastifyRequest, dealershipId: string): Promise<DealershipAccess> {
  const user = await requireUser(request);
  const resolved = request.session?.dealership;
  const role =
    resolved && resolved.id === dealershipId ? resolved.role : await roleInDealership(request.server.db, user.id, dealershipId);
  if (!role) throw forbidden("You do not have access to this dealership");
  return { user, userId: user.id, dealershipId, role, isPlatformAdmin: request.session?.isPlatformAdmin ?? false };
}

/** The viewer for an object found through `roleSql` in an area query. */
export function viewerOf(userId: string, dealershipId: string, role: DealershipRole, isPlatformAdmin = false): Viewer {
  return { userId, dealershipId, role, isPlatformAdmin };
}

export function requireCapability(access: Viewer, capability: Capability, message?: string): void {
  if (!can(access.role, capability)) throw forbidden(message ?? "You do not have permission to do this");
}
