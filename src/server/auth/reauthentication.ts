import type { FastifyInstance } from "fastify";
import { TWO_FACTOR_CODE_NEEDED } from "../../shared/schemas/profile";
import type { Db, Tx } from "../db/client";
import { badRequest } from "../http/errors";
import { countAttempt, giveBackAttempts, tooManyAttempts, type CounterRule } from "./attempt-counter";
import type { UserRow } from "./current-user";
import { THROTTLE } from "./login-throttle";
import { verifyPassword } from "./passwords";
import { secondFactorRefused, userWithSecrets, useSecondFactor } from "./two-factor";

// A signed-in person proving again who they are (current password to change it; password and code to turn two-factor
// off): counted per user before anything is checked, like sign-ins (decisions 007, 082), but under a key of its own,
// so fumbling the current password in the profile never locks the account's sign-ins on other devices.

export const TOO_MANY_CHECKS = "Too many incorrect attempts. Please try again later.";
export const CURRENT_PASSWORD_WRONG = "Current password is incorrect";

function rule(userId: string): CounterRule {
  return { key: `reauth:${userId}`, limit: THROTTLE.maxAccountFailures, windowMs: THROTTLE.windowMs, blockMs: THROTTLE.blockMs };
}

/** Counts one attempt; 429 with Retry-After when the user has used them up. Answers the count to give back. */
export async function countReauthentication(db: Db | Tx, userId: string): Promise<number> {
  const counted = await countAttempt(db, [rule(userId)]);
  if (counted.blockedForSeconds !== null) throw tooManyAttempts(TOO_MANY_CHECKS, counted.blockedForSeconds);
  return counted.counts[rule(userId).key] ?? 1;
}

/** The check passed: forget the attempts up to this one. */
export async function reauthenticated(db: Db | Tx, userId: string, count: number): Promise<void> {
  await giveBackAttempts(db, { [rule(userId).key]: count });
}

/**
 * The current password, and a second factor (authenticator or backup code, used up) when two-factor is on: what
 * changing the e-mail asks (decision 169). Counted first; each refusal is a 400 naming its field, never a 401 (which
 * the client reads as "signed out"). Answers the user's row, secrets included, for the caller's checks.
 */
export async function confirmPasswordAndSecondFactor(
  app: FastifyInstance,
  userId: string,
  input: { currentPassword: string; twoFactorCode?: string | undefined },
): Promise<UserRow> {
  const attempt = await countReauthentication(app.db, userId);
  const row = await userWithSecrets(app.db, userId);
  if (!row || !(await verifyPassword(row.password, input.currentPassword))) {
    throw badRequest(CURRENT_PASSWORD_WRONG, { currentPassword: CURRENT_PASSWORD_WRONG });
  }
  if (row.twoFactorEnabled) {
    if (!input.twoFactorCode) throw badRequest(TWO_FACTOR_CODE_NEEDED, { twoFactorCode: TWO_FACTOR_CODE_NEEDED });
    const outcome = await useSecondFactor(app, app.db, row, input.twoFactorCode);
    if (outcome !== "accepted") throw secondFactorRefused(outcome, 400, "twoFactorCode");
  }
  await reauthenticated(app.db, userId, attempt);
  return row;
}
