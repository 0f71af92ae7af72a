import { eq } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import { writeInDealership, type Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { users } from "../db/schema/users";
import { publish } from "../events/outbox";
import { conflict } from "../http/errors";
import { invitationSnapshot, inviterName, queueInvitationMail, type InvitationMailSetup, type Inviter } from "./invitation-mail";
import { insertInvitation, removeInvitation, renewInvitation, type InvitationInput, type InviteRow } from "./invites";
import { activeMember, CANNOT_REMOVE_SELF, endMembership, LAST_MANAGER, otherManagers, setMemberRole } from "./members";

// The team's changes (issue 25; decision 035): each is the scoped write and its one domain event in one transaction
// that holds the dealership (decision 176). Role changes, removals and new invitations hold it exclusively from the
// start (decision 242): each decides over several rows of the dealership at once (the last manager, one live
// invitation per e-mail), and a removal waits for the member's writes in flight. A change that changes nothing, or is
// refused, publishes nothing. The viewer is a manager of the dealership, or a platform admin acting as management
// there (platform/commands.ts, which adds its audit entry in the same transaction); who may call is the route's check.

const EXCLUSIVE = { exclusive: true } as const;
const by = (viewer: Viewer) => ({ dealershipId: viewer.dealershipId, actorId: viewer.userId });

/** Answers the role the member had (team.member_role_changed when it changes); 404 not a member, 409 the last manager. */
export function changeMemberRole(db: Db, viewer: Viewer, userId: string, role: DealershipRole): Promise<DealershipRole> {
  return writeInDealership(
    db,
    viewer,
    async (tx) => {
      const member = await activeMember(tx, viewer.dealershipId, userId);
      const current = member.role;
      if (current === role) return current;
      if (current === "management" && (await otherManagers(tx, viewer.dealershipId, userId)) === 0) throw conflict(LAST_MANAGER);
      if (!(await setMemberRole(tx, viewer.dealershipId, userId, current, role))) throw new Error("a membership read under the dealership's lock was not updated");
      await publish(tx, { type: "team.member_role_changed", ...by(viewer), payload: { member: member.snapshot, previousRole: current, role } });
      return current;
    },
    EXCLUSIVE,
  );
}

/**
 * Removes a member (part 2 §4; team.member_removed): the membership becomes inactive, their claimed leads here go
 * back to New Leads, their e-mail subscriptions here and their sessions end. Answers how many leads returned; 409 for
 * oneself or the last manager, 404 not a member.
 */
export function removeMember(db: Db, viewer: Viewer, userId: string): Promise<number> {
  if (userId === viewer.userId) return Promise.reject(conflict(CANNOT_REMOVE_SELF));
  return writeInDealership(
    db,
    viewer,
    async (tx) => {
      const member = await activeMember(tx, viewer.dealershipId, userId);
      if (member.role === "management" && (await otherManagers(tx, viewer.dealershipId, userId)) === 0) throw conflict(LAST_MANAGER);
      const returnedLeads = await endMembership(tx, viewer.dealershipId, userId);
      if (returnedLeads === null) throw new Error("a membership read under the dealership's lock was not ended");
      await publish(tx, { type: "team.member_removed", ...by(viewer), payload: { member: member.snapshot, returnedLeads } });
      return returnedLeads;
    },
    EXCLUSIVE,
  );
}

/**
 * Invites someone (team.invitation_sent): the pending invitation and its queued e-mail; 409 when already a member or
 * already invited.
 */
export function inviteMember(db: Db, viewer: Viewer, input: InvitationInput, setup: InvitationMailSetup): Promise<InviteRow> {
  return writeInDealership(
    db,
    viewer,
    async (tx) => {
      const invite = await insertInvitation(tx, viewer.dealershipId, input, viewer.userId);
      await mailAndPublish(setup, tx, viewer, invite);
      return invite;
    },
    EXCLUSIVE,
  );
}

/** Renews a pending or expired invitation for another validity period and e-mails it again (team.invitation_sent). */
export function resendInvitation(db: Db, viewer: Viewer, inviteId: string, setup: InvitationMailSetup): Promise<InviteRow> {
  return writeInDealership(db, viewer, async (tx) => {
    const invite = await renewInvitation(tx, viewer.dealershipId, inviteId);
    await mailAndPublish(setup, tx, viewer, invite);
    return invite;
  });
}

/** Withdraws an invitation (team.invitation_deleted): its link and codes stop working; 404 when not the dealership's. */
export function deleteInvitation(db: Db, viewer: Viewer, inviteId: string): Promise<InviteRow> {
  return writeInDealership(db, viewer, async (tx) => {
    const invite = await removeInvitation(tx, viewer.dealershipId, inviteId);
    await publish(tx, { type: "team.invitation_deleted", ...by(viewer), payload: { invitation: invitationSnapshot(invite) } });
    return invite;
  });
}

async function mailAndPublish(setup: InvitationMailSetup, tx: Tx, viewer: Viewer, invite: InviteRow): Promise<void> {
  const inviter = await inviterOf(tx, viewer.userId);
  await queueInvitationMail(setup, tx, invite, inviter);
  await publish(tx, {
    type: "team.invitation_sent",
    ...by(viewer),
    payload: { invitation: invitationSnapshot(invite), invitedBy: { id: inviter.id, name: inviterName(inviter) } },
  });
}

/** The viewer's name and e-mail, as the invitation names them (their row is held FOR KEY SHARE by the hold). */
async function inviterOf(tx: Tx, userId: string): Promise<Inviter> {
  const [row] = await tx.select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw new Error("the inviter's row, held by this transaction, is gone");
  return row;
}
