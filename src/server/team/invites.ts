import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import { INVITE_VALID_DAYS, type Invitation, type InviteInput } from "../../shared/schemas/team";
import type { Db, Tx } from "../db/client";
import { dealershipInvites, dealershipUsers, dealerships } from "../db/schema/dealerships";
import { users } from "../db/schema/users";
import { addMember } from "../dealerships/queries";
import { conflict, notFound } from "../http/errors";

// Invitations (part 1 §1, §4; part 2 §2 Users, §4, §5). An invitation is pending until it is accepted or its
// expiry passes (decision 030); "expired" is derived from expiresAt, so nothing has to sweep the table.

type Executor = Db | Tx;
export type InviteRow = typeof dealershipInvites.$inferSelect;
/** The admin panel's invite (names required) or the platform's (names optional, part 2 §5). */
export type InvitationInput = Pick<InviteInput, "email" | "role"> & { firstName?: string | null; lastName?: string | null };

export function inviteExpiry(from = new Date()): Date {
  return new Date(from.getTime() + INVITE_VALID_DAYS * 86_400_000);
}

/** Pending and not yet past its expiry. */
const isLive = () => and(eq(dealershipInvites.status, "pending"), gt(dealershipInvites.expiresAt, sql`now()`));

export function effectiveStatus(row: InviteRow, now = Date.now()): Invitation["status"] {
  if (row.status === "pending" && row.expiresAt.getTime() <= now) return "expired";
  return row.status;
}

export function invitationView(row: InviteRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.role,
    createdAt: row.invitedAt.toISOString(),
    invitedAt: row.invitedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    status: effectiveStatus(row),
  };
}

/** The dealership's invitations that are not accepted yet (pending or expired), newest first. */
export async function openInvitations(db: Db, dealershipId: string): Promise<Invitation[]> {
  const rows = await db
    .select()
    .from(dealershipInvites)
    .where(and(eq(dealershipInvites.dealershipId, dealershipId), inArray(dealershipInvites.status, ["pending", "expired"])))
    .orderBy(desc(dealershipInvites.invitedAt), desc(dealershipInvites.id));
  return rows.map(invitationView);
}

export async function inviteInDealership(db: Executor, dealershipId: string, inviteId: string): Promise<InviteRow> {
  const [row] = await db
    .select()
    .from(dealershipInvites)
    .where(and(eq(dealershipInvites.id, inviteId), eq(dealershipInvites.dealershipId, dealershipId)))
    .limit(1);
  if (!row) throw notFound("Invitation not found");
  return row;
}

/**
 * Writes a pending invitation. Refused when the person is already an active member, or already has a live invitation
 * to this dealership (Resend renews that one instead). One invitation per e-mail and dealership at a time: the caller
 * holds the dealership exclusively (team/commands.ts), so concurrent invitations of one dealership are decided one
 * after another.
 */
export async function insertInvitation(tx: Tx, dealershipId: string, input: InvitationInput, invitedBy: string): Promise<InviteRow> {
  const [member] = await tx
    .select({ userId: dealershipUsers.userId })
    .from(dealershipUsers)
    .innerJoin(users, eq(users.id, dealershipUsers.userId))
    .where(and(eq(dealershipUsers.dealershipId, dealershipId), eq(users.email, input.email), eq(dealershipUsers.active, true)))
    .limit(1);
  if (member) throw conflict("This person is already a member of this dealership");
  const [live] = await tx
    .select({ id: dealershipInvites.id })
    .from(dealershipInvites)
    .where(and(eq(dealershipInvites.dealershipId, dealershipId), eq(dealershipInvites.email, input.email), isLive()))
    .limit(1);
  if (live) throw conflict("An invitation is already pending for this email. Use Resend to send it again.");
  // An expired invitation for the same e-mail is superseded by the new one.
  await tx
    .delete(dealershipInvites)
    .where(
      and(
        eq(dealershipInvites.dealershipId, dealershipId),
        eq(dealershipInvites.email, input.email),
        inArray(dealershipInvites.status, ["pending", "expired"]),
      ),
    );
  const [row] = await tx
    .insert(dealershipInvites)
    .values({ ...input, dealershipId, invitedBy, expiresAt: inviteExpiry() })
    .returning();
  if (!row) throw new Error("invite insert returned nothing");
  return row;
}

/** Renews a pending or expired invitation: a fresh validity period from now (decision 030). */
export async function renewInvitation(tx: Tx, dealershipId: string, inviteId: string): Promise<InviteRow> {
  const now = new Date();
  const [row] = await tx
    .update(dealershipInvites)
    .set({ status: "pending", invitedAt: now, expiresAt: inviteExpiry(now) })
    .where(
      and(
        eq(dealershipInvites.id, inviteId),
        eq(dealershipInvites.dealershipId, dealershipId),
        inArray(dealershipInvites.status, ["pending", "expired"]),
      ),
    )
    .returning();
  if (row) return row;
  const existing = await inviteInDealership(tx, dealershipId, inviteId);
  throw conflict(existing.status === "accepted" ? "This invitation has already been accepted" : "This invitation cannot be resent");
}

/** Deletes one of the dealership's invitations, whatever its status; answers the row it was, 404 when none. */
export async function removeInvitation(tx: Tx, dealershipId: string, inviteId: string): Promise<InviteRow> {
  const [deleted] = await tx
    .delete(dealershipInvites)
    .where(and(eq(dealershipInvites.id, inviteId), eq(dealershipInvites.dealershipId, dealershipId)))
    .returning();
  if (!deleted) throw notFound("Invitation not found");
  return deleted;
}

export interface LiveInvitation {
  invite: InviteRow;
  dealershipName: string;
}

/** The newest live invitation for an e-mail, in an active dealership. */
export async function liveInvitationFor(db: Executor, email: string): Promise<LiveInvitation | undefined> {
  const [row] = await db
    .select({ invite: dealershipInvites, dealershipName: dealerships.name })
    .from(dealershipInvites)
    .innerJoin(dealerships, eq(dealerships.id, dealershipInvites.dealershipId))
    .where(and(eq(dealershipInvites.email, email.trim().toLowerCase()), isLive(), eq(dealerships.active, true)))
    .orderBy(desc(dealershipInvites.invitedAt), desc(dealershipInvites.id))
    .limit(1);
  return row;
}

/**
 * Accepts every live invitation addressed to this user's e-mail: a membership with the invited role in each
 * dealership, and the invitations marked accepted. Conditional update first, so two concurrent acceptances
 * cannot both add a membership from the same invitation. Answers the dealerships joined.
 */
export async function acceptInvitationsFor(
  tx: Executor,
  user: { id: string; email: string },
): Promise<Array<{ dealershipId: string; role: DealershipRole }>> {
  const accepted = await tx
    .update(dealershipInvites)
    .set({ status: "accepted" })
    .where(and(eq(dealershipInvites.email, user.email.toLowerCase()), isLive()))
    .returning();
  // Newest invitation wins when one dealership invited the same person twice.
  accepted.sort((a, b) => a.invitedAt.getTime() - b.invitedAt.getTime());
  const joined = new Map<string, DealershipRole>();
  for (const invite of accepted) joined.set(invite.dealershipId, invite.role);
  for (const [dealershipId, role] of joined) {
    const invitedBy = accepted.find((i) => i.dealershipId === dealershipId)?.invitedBy ?? null;
    await addMember(tx, { userId: user.id, dealershipId, role, addedBy: invitedBy });
  }
  return [...joined].map(([dealershipId, role]) => ({ dealershipId, role }));
}
