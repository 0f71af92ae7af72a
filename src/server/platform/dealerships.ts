import { and, asc, count, eq, inArray, isNotNull, or, sql, type SQL } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { fullName } from "../../shared/format";
import { phoneSearchDigits } from "../../shared/phone";
import type { DealershipCreated, DealershipDeleted, DealershipPage, PlatformDealership } from "../../shared/schemas/responses/platform";
import type { z } from "zod";
import type { dealershipCreateSchema, dealershipDetailsSchema, PlatformListQuery } from "../../shared/schemas/platform";
import { endSessionsOfUser } from "../auth/sessions";
import type { Db, Tx } from "../db/client";
import { calendarFeeds } from "../db/schema/appointments";
import { dealershipInvites, dealershipUsers, dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { emailNotificationSubscriptions } from "../db/schema/notifications";
import { platformAdminDealershipAccess } from "../db/schema/platform";
import { users } from "../db/schema/users";
import { createDealership, type DealershipRow } from "../dealerships/queries";
import { publish } from "../events/outbox";
import { notFound } from "../http/errors";
import { likeContains } from "../leads/queries";
import { mailInvitation } from "../team/invitation-mail";
import { createInvitation, invitationView } from "../team/invites";
import { changedFields, recordAudit, type PlatformActor } from "./audit";

// Dealerships of the installation (part 2 §2 Dealerships, §3, §5, §7). Deleting takes a dealership out of service
// instead of erasing it (decision 090).

type DetailsInput = z.output<typeof dealershipDetailsSchema>;
type CreateInput = z.output<typeof dealershipCreateSchema>;

export function dealershipView(row: DealershipRow): PlatformDealership {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    phone: row.phone,
    email: row.email,
    website: row.website,
    createdAt: row.createdAt.toISOString(),
    active: row.active,
  };
}

/** Dealerships in service, by name; `search` looks in name, address, e-mail and phone. */
export async function listDealerships(db: Db, query: PlatformListQuery): Promise<DealershipPage> {
  const filters: SQL[] = [eq(dealerships.active, true)];
  if (query.search) {
    const like = likeContains(query.search);
    const text = (column: SQL | typeof dealerships.name) => sql`${column} ilike ${like}`;
    // A number is found however it is typed: its digits among the stored E.164 number's (decision 205).
    const digits = phoneSearchDigits(query.search);
    const phone = digits ? sql`regexp_replace(coalesce(${dealerships.phone}, ''), '[^0-9]', '', 'g') like ${likeContains(digits)}` : sql`false`;
    filters.push(or(text(dealerships.name), text(sql`coalesce(${dealerships.address}, '')`), text(sql`coalesce(${dealerships.email}, '')`), text(sql`coalesce(${dealerships.phone}, '')`), phone)!);
  }
  const where = and(...filters);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(dealerships)
      .where(where)
      .orderBy(sql`lower(${dealerships.name})`, asc(dealerships.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(dealerships).where(where),
  ]);
  return { items: rows.map(dealershipView), total: Number(counted?.n ?? 0), page: query.page, pageSize: query.pageSize };
}

/**
 * A dealership in service, or 404: a deleted dealership is gone for the platform screens too. `lock` holds its row
 * until the transaction ends, so a deletion cannot slip in before the caller's change commits.
 */
export async function dealershipInService(db: Db | Tx, id: string, { lock = false } = {}): Promise<DealershipRow> {
  const query = db
    .select()
    .from(dealerships)
    .where(and(eq(dealerships.id, id), eq(dealerships.active, true)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Dealership not found");
  return row;
}

/**
 * Creates a dealership and invites its first manager by e-mail (part 2 §5), in one transaction: the dealership, its
 * e-mail triggers, the invitation and its queued mail commit together or not at all. The invitation is the team
 * area's own (the admin panel's rules and mail).
 */
export async function createDealershipWithManager(app: FastifyInstance, input: CreateInput, actor: PlatformActor): Promise<DealershipCreated> {
  return app.db.transaction(async (tx) => {
    const { adminEmail, adminFirstName, adminLastName, ...details } = input;
    const dealership = await createDealership(tx, details);
    const invite = await createInvitation(
      tx,
      dealership.id,
      { email: adminEmail, firstName: adminFirstName, lastName: adminLastName, role: "management" },
      actor.id,
    );
    await mailInvitation(app, tx, invite, actor);
    await publish(tx, { type: "dealership.created", dealershipId: dealership.id, actorId: actor.id, payload: { dealership: { id: dealership.id, name: dealership.name } } });
    await recordAudit(tx, actor, {
      action: "dealership_created",
      dealershipId: dealership.id,
      subjectId: dealership.id,
      summary: `Created dealership ${dealership.name} and invited ${adminEmail} as Management`,
    });
    return { dealership: dealershipView(dealership), invitation: invitationView(invite) };
  });
}

/** PUT /api/platform/dealerships/{id}: the details of a dealership in service. */
export async function updateDealership(db: Db, id: string, input: DetailsInput, actor: PlatformActor): Promise<PlatformDealership> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(dealerships)
      .where(and(eq(dealerships.id, id), eq(dealerships.active, true)))
      .for("update");
    if (!before) throw notFound("Dealership not found");
    const [row] = await tx.update(dealerships).set(input).where(eq(dealerships.id, id)).returning();
    if (!row) throw notFound("Dealership not found");
    const changes = changedFields(before, input);
    await publish(tx, { type: "dealership.updated", dealershipId: id, actorId: actor.id, payload: { dealership: { id, name: row.name } } });
    await recordAudit(tx, actor, {
      action: "dealership_updated",
      dealershipId: id,
      subjectId: id,
      summary: `Updated dealership ${row.name}${Object.keys(changes).length ? ` (${Object.keys(changes).join(", ")})` : ""}`,
      details: changes,
    });
    return dealershipView(row);
  });
}

