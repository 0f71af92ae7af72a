import { and, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import { ROLE_LABELS, type DealershipRole } from "../../shared/constants";
import { fullName } from "../../shared/format";
import { CANNOT_DELETE_SELF, LAST_PLATFORM_ADMIN, type dealershipCreateSchema, type dealershipDetailsSchema, type platformUserUpdateSchema } from "../../shared/schemas/platform";
import type { DealershipCreated, DealershipDeleted, PlatformDealership, PlatformUser, UserDeleted } from "../../shared/schemas/responses/platform";
import type { Invitation } from "../../shared/schemas/responses/team";
import { endSessionsOfUser } from "../auth/sessions";
import type { Viewer } from "../auth/tenancy";
import type { Db } from "../db/client";
import { calendarFeeds } from "../db/schema/appointments";
import { dealershipInvites, dealershipUsers, dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { emailNotificationSubscriptions } from "../db/schema/notifications";
import { platformAdminDealershipAccess, platformAdmins } from "../db/schema/platform";
import { users } from "../db/schema/users";
import { createDealership } from "../dealerships/queries";
import { publish } from "../events/outbox";
import { conflict, notFound } from "../http/errors";
import { changeMemberRole, deleteInvitation, inviteMember, removeMember, resendInvitation } from "../team/commands";
import type { InvitationMailSetup } from "../team/invitation-mail";
import { invitationView, type InvitationInput } from "../team/invites";
import { isUniqueViolation } from "../users/queries";
import { lockPlatformAdmins } from "./admins";
import { changedFields, recordAudit, type PlatformActor } from "./audit";
import { dealershipInService, dealershipView } from "./dealerships";
import { EMAIL_TAKEN, platformUser } from "./users";

// The platform admin's changes (part 2 §2, §5, §7; decisions 090-094; issue 25): each is one transaction with its
// audit entry (decision 093) and, where a dealership changes, its domain event. Who acts is the signed-in platform
// admin (`PlatformActor`; the route's requirePlatformAdmin checked): most of these changes belong to no dealership
// (the installation's users and admins, a dealership's creation and deletion). In one dealership's team the admin acts
// as that dealership's management (`platformViewer`): the team's own commands do the work with the admin panel's
// rules, locks and events, and the platform adds its audit entry in the same transaction and acts only on dealerships
// in service (404 otherwise).

type DetailsInput = z.output<typeof dealershipDetailsSchema>;
type CreateInput = z.output<typeof dealershipCreateSchema>;
type UpdateInput = z.output<typeof platformUserUpdateSchema>;

/** The platform admin acting in one dealership: management there, as a platform admin with access is (decision 035). */
export function platformViewer(actor: PlatformActor, dealershipId: string): Viewer {
  return { userId: actor.id, dealershipId, role: "management", isPlatformAdmin: true };
}

async function emailOf(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.email ?? userId;
}

/** The invitation's dealership, locked, when it is in service: the platform addresses invitations by id alone. */
async function invitationInService(db: Db, inviteId: string) {
  const [invite] = await db
    .select({ dealershipId: dealershipInvites.dealershipId, email: dealershipInvites.email })
    .from(dealershipInvites)
    .where(eq(dealershipInvites.id, inviteId))
    .limit(1);
  if (!invite) throw notFound("Invitation not found");
  const dealership = await dealershipInService(db, invite.dealershipId, { lock: true }).catch(() => {
    throw notFound("Invitation not found");
  });
  return { ...invite, dealership };
}

/**
 * Creates a dealership and invites its first manager by e-mail (part 2 §5), in one transaction: the dealership, its
 * e-mail triggers, the invitation and its queued mail commit together or not at all. The invitation is the team
 * area's own (the admin panel's rules and mail).
 */
export async function createDealershipWithManager(db: Db, actor: PlatformActor, input: CreateInput, setup: InvitationMailSetup): Promise<DealershipCreated> {
  return db.transaction(async (tx) => {
    const { adminEmail, adminFirstName, adminLastName, ...details } = input;
    const dealership = await createDealership(tx, details);
    const invite = await inviteMember(
      tx,
      platformViewer(actor, dealership.id),
      { email: adminEmail, firstName: adminFirstName, lastName: adminLastName, role: "management" },
      setup,
    );
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
export async function updateDealership(db: Db, actor: PlatformActor, id: string, input: DetailsInput): Promise<PlatformDealership> {
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
export async function deleteDealership(db: Db, actor: PlatformActor, id: string): Promise<DealershipDeleted> {
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

/** A member's new role (the team's command and its event), with the audit entry. */
export async function changeRoleAsPlatform(db: Db, actor: PlatformActor, dealershipId: string, userId: string, role: DealershipRole): Promise<void> {
  await db.transaction(async (tx) => {
    const dealership = await dealershipInService(tx, dealershipId, { lock: true });
    const previous = await changeMemberRole(tx, platformViewer(actor, dealershipId), userId, role);
    await recordAudit(tx, actor, {
      action: "member_role_changed",
      dealershipId,
      subjectId: userId,
      summary: `Changed ${await emailOf(tx, userId)}'s role at ${dealership.name} from ${ROLE_LABELS[previous]} to ${ROLE_LABELS[role]}`,
    });
  });
}

/** Removes a member (the team's command and its event), with the audit entry; answers how many claimed leads went back to New Leads. */
export async function removeMemberAsPlatform(db: Db, actor: PlatformActor, dealershipId: string, userId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const dealership = await dealershipInService(tx, dealershipId, { lock: true });
    const email = await emailOf(tx, userId);
    const returned = await removeMember(tx, platformViewer(actor, dealershipId), userId);
    await recordAudit(tx, actor, {
      action: "member_removed",
      dealershipId,
      subjectId: userId,
      summary: `Removed ${email} from ${dealership.name}${returned ? `; ${returned} claimed lead${returned === 1 ? "" : "s"} returned` : ""}`,
    });
    return returned;
  });
}

/** Invites someone (the team's command: its mail and event), with the audit entry. */
export async function inviteAsPlatform(db: Db, actor: PlatformActor, dealershipId: string, input: InvitationInput, setup: InvitationMailSetup): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const dealership = await dealershipInService(tx, dealershipId, { lock: true });
    const invite = await inviteMember(tx, platformViewer(actor, dealershipId), input, setup);
    await recordAudit(tx, actor, {
      action: "invitation_sent",
      dealershipId,
      subjectId: invite.id,
      summary: `Invited ${invite.email} to ${dealership.name} as ${ROLE_LABELS[invite.role]}`,
    });
    return invitationView(invite);
  });
}

/** Resends an invitation (the team's command: its mail and event), with the audit entry. */
export async function resendAsPlatform(db: Db, actor: PlatformActor, inviteId: string, setup: InvitationMailSetup): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const { dealership } = await invitationInService(tx, inviteId);
    const invite = await resendInvitation(tx, platformViewer(actor, dealership.id), inviteId, setup);
    await recordAudit(tx, actor, {
      action: "invitation_resent",
      dealershipId: dealership.id,
      subjectId: inviteId,
      summary: `Resent the invitation of ${invite.email} to ${dealership.name}`,
    });
    return invitationView(invite);
  });
}

