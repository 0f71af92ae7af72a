import { createHash, randomInt } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import {
  VERIFICATION_CODE_MAX_ATTEMPTS,
  VERIFICATION_CODE_RESEND_SECONDS,
  VERIFICATION_CODE_VALID_MINUTES,
} from "../../shared/schemas/team";
import type { Db, Tx } from "../db/client";
import { emailVerificationCodes } from "../db/schema/notifications";
import { HttpError, badRequest, conflict } from "../http/errors";
import type { Mailer } from "../mail/mailer";
import { createUser, isUniqueViolation, userByEmail } from "../users/queries";
import { users } from "../db/schema/users";
import { assertNotThrottled, recordFailedLogin } from "../auth/login-throttle";
import { verifyPassword } from "../auth/passwords";
import { acceptInvitationsFor, liveInvitationFor } from "./invites";
import { verificationCodeMail } from "./mails";

// Sign-up by e-mail code (part 1 §2.2 e-mail verification mode, §4 registration by invitation; decision 031).
// The code is 6 digits from crypto.randomInt, stored only as a hash, accepted once, for a few minutes, and
// burned after a few wrong tries. Consuming it is one conditional UPDATE, so two concurrent tries cannot both win.

export const INVALID_CODE = "Invalid or expired verification code.";
export const CODE_BURNED = "Too many incorrect codes. Please request a new verification code.";

function hashCode(code: string): string {
  return createHash("sha256").update(`showroom-email-code:${code}`).digest("hex");
}

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/**
 * Sends a fresh code to an e-mail with a live invitation. An e-mail without one gets the same answer and no
 * mail (decision 031). A new code replaces the previous one for that invitation.
 */
export async function requestVerificationCode(db: Db, mailer: Mailer, email: string): Promise<void> {
  const live = await liveInvitationFor(db, email);
  if (!live) return;
  const code = newCode();
  const expiresAt = new Date(Date.now() + VERIFICATION_CODE_VALID_MINUTES * 60_000);
  const [row] = await db
    .insert(emailVerificationCodes)
    .values({ email, code: hashCode(code), inviteId: live.invite.id, expiresAt })
    .onConflictDoUpdate({
      target: [emailVerificationCodes.email, emailVerificationCodes.inviteId],
      set: { code: hashCode(code), isUsed: false, failedAttempts: 0, createdAt: sql`now()`, expiresAt },
      // Refuse a new code while the last one is only seconds old: resending floods the inbox and would reset
      // the wrong-try counter at will.
      setWhere: sql`${emailVerificationCodes.createdAt} < now() - make_interval(secs => ${VERIFICATION_CODE_RESEND_SECONDS})`,
    })
    .returning({ id: emailVerificationCodes.id });
  if (!row) {
    throw new HttpError(429, `A code was just sent. Please wait ${VERIFICATION_CODE_RESEND_SECONDS} seconds before requesting another.`);
  }
  // The code is awaited rather than sent in the background: the screen says "sent" only when it was.
  const result = await mailer.send(
    verificationCodeMail({ to: email, code, dealershipName: live.dealershipName, dealershipId: live.invite.dealershipId }),
  );
  if (result.status === "failed") {
    // Let the person ask again at once instead of waiting out the resend interval.
    await db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.id, row.id));
    throw new HttpError(503, "Unable to send verification code. Please try again in a moment.");
  }
}

/**
 * Checks a code without using it up. One UPDATE both tests the code and counts a wrong try, under the row's
 * lock, so a burst of concurrent guesses gets no more than the allowed number of tries. Throws 400 when wrong.
 */
