import { and, desc, eq, sql } from "drizzle-orm";
import {
  INVITE_VALID_DAYS,
  VERIFICATION_CODE_MAX_ATTEMPTS,
  VERIFICATION_CODE_RESEND_SECONDS,
  VERIFICATION_CODE_VALID_MINUTES,
} from "../../shared/schemas/team";
import type { Db, Tx } from "../db/client";
import { dealershipInvites } from "../db/schema/dealerships";
import { emailVerificationCodes } from "../db/schema/notifications";
import { HttpError, badRequest, conflict } from "../http/errors";
import type { Mailer } from "../mail/mailer";
import { createUser, isUniqueViolation, userByEmail } from "../users/queries";
import { users } from "../db/schema/users";
import { attemptsSoFar, countAttempt, giveBackAttempts, tooManyAttempts, type CounterRule } from "../auth/attempt-counter";
import { countSignInAttempt, signInSucceeded } from "../auth/login-throttle";
import { emailCodeDigest, newEmailCode, sameDigest } from "../auth/email-codes";
import { assertAcceptablePassword } from "../auth/password-policy";
import { verifyPassword } from "../auth/passwords";
import { acceptInvitationsFor, liveInvitationFor } from "./invites";
import { verificationCodeMail } from "./mails";

// Sign-up by e-mail code (part 1 §2.2 e-mail verification mode, §4 registration by invitation; decision 031).
// The code is 6 digits from crypto.randomInt, stored only as a hash, accepted once, for a few minutes, and
// burned after a few wrong tries. Consuming it is one conditional UPDATE, so two concurrent tries cannot both win.

export const INVALID_CODE = "Invalid or expired verification code.";
export const CODE_BURNED = "Too many incorrect codes. Please request a new verification code.";
export const INVITATION_LOCKED =
  "Too many incorrect codes were entered for this invitation. Ask the dealership's management to resend your invitation.";
export const TOO_MANY_CODE_REQUESTS = "Too many verification codes requested. Please try again later.";

// Caps across codes (decision 008), counted in login_attempts like sign-ins (decision 007): a new code every
// 30 seconds must not buy new guesses for ever, nor may anyone make the app mail codes without end.
export const CODE_CAPS = {
  /** Wrong tries per invitation, over all its codes; then its codes are refused until management resends it. */
  wrongTriesPerInvitation: 10,
  requestsPerEmail: 5,
  requestsPerAddress: 20,
  requestWindowMs: 60 * 60_000,
} as const;

const INVITATION_LIFE_MS = INVITE_VALID_DAYS * 86_400_000;

function requestRules(email: string, ip: string): CounterRule[] {
  const { requestWindowMs: windowMs } = CODE_CAPS;
  return [
    { key: `code-request-email:${email}`, limit: CODE_CAPS.requestsPerEmail, windowMs, blockMs: windowMs },
    { key: `code-request-address:${ip}`, limit: CODE_CAPS.requestsPerAddress, windowMs, blockMs: windowMs },
  ];
}

/**
 * The wrong-try counter of one sending of an invitation. Resend renews invitedAt, so it starts a fresh counter:
 * that is how "until management resends it" works without touching the invitation.
 */
function invitationTriesRule(invite: { id: string; invitedAt: Date }): CounterRule {
  return {
    key: `invitation-codes:${invite.id}:${invite.invitedAt.getTime()}`,
    limit: CODE_CAPS.wrongTriesPerInvitation,
    windowMs: INVITATION_LIFE_MS,
    blockMs: INVITATION_LIFE_MS,
  };
}

/**
 * Sends a fresh code to an e-mail with a live invitation. An e-mail without one gets the same answer and no
 * mail (decision 031). A new code replaces the previous one for that invitation. Requests are counted per e-mail
 * and per client address, invited or not, before anything else (decision 008).
 */
