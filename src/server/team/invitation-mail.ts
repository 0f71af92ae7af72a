import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { fullName } from "../../shared/format";
import type { Db, Tx } from "../db/client";
import { users } from "../db/schema/users";
import { dealershipById } from "../dealerships/queries";
import { publish } from "../events/outbox";
import { createInvitation, renewInvitation, type InvitationInput, type InviteRow } from "./invites";
import { invitationMail } from "./mails";

// Inviting someone = the invitation row + its e-mail. The admin panel uses these, and so can the platform screens
// (POST /api/platform/dealerships/{id}/invite, .../invites/{id}/resend) — one implementation of both.

type Inviter = { id: string; email: string; firstName?: string | null; lastName?: string | null };

/**
 * Queues the invitation's e-mail in the caller's transaction, so the invitation and its mail commit together; the
 * mail worker delivers it (and retries while SMTP fails): a slow SMTP server never holds up the caller.
 */
export async function mailInvitation(app: FastifyInstance, tx: Tx, invite: InviteRow, inviter: Inviter): Promise<void> {
  const dealership = await dealershipById(tx, invite.dealershipId);
  const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, invite.email)).limit(1);
  await app.mailer.queue(
    invitationMail({
      appUrl: app.config.appUrl,
      to: invite.email,
      firstName: invite.firstName,
      dealershipName: dealership?.name ?? "your dealership",
      dealershipId: invite.dealershipId,
      role: invite.role,
      inviterName: fullName(inviter) || inviter.email,
      expiresAt: invite.expiresAt,
      hasAccount: Boolean(existing),
    }),
    tx,
  );
  await publish(tx, {
    type: "team.invitation_sent",
    dealershipId: invite.dealershipId,
    actorId: inviter.id,
    payload: {
      invitation: {
        id: invite.id,
        email: invite.email,
        firstName: invite.firstName,
        lastName: invite.lastName,
        role: invite.role,
        expiresAt: invite.expiresAt.toISOString(),
      },
      invitedBy: { id: inviter.id, name: fullName(inviter) || inviter.email },
    },
  });
}

/**
 * Creates a pending invitation (409 when already a member or already invited) and e-mails it. `executor` lets a caller
 * make it part of its own transaction (the platform's audit entry commits with it).
 */
export async function inviteToDealership(
  app: FastifyInstance,
  dealershipId: string,
  input: InvitationInput,
  inviter: Inviter,
  executor: Db = app.db,
): Promise<InviteRow> {
  return executor.transaction(async (tx) => {
    const invite = await createInvitation(tx, dealershipId, input, inviter.id);
    await mailInvitation(app, tx, invite, inviter);
    return invite;
  });
}

/** Renews a pending or expired invitation for another validity period and e-mails it again. */
export async function resendInvitation(
  app: FastifyInstance,
  dealershipId: string,
  inviteId: string,
  inviter: Inviter,
  executor: Db = app.db,
): Promise<InviteRow> {
  return executor.transaction(async (tx) => {
    const invite = await renewInvitation(tx, dealershipId, inviteId);
    await mailInvitation(app, tx, invite, inviter);
    return invite;
  });
}
