import { eq } from "drizzle-orm";
import type { InvitationSnapshot } from "../../shared/events";
import { fullName } from "../../shared/format";
import type { Config } from "../config";
import type { Tx } from "../db/client";
import { users } from "../db/schema/users";
import { dealershipById } from "../dealerships/queries";
import type { Mailer } from "../mail/mailer";
import type { InviteRow } from "./invites";
import { invitationMail } from "./mails";

// An invitation's e-mail, queued by the command that sends or resends it (team/commands.ts), from the admin panel or
// the platform screens: one implementation of both.

/** What queuing the mail needs of the app (a FastifyInstance has both). */
export interface InvitationMailSetup {
  mailer: Pick<Mailer, "queue">;
  config: Pick<Config, "appUrl">;
}

/** Who invites, as the mail and the event name them. */
export interface Inviter {
  id: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
}

export const inviterName = (inviter: Inviter): string => fullName(inviter) || inviter.email;

/**
 * Queues the invitation's e-mail in the caller's transaction, so the invitation and its mail commit together; the
 * mail worker delivers it (and retries while SMTP fails): a slow SMTP server never holds up the caller.
 */
export async function queueInvitationMail(setup: InvitationMailSetup, tx: Tx, invite: InviteRow, inviter: Inviter): Promise<void> {
  const dealership = await dealershipById(tx, invite.dealershipId);
  const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, invite.email)).limit(1);
  await setup.mailer.queue(
    invitationMail({
      appUrl: setup.config.appUrl,
      to: invite.email,
      firstName: invite.firstName,
      dealershipName: dealership?.name ?? "your dealership",
      dealershipId: invite.dealershipId,
      role: invite.role,
      inviterName: inviterName(inviter),
      expiresAt: invite.expiresAt,
      hasAccount: Boolean(existing),
    }),
    tx,
  );
}

/** The invitation as its events carry it. */
export function invitationSnapshot(invite: InviteRow): InvitationSnapshot {
  return {
    id: invite.id,
    email: invite.email,
    firstName: invite.firstName,
    lastName: invite.lastName,
    role: invite.role,
    expiresAt: invite.expiresAt.toISOString(),
  };
}
