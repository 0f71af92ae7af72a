import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { ACCOUNT_EMAIL_CODE_VALID_MINUTES } from "../../shared/schemas/profile";
import { VERIFICATION_CODE_MAX_ATTEMPTS, VERIFICATION_CODE_RESEND_SECONDS } from "../../shared/schemas/team";
import { attemptsSoFar, countAttempt, giveBackAttempts, tooManyAttempts, type CounterRule } from "../auth/attempt-counter";
import { publicUser, type SessionUser, type UserRow } from "../auth/current-user";
import { emailCodeDigest, newEmailCode, sameDigest } from "../auth/email-codes";
import type { Db, Tx } from "../db/client";
import { accountEmailCodes, type AccountEmailPurpose } from "../db/schema/account-email-codes";
import { users } from "../db/schema/users";
import { badRequest, conflict, HttpError } from "../http/errors";
import type { OutgoingMail } from "../mail/mailer";
import { grantListedPlatformAdmin } from "../platform/admins";
import { CODE_BURNED, INVALID_CODE } from "../team/verification";
import { isUniqueViolation, userByEmail } from "../users/queries";
import { emailChangeCodeMail, emailChangedNoticeMail, ownAddressCodeMail } from "./email-mails";

// Proving an address with an e-mailed code (decision 169), the invitation codes' machinery (decision 031) for a
// signed-in user: the account's own e-mail ("verify"), or the new one of an e-mail change ("change"). 6 digits, only a
// digest stored, one pending code per user and purpose, 30 minutes, 5 wrong tries per code; and across codes 10 wrong
// tries a day per user, 5 codes an hour per user and per address mailed. A confirmation locks the code's row, counts
// the try, compares, and on the right code deletes the row and applies the change in the same transaction: two
// confirmations of one code cannot both win.

export const EMAIL_PROOF_CAPS = {
  requestsPerUser: 5,
  requestsPerAddress: 5,
  requestWindowMs: 60 * 60_000,
  wrongTriesPerUser: 10,
  wrongTriesWindowMs: 24 * 60 * 60_000,
} as const;

export const ALREADY_VERIFIED = "Your e-mail is already verified.";
export const SAME_EMAIL = "This is already your e-mail.";
export const EMAIL_TAKEN = "An account with this email already exists";
export const TOO_MANY_EMAIL_CODES = "Too many codes requested. Please try again later.";
export const TOO_MANY_WRONG_CODES = "Too many incorrect codes. Please try again tomorrow.";
export const CODE_JUST_SENT = `A code was just sent. Please wait ${VERIFICATION_CODE_RESEND_SECONDS} seconds before requesting another.`;

function requestRules(userId: string, to: string): CounterRule[] {
  const { requestWindowMs: windowMs } = EMAIL_PROOF_CAPS;
  return [
    { key: `account-code-request:${userId}`, limit: EMAIL_PROOF_CAPS.requestsPerUser, windowMs, blockMs: windowMs },
    { key: `account-code-to:${to}`, limit: EMAIL_PROOF_CAPS.requestsPerAddress, windowMs, blockMs: windowMs },
  ];
}

function wrongTriesRule(userId: string): CounterRule {
  const { wrongTriesWindowMs: windowMs } = EMAIL_PROOF_CAPS;
  return { key: `account-codes:${userId}`, limit: EMAIL_PROOF_CAPS.wrongTriesPerUser, windowMs, blockMs: windowMs };
}

/** A fresh code for the user and purpose, replacing the last one unless that one is only seconds old (then null). */
async function issueCode(executor: Db | Tx, userId: string, purpose: AccountEmailPurpose, email: string) {
  const code = newEmailCode();
  const digest = emailCodeDigest(code);
  const expiresAt = sql`now() + make_interval(mins => ${ACCOUNT_EMAIL_CODE_VALID_MINUTES})`;
  const [row] = await executor
    .insert(accountEmailCodes)
    .values({ userId, purpose, email, code: digest, expiresAt })
    .onConflictDoUpdate({
      target: [accountEmailCodes.userId, accountEmailCodes.purpose],
      set: { email, code: digest, failedAttempts: 0, createdAt: sql`now()`, expiresAt },
      // As with invitation codes: asking again at once would flood the inbox and reset the code's wrong tries.
      setWhere: sql`${accountEmailCodes.createdAt} < now() - make_interval(secs => ${VERIFICATION_CODE_RESEND_SECONDS})`,
    })
    .returning({ id: accountEmailCodes.id });
  return row ? { id: row.id, code } : null;
}

