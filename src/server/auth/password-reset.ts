import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { PASSWORD_RESET_INVALID, PASSWORD_RESET_VALID_MINUTES, type PasswordResetInput } from "../../shared/schemas/profile";
import { passwordResetTokens } from "../db/schema/password-resets";
import { users } from "../db/schema/users";
import { badRequest } from "../http/errors";
import { userByEmail } from "../users/queries";
import { countAttempt, tooManyAttempts, type CounterRule } from "./attempt-counter";
import { passwordProblem } from "./password-policy";
import { hashPassword } from "./passwords";
import { passwordResetMail } from "./password-reset-mail";
import { endSessionsOfUser } from "./sessions";

// Forgotten password (issue 15; decisions 083, 170). A request answers the same, and as fast, whether or not the e-mail
// has an account: it is counted, answered, and only then looked up;
// the link carries a random token of which only the SHA-256 is stored. Using it is one conditional UPDATE (unused and
// unexpired), in the transaction that sets the password, ends every session of the user and voids their other links.

export const TOO_MANY_RESET_REQUESTS = "Too many password reset requests. Please try again later.";

/** Per e-mail and per address, counted before anything is looked up (as sign-ins are: decision 007). */
export const RESET_CAPS = { requestsPerEmail: 3, requestsPerAddress: 20, windowMs: 60 * 60_000 } as const;

function requestRules(email: string, ip: string): CounterRule[] {
  const { windowMs } = RESET_CAPS;
  return [
    { key: `reset-request-email:${email}`, limit: RESET_CAPS.requestsPerEmail, windowMs, blockMs: windowMs },
    { key: `reset-request-address:${ip}`, limit: RESET_CAPS.requestsPerAddress, windowMs, blockMs: windowMs },
  ];
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/**
 * Counts a request, per e-mail and per address, before anything is looked up: the same statement whether or not an
 * account has the e-mail (decision 170). 429 when a cap is reached.
 */
export async function countResetRequest(app: FastifyInstance, email: string, ip: string): Promise<void> {
  const counted = await countAttempt(app.db, requestRules(email, ip));
  if (counted.blockedForSeconds !== null) throw tooManyAttempts(TOO_MANY_RESET_REQUESTS, counted.blockedForSeconds);
}

/**
 * Mails a reset link when the e-mail has an account; nothing otherwise. Runs after the request has been answered
 * (decision 170), so how long this takes tells the asker nothing.
 */
export async function mailResetLink(app: FastifyInstance, email: string): Promise<void> {
  const user = await userByEmail(app.db, email);
  if (!user) return;
  const token = randomBytes(32).toString("base64url");
  await app.db.transaction(async (tx) => {
    await tx.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: sql`now() + make_interval(mins => ${PASSWORD_RESET_VALID_MINUTES})`,
    });
    await app.mailer.queue(passwordResetMail({ appUrl: app.config.appUrl, to: user.email, token, firstName: user.firstName }), tx);
  });
}

/** Sets the new password with a valid link; every session of the user ends. */
export async function resetPassword(app: FastifyInstance, input: PasswordResetInput): Promise<void> {
  // Hashed before the transaction: argon2 takes a while and the token's row stays locked meanwhile otherwise.
  const passwordHash = await hashPassword(input.newPassword);
  await app.db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(input.token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    if (!used) throw badRequest(PASSWORD_RESET_INVALID, { token: PASSWORD_RESET_INVALID });
    const [user] = await tx
      .update(users)
      .set({ password: passwordHash, passwordChangedAt: sql`now()` })
      .where(eq(users.id, used.userId))
      .returning({ email: users.email });
    if (!user) throw badRequest(PASSWORD_RESET_INVALID, { token: PASSWORD_RESET_INVALID });
    // Refused here rolls the whole transaction back: the link still works for a better password.
    const problem = passwordProblem(input.newPassword, user.email);
    if (problem) throw badRequest(problem, { newPassword: problem });
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResetTokens.userId, used.userId), isNull(passwordResetTokens.usedAt)));
    await endSessionsOfUser(tx, used.userId);
  });
}
