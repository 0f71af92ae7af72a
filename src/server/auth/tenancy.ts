import { and, eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { DealershipRole } from "../../shared/constants";
import { can, type Capability } from "../../shared/permissions";
import type { Db } from "../db/client";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { platformAdminDealershipAccess, platformAdmins } from "../db/schema/platform";
import { forbidden, notFound } from "../http/errors";
import { requireUser, type SessionUser } from "./current-user";

// The only way routes reach dealership data (ARCHITECTURE invariant 2): every dealership path asks
// `requireDealershipAccess`, every object route asks `requireObjectAccess` with the object's dealership.
// Membership is read per request, so removing a member or changing a role takes effect at once.

export interface DealershipAccess {
  user: SessionUser;
  dealershipId: string;
  role: DealershipRole;
}

/**
 * The user's role in an active dealership: an active membership, or "management" for an active platform
 * admin granted access to that dealership. Null when neither.
 */
export async function roleInDealership(db: Db, userId: string, dealershipId: string): Promise<DealershipRole | null> {
  const [member] = await db
    .select({ role: dealershipUsers.role })
    .from(dealershipUsers)
    .innerJoin(dealerships, eq(dealerships.id, dealershipUsers.dealershipId))
    .where(
      and(
        eq(dealershipUsers.userId, userId),
        eq(dealershipUsers.dealershipId, dealershipId),
        eq(dealershipUsers.active, true),
        eq(dealerships.active, true),
      ),
    )
    .limit(1);
  if (member) return member.role;
  const [granted] = await db
    .select({ one: sql<number>`1` })
    .from(platformAdminDealershipAccess)
    .innerJoin(platformAdmins, eq(platformAdmins.userId, platformAdminDealershipAccess.userId))
    .where(
      and(
        eq(platformAdminDealershipAccess.userId, userId),
        eq(platformAdminDealershipAccess.dealershipId, dealershipId),
        eq(platformAdminDealershipAccess.active, true),
        eq(platformAdmins.active, true),
      ),
    )
    .limit(1);
  return granted ? "management" : null;
}

/** For /api/dealerships/{id}/... paths: 401 signed out, 403 not a member. */
export async function requireDealershipAccess(request: FastifyRequest, dealershipId: string): Promise<DealershipAccess> {
  const user = await requireUser(request);
  const role = await roleInDealership(request.server.db, user.id, dealershipId);
  if (!role) throw forbidden("You do not have access to this dealership");
  return { user, dealershipId, role };
}

/** For /api/{objects}/{id} paths: an object that is missing or in a dealership the user cannot reach is a 404. */
export async function requireObjectAccess(
  request: FastifyRequest,
  object: { dealershipId: string } | undefined | null,
  what = "Not found",
): Promise<DealershipAccess> {
  const user = await requireUser(request);
  if (!object) throw notFound(what);
  const role = await roleInDealership(request.server.db, user.id, object.dealershipId);
  if (!role) throw notFound(what);
  return { user, dealershipId: object.dealershipId, role };
}

export function requireCapability(access: DealershipAccess, capability: Capability, message?: string): void {
  if (!can(access.role, capability)) throw forbidden(message ?? "You do not have permission to do this");
}
