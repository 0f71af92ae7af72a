import { sql, type SQL } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { DealershipRole } from "../../shared/constants";
import { can, type Capability } from "../../shared/permissions";
import { rowsOf, type Db, type Tx } from "../db/client";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { apiTokens } from "../db/schema/integrations";
import { platformAdminDealershipAccess, platformAdmins } from "../db/schema/platform";
import { users } from "../db/schema/users";
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
  role: DealershipRole | "system";
  isPlatformAdmin: boolean;
  /** The system viewer's job (systemViewer); absent for a person. */
  system?: SystemActor;
}

/** A person's viewer: a role in the dealership (what routes hold). */
export interface PersonViewer extends Viewer {
  role: DealershipRole;
  system?: undefined;
}

/** A dealership-path viewer with the signed-in user's public record. */
export interface DealershipAccess extends PersonViewer {
  user: SessionUser;
}

/**
 * The jobs and hooks that act in a dealership with no person behind them (decision 249): each acts as its own
 * system viewer, named, so a query or command that takes a Viewer can be called by a job and its actor is known.
 */
export const SYSTEM_ACTORS = [
  "unattended-leads",
  "task-reminders",
  "follow-ups",
  "purge",
  "distribution",
  "intake",
  "webhook-delivery",
  "mail-delivery",
] as const;
export type SystemActor = (typeof SYSTEM_ACTORS)[number];

/** A job's viewer: role "system", no user (userId "" never equals a user's id; its events' actor is null). */
export interface SystemViewer extends Viewer {
  userId: "";
  role: "system";
  isPlatformAdmin: false;
  system: SystemActor;
}

/**
 * The system viewer of `actor` in one dealership. The access rules (src/server/access) let it see every record of
 * that dealership, as management does, and none of another; it holds no person's notifications. Its writes hold the
 * dealership (holdDealership) without an account.
 */
export function systemViewer(dealershipId: string, actor: SystemActor): SystemViewer {
  return { userId: "", dealershipId, role: "system", isPlatformAdmin: false, system: actor };
}

/** Who acts, for an event's actorId and created_by columns: the person, or null for a job. */
export function actorIdOf(viewer: Pick<Viewer, "userId" | "system">): string | null {
  return viewer.system ? null : viewer.userId;
}

/** What a log line names as the actor: the user's id, or `system:<job>`. */
export function actorLabel(viewer: Pick<Viewer, "userId" | "system">): string {
  return viewer.system ? `system:${viewer.system}` : viewer.userId;
}

/**
 * The user's role in a dealership as SQL, null when none: an active membership of an active dealership, or
 * "management" for an active platform admin granted access to it, or a live API token's role for the token's own
 * account (decision 225). The one definition of access, used by the session
 * query and by every area's object queries.
 */
export function roleSql(userId: unknown, dealershipId: unknown): SQL<DealershipRole | null> {
  // The subqueries' aliases are prefixed `role_`: callers pass columns of their own query (`t.dealership_id` of a
  // task), and an alias of the same name in here would capture them. The token's subquery was aliased `t`, so for
  // tasks its `t.dealership_id = t.dealership_id` held for every dealership: a token reached other dealerships'
  // tasks with its role (found by tests/api/token-scope.test.ts).
  return sql<DealershipRole | null>`coalesce(
    (select role_du.role from ${dealershipUsers} role_du join ${dealerships} role_d on role_d.id = role_du.dealership_id
      where role_du.user_id = ${userId} and role_du.dealership_id = ${dealershipId} and role_du.active and role_d.active limit 1),
    (select 'management'::text from ${platformAdminDealershipAccess} role_pa join ${platformAdmins} role_p on role_p.user_id = role_pa.user_id
      where role_pa.user_id = ${userId} and role_pa.dealership_id = ${dealershipId} and role_pa.active and role_p.active limit 1),
    (select role_t.role from ${apiTokens} role_t join ${dealerships} role_td on role_td.id = role_t.dealership_id
      where role_t.user_id = ${userId} and role_t.dealership_id = ${dealershipId} and role_t.revoked_at is null
        and (role_t.expires_at is null or role_t.expires_at > now()) and role_td.active limit 1))`;
}

