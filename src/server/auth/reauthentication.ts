import type { Db, Tx } from "../db/client";
import { countAttempt, giveBackAttempts, tooManyAttempts, type CounterRule } from "./attempt-counter";
import { THROTTLE } from "./login-throttle";

// A signed-in person proving again who they are (current password to change it; password and code to turn two-factor
// off): counted per user before anything is checked, like sign-ins (decisions 007, 082), but under a key of its own,
// so fumbling the current password in the profile never locks the account's sign-ins on other devices.

export const TOO_MANY_CHECKS = "Too many incorrect attempts. Please try again later.";

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
