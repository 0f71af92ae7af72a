import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { ROLE_LABELS, type DealershipRole } from "../../shared/constants";
import type { Invitation } from "../../shared/schemas/responses/team";
import type { Db } from "../db/client";
import { dealershipInvites } from "../db/schema/dealerships";
import { users } from "../db/schema/users";
import { notFound } from "../http/errors";
import { deleteInvitation, invitationView, type InvitationInput } from "../team/invites";
import { inviteToDealership, resendInvitation } from "../team/invitation-mail";
import { changeMemberRole, removeMember } from "../team/members";
import { recordAudit, type PlatformActor } from "./audit";
import { dealershipInService } from "./dealerships";

// A dealership's members and invitations from the platform screens (part 2 §2 Manage dialog, §7). The team area's
// own functions do the work, with the admin panel's rules (the last manager stays, one live invitation per e-mail,
// removal returns claimed leads and ends sessions) and its events; the platform adds its audit entry in the same
// transaction and acts only on dealerships in service.

async function emailOf(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.email ?? userId;
}

export async function changeRoleAsPlatform(db: Db, dealershipId: string, userId: string, role: DealershipRole, actor: PlatformActor): Promise<void> {
  await db.transaction(async (tx) => {
    const dealership = await dealershipInService(tx, dealershipId, { lock: true });
    const previous = await changeMemberRole(tx, dealershipId, userId, role, actor.id);
    await recordAudit(tx, actor, {
      action: "member_role_changed",
      dealershipId,
      subjectId: userId,
      summary: `Changed ${await emailOf(tx, userId)}'s role at ${dealership.name} from ${ROLE_LABELS[previous]} to ${ROLE_LABELS[role]}`,
    });
  });
}

/** Answers how many claimed leads went back to New Leads. */
export async function removeMemberAsPlatform(db: Db, dealershipId: string, userId: string, actor: PlatformActor): Promise<number> {
  return db.transaction(async (tx) => {
    const dealership = await dealershipInService(tx, dealershipId, { lock: true });
    const email = await emailOf(tx, userId);
    const returned = await removeMember(tx, dealershipId, userId, actor.id);
    await recordAudit(tx, actor, {
      action: "member_removed",
      dealershipId,
      subjectId: userId,
      summary: `Removed ${email} from ${dealership.name}${returned ? `; ${returned} claimed lead${returned === 1 ? "" : "s"} returned` : ""}`,
    });
    return returned;
  });
}

export async function inviteAsPlatform(app: FastifyInstance, dealershipId: string, input: InvitationInput, actor: PlatformActor): Promise<Invitation> {
  return app.db.transaction(async (tx) => {
    const dealership = await dealershipInService(tx, dealershipId, { lock: true });
    const invite = await inviteToDealership(app, dealershipId, input, actor, tx);
    await recordAudit(tx, actor, {
      action: "invitation_sent",
      dealershipId,
      subjectId: invite.id,
      summary: `Invited ${invite.email} to ${dealership.name} as ${ROLE_LABELS[invite.role]}`,
    });
    return invitationView(invite);
  });
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

export async function resendAsPlatform(app: FastifyInstance, inviteId: string, actor: PlatformActor): Promise<Invitation> {
  return app.db.transaction(async (tx) => {
    const { dealership } = await invitationInService(tx, inviteId);
    const invite = await resendInvitation(app, dealership.id, inviteId, actor, tx);
    await recordAudit(tx, actor, {
      action: "invitation_resent",
      dealershipId: dealership.id,
      subjectId: inviteId,
      summary: `Resent the invitation of ${invite.email} to ${dealership.name}`,
    });
    return invitationView(invite);
  });
}

export async function deleteInvitationAsPlatform(db: Db, inviteId: string, actor: PlatformActor): Promise<void> {
  await db.transaction(async (tx) => {
    const { dealership, email } = await invitationInService(tx, inviteId);
    await deleteInvitation(tx, dealership.id, inviteId);
    await recordAudit(tx, actor, {
      action: "invitation_deleted",
      dealershipId: dealership.id,
      subjectId: inviteId,
      summary: `Deleted the invitation of ${email} to ${dealership.name}`,
    });
  });
}