/** Whether the user is an active platform admin, as SQL. */
export function isPlatformAdminSql(userId: unknown): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${platformAdmins} p where p.user_id = ${userId} and p.active)`;
}

export async function roleInDealership(db: Db | Tx, userId: string, dealershipId: string): Promise<DealershipRole | null> {
  const result = await db.execute(sql`select ${roleSql(userId, dealershipId)} as role`);
  return rowsOf<{ role: DealershipRole | null }>(result)[0]?.role ?? null;
}

const NO_ACCESS = "You do not have access to this dealership";

/**
 * Holds the dealership in service, and the writer's account, until the transaction ends (decision 176): the
 * dealership's row FOR SHARE while it is active, the user's row FOR KEY SHARE; else 403, as for a user without a role
 * there. Deleting a dealership updates its row and deleting an account locks the user's row, so either waits for the
 * writes holding them to commit (and then returns the leads they claimed), and a write that comes after waits for
 * the deletion and finds the dealership or the account gone: nothing lands after a deletion, nothing fails on a
 * foreign key to a user deleted a moment ago.
 *
 * Lock order: every write of a dealership's records takes this FIRST (the dealership's row, then the user's), before
 * any row of a lead, appointment, test drive or vehicle. The dealership's deletion, member removals and role changes,
 * invitations (this hold, exclusive) and an account's deletion lock the dealership's row first too, so nobody holds a
 * record while waiting for the dealership. The claim folds the same locks into its one statement (leads/queries.ts).
 */
export async function holdDealership(
  tx: Tx,
  viewer: Pick<Viewer, "userId" | "dealershipId" | "system">,
  { exclusive = false }: HoldOptions = {},
): Promise<void> {
  const mode = exclusive ? sql`no key update` : sql`share`;
  // A job acts with no account (systemViewer, decision 249): only the dealership is held.
  const held = viewer.system
    ? await tx.execute(sql`select d.id from ${dealerships} d where d.id = ${viewer.dealershipId} and d.active for ${mode} of d`)
    : await tx.execute(sql`
    select d.id from ${dealerships} d join ${users} u on u.id = ${viewer.userId}
    where d.id = ${viewer.dealershipId} and d.active
    for ${mode} of d for key share of u`);
  if (rowsOf(held).length === 0) throw forbidden(NO_ACCESS);
}

export interface HoldOptions {
  /**
   * The dealership's row FOR NO KEY UPDATE instead of FOR SHARE, taken by the same first statement (decision 242): for
   * the team's changes that decide over several rows of the dealership at once (the last manager, one live invitation
   * per e-mail) or must wait for its members' writes in flight (a removal returns what they claimed). They queue with
   * each other, with every write of the dealership and with its deletion. Taken from the start, never after a FOR
   * SHARE of the same transaction: two such holders would each wait for the other's share to go (a deadlock).
   */
  exclusive?: boolean;
}

/** A write of one dealership's records: one transaction that first holds the dealership in service (holdDealership). */
export function writeInDealership<T>(
  db: Db,
  viewer: Pick<Viewer, "userId" | "dealershipId" | "system">,
  write: (tx: Tx) => Promise<T>,
  options: HoldOptions = {},
): Promise<T> {
  return db.transaction(async (tx) => {
    await holdDealership(tx, viewer, options);
    return write(tx);
  });
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
  if (!role) throw forbidden(NO_ACCESS);
  return { user, userId: user.id, dealershipId, role, isPlatformAdmin: request.session?.isPlatformAdmin ?? false };
}

/**
 * A route's preValidation for /api/dealerships/:id/... routes with a body or query schema: the 401 and 403 (and the
 * capability's 403) come before a 400, as when the handler checked first and parsed second (decision 190). The
 * handler asks again for its viewer: the user is cached and the path's role was resolved with the session.
 */
export function dealershipFirst(capability?: Capability, message?: string): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const access = await requireDealershipAccess(request, (request.params as { id: string }).id);
    if (capability) requireCapability(access, capability, message);
  };
}

/** The viewer for an object found through `roleSql` in an area query. */
export function viewerOf(userId: string, dealershipId: string, role: DealershipRole, isPlatformAdmin = false): PersonViewer {
  return { userId, dealershipId, role, isPlatformAdmin };
}

export function requireCapability(access: Pick<PersonViewer, "role">, capability: Capability, message?: string): void {
  if (!can(access.role, capability)) throw forbidden(message ?? "You do not have permission to do this");
}