/** Withdraws an invitation (the team's command and its event), with the audit entry. */
export async function deleteInvitationAsPlatform(db: Db, actor: PlatformActor, inviteId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { dealership, email } = await invitationInService(tx, inviteId);
    await deleteInvitation(tx, platformViewer(actor, dealership.id), inviteId);
    await recordAudit(tx, actor, {
      action: "invitation_deleted",
      dealershipId: dealership.id,
      subjectId: inviteId,
      summary: `Deleted the invitation of ${email} to ${dealership.name}`,
    });
  });
}

/** PATCH /api/platform/users/{id}: name, e-mail and phone; the e-mail stays unique (409). */
export async function updatePlatformUser(db: Db, actor: PlatformActor, id: string, input: UpdateInput): Promise<PlatformUser> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone })
        .from(users)
        .where(eq(users.id, id))
        .for("update");
      if (!before) throw notFound("User not found");
      const [taken] = await tx.select({ id: users.id }).from(users).where(and(eq(users.email, input.email), ne(users.id, id))).limit(1);
      if (taken) throw conflict(EMAIL_TAKEN);
      // An address the admin typed is not proven: the account proves it from its profile (decision 169).
      await tx
        .update(users)
        .set({ ...input, ...(input.email !== before.email ? { emailVerifiedAt: null } : {}) })
        .where(eq(users.id, id));
      const changes = changedFields(before, input);
      await recordAudit(tx, actor, {
        action: "user_updated",
        subjectId: id,
        summary: `Updated user ${input.email}${Object.keys(changes).length ? ` (${Object.keys(changes).join(", ")})` : ""}`,
        details: changes,
      });
      return platformUser(tx, id);
    });
  } catch (error) {
    // Two edits giving two accounts the same e-mail at once: the unique index decides.
    if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
    throw error;
  }
}

/**
 * DELETE /api/platform/users/{id} (decision 092): the account and everything that is only theirs (memberships,
 * sessions, admin grant, subscriptions, calendar links) go; their claimed leads return to New Leads in each dealership.
 * Refused for oneself, and for the only manager of a dealership in service (it would be left without one).
 */