/**
 * Counts the request, refuses when the user's wrong tries are used up, issues the code and mails it while the
 * person waits (the screen says "sent" only when it was, like invitation codes). A failed delivery costs nothing.
 */
async function sendCode(
  app: FastifyInstance,
  user: { id: string },
  purpose: AccountEmailPurpose,
  to: string,
  mail: (code: string) => OutgoingMail,
): Promise<void> {
  const rules = requestRules(user.id, to);
  const counted = await countAttempt(app.db, rules);
  if (counted.blockedForSeconds !== null) throw tooManyAttempts(TOO_MANY_EMAIL_CODES, counted.blockedForSeconds);
  const tries = await attemptsSoFar(app.db, wrongTriesRule(user.id));
  if (tries.blocked || tries.count >= EMAIL_PROOF_CAPS.wrongTriesPerUser) throw conflict(TOO_MANY_WRONG_CODES);
  const issued = await issueCode(app.db, user.id, purpose, to);
  if (!issued) throw new HttpError(429, CODE_JUST_SENT);
  const result = await app.mailer.send(mail(issued.code));
  if (result.status === "failed") {
    await app.db.delete(accountEmailCodes).where(eq(accountEmailCodes.id, issued.id));
    await giveBackAttempts(app.db, Object.fromEntries(rules.map((r) => [r.key, 1])));
    throw new HttpError(503, "Unable to send the code. Please try again in a moment.");
  }
}

/** At registration, in its transaction: the new owner's address gets a code, queued with the account. */
export async function mailOwnAddressCode(app: FastifyInstance, tx: Tx, user: { id: string; email: string; firstName: string | null }): Promise<void> {
  const issued = await issueCode(tx, user.id, "verify", user.email);
  if (issued) await app.mailer.queue(ownAddressCodeMail({ to: user.email, code: issued.code, firstName: user.firstName }), tx);
}

/** POST /api/user/email-verification/request: a code to the account's own address. */
export async function requestOwnAddressCode(app: FastifyInstance, user: SessionUser): Promise<void> {
  if (user.emailVerifiedAt) throw conflict(ALREADY_VERIFIED);
  await sendCode(app, user, "verify", user.email, (code) => ownAddressCodeMail({ to: user.email, code, firstName: user.firstName }));
}

/**
 * POST /api/user/email-change/request, after the caller checked the password (and second factor): a code to the new
 * address. Nothing changes until it is confirmed.
 */
export async function requestEmailChange(app: FastifyInstance, user: UserRow, newEmail: string): Promise<void> {
  if (newEmail === user.email) throw badRequest(SAME_EMAIL, { email: SAME_EMAIL });
  // The signed-in owner, who has just given their password, may learn that an address has an account.
  if (await userByEmail(app.db, newEmail)) throw new HttpError(409, EMAIL_TAKEN, { email: EMAIL_TAKEN });
  await sendCode(app, user, "change", newEmail, (code) => emailChangeCodeMail({ to: newEmail, code, firstName: user.firstName }));
}

/**
 * Checks the user's code for `purpose` and, when right, deletes it and runs `apply` with the proven address, all in
 * one transaction. A wrong code counts against the code and the user and is a 400 on the field `code`.
 */