export async function requestVerificationCode(app: { db: Db; mailer: Pick<Mailer, "send"> }, email: string, ip: string): Promise<void> {
  const { db, mailer } = app;
  const rules = requestRules(email, ip);
  const counted = await countAttempt(db, rules);
  if (counted.blockedForSeconds !== null) throw tooManyAttempts(TOO_MANY_CODE_REQUESTS, counted.blockedForSeconds);
  const live = await liveInvitationFor(db, email);
  if (!live) return;
  const tries = await attemptsSoFar(db, invitationTriesRule(live.invite));
  if (tries.blocked || tries.count >= CODE_CAPS.wrongTriesPerInvitation) throw conflict(INVITATION_LOCKED);
  const code = newEmailCode();
  const expiresAt = new Date(Date.now() + VERIFICATION_CODE_VALID_MINUTES * 60_000);
  const [row] = await db
    .insert(emailVerificationCodes)
    .values({ email, code: emailCodeDigest(code), inviteId: live.invite.id, expiresAt })
    .onConflictDoUpdate({
      target: [emailVerificationCodes.email, emailVerificationCodes.inviteId],
      set: { code: emailCodeDigest(code), isUsed: false, failedAttempts: 0, createdAt: sql`now()`, expiresAt },
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
    // Let the person ask again at once instead of waiting out the resend interval; our failure costs them no request.
    await db.delete(emailVerificationCodes).where(eq(emailVerificationCodes.id, row.id));
    await giveBackAttempts(db, Object.fromEntries(rules.map((r) => [r.key, 1])));
    throw new HttpError(503, "Unable to send verification code. Please try again in a moment.");
  }
}

function refused(message: string): HttpError {
  return badRequest(message, { code: message });
}

/**
 * Checks a code without using it up (decision 008). The tries of one invitation are taken one at a time under
 * its code row's lock (one row per e-mail and invitation): each is counted against the invitation before the code
 * is compared, and given back when the code was right, so a burst of concurrent guesses gets no more tries than
 * the code and the invitation have left. Throws 400 when refused.
 */
export async function checkVerificationCode(db: Db, email: string, code: string): Promise<string> {
  const [latest] = await db
    .select({ id: emailVerificationCodes.id })
    .from(emailVerificationCodes)
    .where(eq(emailVerificationCodes.email, email))
    .orderBy(desc(emailVerificationCodes.createdAt))
    .limit(1);
  if (!latest) throw refused(INVALID_CODE);
  const hash = emailCodeDigest(code);
  // Answers instead of throwing inside: a throw would roll back the counted wrong try.
  const outcome = await db.transaction(async (tx): Promise<"right" | string> => {
    const [row] = await tx
      .select({
        code: emailVerificationCodes.code,
        failedAttempts: emailVerificationCodes.failedAttempts,
        usable: sql<boolean>`not ${emailVerificationCodes.isUsed} and ${emailVerificationCodes.expiresAt} > now()`,
        inviteId: dealershipInvites.id,
        invitedAt: dealershipInvites.invitedAt,
      })
      .from(emailVerificationCodes)
      .innerJoin(dealershipInvites, eq(dealershipInvites.id, emailVerificationCodes.inviteId))
      .where(eq(emailVerificationCodes.id, latest.id))
      .for("update", { of: emailVerificationCodes });
    if (!row || !row.usable) return INVALID_CODE;
    if (row.failedAttempts >= VERIFICATION_CODE_MAX_ATTEMPTS) return CODE_BURNED;
    const rule = invitationTriesRule({ id: row.inviteId, invitedAt: row.invitedAt });
    const counted = await countAttempt(tx, [rule]);
    if (counted.blockedForSeconds !== null) return INVITATION_LOCKED;
    if (sameDigest(row.code, hash)) {
      await giveBackAttempts(tx, { [rule.key]: 1 });
      return "right";
    }
    const failedAttempts = row.failedAttempts + 1;
    await tx.update(emailVerificationCodes).set({ failedAttempts }).where(eq(emailVerificationCodes.id, latest.id));
    if ((counted.counts[rule.key] ?? 0) >= CODE_CAPS.wrongTriesPerInvitation) return INVITATION_LOCKED;
    return failedAttempts >= VERIFICATION_CODE_MAX_ATTEMPTS ? CODE_BURNED : INVALID_CODE;
  });
  if (outcome !== "right") throw refused(outcome);
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
  if (!used) throw refused(INVALID_CODE);
}

export const WRONG_EXISTING_PASSWORD = "This email already has a Showroom account: enter its current password to join.";

/**
 * Completes joining by invitation (part 1 §4; decisions 031, 033). The e-mailed code proves the inbox is theirs.
 * - A new e-mail: creates the account with this profile.
 * - An e-mail that already has an account: the account's current password must be given too, so neither the
 *   inbox alone nor the account alone is enough; the profile fields are not changed.
 * Then, in one transaction: the code is used up, the user joins every dealership with a live invitation for the
 * e-mail with the invited role, those invitations are marked accepted, the inviting dealership becomes current, and
 * the account's e-mail counts as verified. Signing in is the caller's (decision 168).
 */
export async function joinByInvitation(
  db: Db,
  input: { email: string; code: string; firstName: string; lastName: string; password: string; phone?: string | null },
  ip: string,
) {
  const codeId = await checkVerificationCode(db, input.email, input.code);
  const existing = await userByEmail(db, input.email);
  if (existing) {
    // The account's password is guessed here as at sign-in: the same counters (decision 007).
    const attempt = await countSignInAttempt(db, input.email, ip);
    if (!(await verifyPassword(existing.password, input.password))) {
      throw badRequest(WRONG_EXISTING_PASSWORD, { password: WRONG_EXISTING_PASSWORD });
    }
    await signInSucceeded(db, attempt);
  } else {
    // A new account sets its password here (decision 009). Judged after the code, so only the inbox's owner
    // learns from it whether the e-mail has an account.
    assertAcceptablePassword(input.password, input.email);
  }
  try {
    return await db.transaction(async (tx) => {
      await useVerificationCode(tx, codeId);
      const live = await liveInvitationFor(tx, input.email);
      if (!live) throw badRequest("This invitation has expired or was withdrawn. Please ask for a new invitation.");
      const dealershipId = live.invite.dealershipId;
      // The code proved the address: the account's e-mail is verified from now on (decision 169).
      const user = existing
        ? ((
            await tx
              .update(users)
              .set({ currentDealershipId: dealershipId, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
              .where(eq(users.id, existing.id))
              .returning()
          )[0] ?? existing)
        : await createUser(tx, { ...input, currentDealershipId: dealershipId, emailVerified: true });
      await acceptInvitationsFor(tx, user);
      return user;
    });
  } catch (error) {
    // Someone created an account for this e-mail in the meantime: they can join with its password.
    if (isUniqueViolation(error)) throw conflict("An account with this email was just created. Please try again with its password.");
    throw error;
  }
}