export async function deletePlatformUser(db: Db, actor: PlatformActor, id: string): Promise<UserDeleted> {
  if (id === actor.id) throw conflict(CANNOT_DELETE_SELF);
  return db.transaction(async (tx) => {
    // Queued with grants and revocations: two admins deleting each other at once cannot leave none.
    await lockPlatformAdmins(tx, actor.id);
    // Their dealerships, locked against a role change or removal there (FOR UPDATE), so "the only manager" holds until
    // commit. Before the user's row, as a member's write holds the dealership's row and then the user's (decision 176);
    // NO KEY UPDATE, not UPDATE, so the KEY SHARE every foreign key to the dealership takes (the bell's rows) does not
    // queue behind it while holding the user's row.
    const memberships = await tx
      .select({ dealershipId: dealerships.id, name: dealerships.name, role: dealershipUsers.role })
      .from(dealershipUsers)
      .innerJoin(dealerships, eq(dealerships.id, dealershipUsers.dealershipId))
      .where(and(eq(dealershipUsers.userId, id), eq(dealershipUsers.active, true), eq(dealerships.active, true)))
      .orderBy(dealerships.id)
      .for("no key update", { of: dealerships });
    const [user] = await tx
      .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.id, id))
      .for("update");
    if (!user) throw notFound("User not found");
    const managed = memberships.filter((m) => m.role === "management").map((m) => m.dealershipId);
    if (managed.length) {
      const others = await tx
        .select({ dealershipId: dealershipUsers.dealershipId })
        .from(dealershipUsers)
        .where(
          and(
            inArray(dealershipUsers.dealershipId, managed),
            eq(dealershipUsers.role, "management"),
            eq(dealershipUsers.active, true),
            ne(dealershipUsers.userId, id),
          ),
        );
      const alone = memberships.filter((m) => managed.includes(m.dealershipId) && !others.some((o) => o.dealershipId === m.dealershipId));
      if (alone.length) {
        throw conflict(
          `${fullName(user) || user.email} is the only ${ROLE_LABELS.management} member of ${alone.map((m) => m.name).join(", ")}. ` +
            "Make another member Management first, or delete the dealership.",
        );
      }
    }

    const returned = await tx
      .update(leads)
      .set({ status: "new", claimedBy: null, claimedAt: null })
      .where(eq(leads.claimedBy, id))
      .returning({ dealershipId: leads.dealershipId });
    await tx.delete(users).where(eq(users.id, id));

    const snapshot = { id, name: fullName(user) || user.email, email: user.email };
    for (const m of memberships) {
      const returnedLeads = returned.filter((r) => r.dealershipId === m.dealershipId).length;
      await publish(tx, { type: "team.member_removed", dealershipId: m.dealershipId, actorId: actor.id, payload: { member: snapshot, returnedLeads } });
    }
    await recordAudit(tx, actor, {
      action: "user_deleted",
      subjectId: id,
      summary: `Deleted user ${user.email}${returned.length ? `; ${returned.length} claimed lead${returned.length === 1 ? "" : "s"} returned` : ""}`,
    });
    return { message: "User deleted", returnedLeads: returned.length };
  });
}

/** POST /api/platform/admins/grant: answers the user's id; 404 without an account, 409 when already an admin. */
export async function grantPlatformAdmin(db: Db, actor: PlatformActor, email: string): Promise<string> {
  return db.transaction(async (tx) => {
    const admins = await lockPlatformAdmins(tx, actor.id);
    const [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, email)).limit(1);
    if (!user) throw notFound("No user with this email was found. They need an account before they can be made an admin.");
    if (admins.includes(user.id)) throw conflict("This user is already a platform admin");
    await tx
      .insert(platformAdmins)
      .values({ userId: user.id, grantedBy: actor.id })
      .onConflictDoUpdate({ target: platformAdmins.userId, set: { active: true, grantedBy: actor.id, grantedAt: sql`now()` } });
    await recordAudit(tx, actor, { action: "admin_granted", subjectId: user.id, summary: `Granted platform admin to ${user.email}` });
    return user.id;
  });
}

/**
 * DELETE /api/platform/admins/{userId}: nobody revokes themselves, and the last admin stays (part 2 §5). The row is
 * kept inactive (who granted it stays on record); their access ends on their next request, which reads it.
 */
export async function revokePlatformAdmin(db: Db, actor: PlatformActor, userId: string): Promise<void> {
  if (userId === actor.id) throw conflict(CANNOT_DELETE_SELF);
  await db.transaction(async (tx) => {
    const admins = await lockPlatformAdmins(tx, actor.id);
    if (!admins.includes(userId)) throw notFound("That user is not a platform admin");
    if (admins.length <= 1) throw conflict(LAST_PLATFORM_ADMIN);
    await tx.update(platformAdmins).set({ active: false }).where(eq(platformAdmins.userId, userId));
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
    await recordAudit(tx, actor, { action: "admin_revoked", subjectId: userId, summary: `Revoked platform admin from ${user?.email ?? userId}` });
  });
}