async function useCode<T>(
  db: Db,
  userId: string,
  purpose: AccountEmailPurpose,
  typed: string,
  apply: (tx: Tx, provenEmail: string) => Promise<T>,
): Promise<T> {
  const rule = wrongTriesRule(userId);
  // Answers instead of throwing inside: a throw would roll back the counted wrong try.
  const outcome = await db.transaction(async (tx): Promise<{ refused: string } | { applied: T }> => {
    const [row] = await tx
      .select({
        id: accountEmailCodes.id,
        email: accountEmailCodes.email,
        code: accountEmailCodes.code,
        failedAttempts: accountEmailCodes.failedAttempts,
        usable: sql<boolean>`${accountEmailCodes.expiresAt} > now()`,
      })
      .from(accountEmailCodes)
      .where(and(eq(accountEmailCodes.userId, userId), eq(accountEmailCodes.purpose, purpose)))
      .for("update");
    if (!row || !row.usable) return { refused: INVALID_CODE };
    if (row.failedAttempts >= VERIFICATION_CODE_MAX_ATTEMPTS) return { refused: CODE_BURNED };
    const counted = await countAttempt(tx, [rule]);
    if (counted.blockedForSeconds !== null) return { refused: TOO_MANY_WRONG_CODES };
    if (!sameDigest(row.code, emailCodeDigest(typed))) {
      const failedAttempts = row.failedAttempts + 1;
      await tx.update(accountEmailCodes).set({ failedAttempts }).where(eq(accountEmailCodes.id, row.id));
      if ((counted.counts[rule.key] ?? 0) >= EMAIL_PROOF_CAPS.wrongTriesPerUser) return { refused: TOO_MANY_WRONG_CODES };
      return { refused: failedAttempts >= VERIFICATION_CODE_MAX_ATTEMPTS ? CODE_BURNED : INVALID_CODE };
    }
    await giveBackAttempts(tx, { [rule.key]: 1 });
    await tx.delete(accountEmailCodes).where(eq(accountEmailCodes.id, row.id));
    return { applied: await apply(tx, row.email) };
  });
  if ("refused" in outcome) throw badRequest(outcome.refused, { code: outcome.refused });
  return outcome.applied;
}

/**
 * POST /api/user/email-verification/confirm: the account's e-mail is proven, and when PLATFORM_ADMIN_EMAILS lists it
 * the account becomes a platform admin now.
 */
export async function confirmOwnAddress(app: FastifyInstance, userId: string, code: string): Promise<SessionUser> {
  const row = await useCode(app.db, userId, "verify", code, async (tx, provenEmail) => {
    const [updated] = await tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      // The code proves the address it was sent to: it counts only while that is still the account's e-mail.
      .where(and(eq(users.id, userId), eq(users.email, provenEmail)))
      .returning();
    if (!updated) throw badRequest(INVALID_CODE, { code: INVALID_CODE });
    return updated;
  });
  await grantListedPlatformAdmin(app.db, app.config.platformAdminEmails, userId);
  return publicUser(row);
}

/**
 * POST /api/user/email-change/confirm: the e-mail becomes the proven new address, the old address is told (a queued
 * mail, committed with the change), and a listed new address makes the account a platform admin.
 */
export async function confirmEmailChange(app: FastifyInstance, userId: string, code: string): Promise<SessionUser> {
  let row: UserRow;
  try {
    row = await useCode(app.db, userId, "change", code, async (tx, newEmail) => {
      const [before] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).for("update");
      const [updated] = await tx
        .update(users)
        .set({ email: newEmail, emailVerifiedAt: sql`now()` })
        .where(eq(users.id, userId))
        .returning();
      if (!before || !updated) throw badRequest(INVALID_CODE, { code: INVALID_CODE });
      // A pending code for the old address proves nothing about the account any more.
      await tx.delete(accountEmailCodes).where(and(eq(accountEmailCodes.userId, userId), eq(accountEmailCodes.purpose, "verify")));
      await app.mailer.queue(emailChangedNoticeMail({ to: before.email, newEmail, firstName: updated.firstName }), tx);
      return updated;
    });
  } catch (error) {
    // Someone registered the address since the code was sent: the unique index decides, and nothing changed.
    if (isUniqueViolation(error)) throw new HttpError(409, EMAIL_TAKEN, { email: EMAIL_TAKEN });
    throw error;
  }
  await grantListedPlatformAdmin(app.db, app.config.platformAdminEmails, userId);
  return publicUser(row);
}