export async function checkVerificationCode(db: Db, email: string, code: string): Promise<string> {
  const [latest] = await db
    .select({ id: emailVerificationCodes.id })
    .from(emailVerificationCodes)
    .where(eq(emailVerificationCodes.email, email))
    .orderBy(desc(emailVerificationCodes.createdAt))
    .limit(1);
  if (!latest) throw badRequest(INVALID_CODE, { code: INVALID_CODE });
  const hash = hashCode(code);
  const [tried] = await db
    .update(emailVerificationCodes)
    .set({
      failedAttempts: sql`${emailVerificationCodes.failedAttempts} + case when ${emailVerificationCodes.code} = ${hash} then 0 else 1 end`,
    })
    .where(
      and(
        eq(emailVerificationCodes.id, latest.id),
        eq(emailVerificationCodes.isUsed, false),
        sql`${emailVerificationCodes.expiresAt} > now()`,
        sql`${emailVerificationCodes.failedAttempts} < ${VERIFICATION_CODE_MAX_ATTEMPTS}`,
      ),
    )
    .returning({ matched: sql<boolean>`${emailVerificationCodes.code} = ${hash}`, failedAttempts: emailVerificationCodes.failedAttempts });
  if (!tried) {
    const [row] = await db.select().from(emailVerificationCodes).where(eq(emailVerificationCodes.id, latest.id));
    const burned = row && !row.isUsed && row.failedAttempts >= VERIFICATION_CODE_MAX_ATTEMPTS;
    throw badRequest(burned ? CODE_BURNED : INVALID_CODE, { code: burned ? CODE_BURNED : INVALID_CODE });
  }
  if (!tried.matched) {
    const burned = tried.failedAttempts >= VERIFICATION_CODE_MAX_ATTEMPTS;
    throw badRequest(burned ? CODE_BURNED : INVALID_CODE, { code: burned ? CODE_BURNED : INVALID_CODE });
  }
  return latest.id;
}

/** Marks a checked code used, inside the transaction that creates the account: exactly one caller wins. */
async function useVerificationCode(tx: Tx, codeId: string): Promise<void> {
  const [used] = await tx
    .update(emailVerificationCodes)
    .set({ isUsed: true })
    .where(
      and(
        eq(emailVerificationCodes.id, codeId),
        eq(emailVerificationCodes.isUsed, false),
        sql`${emailVerificationCodes.expiresAt} > now()`,
        sql`${emailVerificationCodes.failedAttempts} < ${VERIFICATION_CODE_MAX_ATTEMPTS}`,
      ),
    )
    .returning({ id: emailVerificationCodes.id });
  if (!used) throw badRequest(INVALID_CODE, { code: INVALID_CODE });
}

export const WRONG_EXISTING_PASSWORD = "This email already has a Showroom account: enter its current password to join.";

/**
 * Completes joining by invitation (part 1 §4; decisions 031, 033). The e-mailed code proves the inbox is theirs.
 * - A new e-mail: creates the account with this profile.
 * - An e-mail that already has an account: the account's current password must be given too, so neither the
 *   inbox alone nor the account alone is enough; the profile fields are not changed.
 * Then, in one transaction: the code is used up, the user joins every dealership with a live invitation for the
 * e-mail with the invited role, those invitations are marked accepted, and the inviting dealership becomes current.
 */
export async function joinByInvitation(
  db: Db,
  input: { email: string; code: string; firstName: string; lastName: string; password: string; phone?: string | null },
  ip: string,
) {
  const codeId = await checkVerificationCode(db, input.email, input.code);
  const existing = await userByEmail(db, input.email);
  if (existing) {
    await assertNotThrottled(db, input.email, ip);
    if (!(await verifyPassword(existing.password, input.password))) {
      await recordFailedLogin(db, input.email, ip);
      throw badRequest(WRONG_EXISTING_PASSWORD, { password: WRONG_EXISTING_PASSWORD });
    }
  }
  try {
    return await db.transaction(async (tx) => {
      await useVerificationCode(tx, codeId);
      const live = await liveInvitationFor(tx, input.email);
      if (!live) throw badRequest("This invitation has expired or was withdrawn. Please ask for a new invitation.");
      const dealershipId = live.invite.dealershipId;
      const user = existing
        ? ((await tx.update(users).set({ currentDealershipId: dealershipId }).where(eq(users.id, existing.id)).returning())[0] ?? existing)
        : await createUser(tx, { ...input, currentDealershipId: dealershipId });
      await acceptInvitationsFor(tx, user);
      return user;
    });
  } catch (error) {
    // Someone created an account for this e-mail in the meantime: they can join with its password.
    if (isUniqueViolation(error)) throw conflict("An account with this email was just created. Please try again with its password.");
    throw error;
  }
}
