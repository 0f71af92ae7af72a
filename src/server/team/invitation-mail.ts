import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { fullName } from "../../shared/format";
import type { InviteInput } from "../../shared/schemas/team";
import { users } from "../db/schema/users";
import { dealershipById } from "../dealerships/queries";
import { createInvitation, renewInvitation, type InviteRow } from "./invites";
import { invitationMail } from "./mails";

// Inviting someone = the invitation row + its e-mail. The admin panel uses these, and so can the platform screens
// (POST /api/platform/dealerships/{id}/invite, .../invites/{id}/resend) — one implementation of both.

type Inviter = { id: string; email: string; firstName?: string | null; lastName?: string | null };

/** E-mails an invitation in the background: a slow or failing SMTP server never holds up the caller. */
export async function mailInvitation(app: FastifyInstance, invite: InviteRow, inviter: Inviter): Promise<void> {
  const dealership = await dealershipById(app.db, invite.dealershipId);
  const [existing] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, invite.email)).limit(1);
  app.mailer.sendInBackground(
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
  );
}

/** Creates a pending invitation (409 when already a member or already invited) and e-mails it. */
export async function inviteToDealership(app: FastifyInstance, dealershipId: string, input: InviteInput, inviter: Inviter): Promise<InviteRow> {
  const invite = await createInvitation(app.db, dealershipId, input, inviter.id);
  await mailInvitation(app, invite, inviter);
  return invite;
}

/** Renews a pending or expired invitation for another validity period and e-mails it again. */
export async function resendInvitation(app: FastifyInstance, dealershipId: string, inviteId: string, inviter: Inviter): Promise<InviteRow> {
  const invite = await renewInvitation(app.db, dealershipId, inviteId);
  await mailInvitation(app, invite, inviter);
  return invite;
}