/**
 * DELETE /api/platform/dealerships/{id} (decision 090): the dealership goes out of service, and in the same transaction
 * every member loses access (memberships inactive, their sessions ended), their claimed leads return to unclaimed
 * (part 2 §2: as when a user is removed), pending invitations, e-mail subscriptions and calendar links go, and platform
 * admins' access rows end. Its records stay in the database, unreadable through the app.
 */
export async function deleteDealership(db: Db, id: string, actor: PlatformActor): Promise<DealershipDeleted> {
  return db.transaction(async (tx) => {
    // Taking the dealership out of service is the first statement, and its row lock (the UPDATE's) is the deletion's
    // turn (decision 176): it waits for the members' writes holding the row FOR SHARE (holdDealership, the claim) to
    // commit, so the claims they made are returned below; a write that comes later waits for this transaction and
    // then finds the dealership gone. It queues with role changes, removals and invitations too (they lock the row).
    // Lock order: the dealership's row, then its memberships, leads, invitations, ... and its members' user rows.
    const [dealership] = await tx
      .update(dealerships)
      .set({ active: false })
      .where(and(eq(dealerships.id, id), eq(dealerships.active, true)))
      .returning({ id: dealerships.id, name: dealerships.name });
    if (!dealership) throw notFound("Dealership not found");

    const removed = await tx
      .update(dealershipUsers)
      .set({ active: false })
      .where(and(eq(dealershipUsers.dealershipId, id), eq(dealershipUsers.active, true)))
      .returning({ userId: dealershipUsers.userId });
    const removedIds = removed.map((r) => r.userId);
    const members = removedIds.length
      ? await tx.select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(inArray(users.id, removedIds))
      : [];
    const returned = await tx
      .update(leads)
      .set({ status: "new", claimedBy: null, claimedAt: null })
      .where(and(eq(leads.dealershipId, id), isNotNull(leads.claimedBy)))
      .returning({ id: leads.id });
    await tx.delete(dealershipInvites).where(and(eq(dealershipInvites.dealershipId, id), inArray(dealershipInvites.status, ["pending", "expired"])));
    await tx.delete(emailNotificationSubscriptions).where(eq(emailNotificationSubscriptions.dealershipId, id));
    await tx.delete(calendarFeeds).where(eq(calendarFeeds.dealershipId, id));
    await tx.update(platformAdminDealershipAccess).set({ active: false }).where(eq(platformAdminDealershipAccess.dealershipId, id));
    await tx.update(users).set({ currentDealershipId: null }).where(eq(users.currentDealershipId, id));
    // As when one member is removed (decision 052): an open session or socket stops at once.
    for (const userId of removedIds) await endSessionsOfUser(tx, userId);

    await publish(tx, {
      type: "dealership.deleted",
      dealershipId: id,
      actorId: actor.id,
      payload: {
        dealership,
        removedMembers: members.map((m) => ({ id: m.id, name: fullName(m) || m.email, email: m.email })),
        returnedLeads: returned.length,
      },
    });
    await recordAudit(tx, actor, {
      action: "dealership_deleted",
      dealershipId: id,
      subjectId: id,
      summary: `Deleted dealership ${dealership.name}: ${removedIds.length} member${removedIds.length === 1 ? "" : "s"} removed, ${returned.length} claimed lead${returned.length === 1 ? "" : "s"} returned`,
    });
    return { message: "Dealership deleted", removedMembers: removedIds.length, returnedLeads: returned.length };
  });
}
