import type { Db, Tx } from "../db/client";
import { countAttempt, giveBackAttempts, tooManyAttempts, type CounterRule } from "./attempt-counter";

// Sign-in attempts are counted per account and per client address in PostgreSQL, so every app process sees the
// same counts (decisions 004, 007). The attempt is counted before its password is checked, in one statement, so
// of any number of concurrent guesses at most the limit ever reach argon2. A block is temporary: the real user
// gets back in after it.
export const THROTTLE = {
  windowMs: 15 * 60_000,
  blockMs: 15 * 60_000,
  maxAccountFailures: 5,
  maxAddressFailures: 30,
} as const;

export const TOO_MANY_SIGN_INS = "Too many failed sign-in attempts. Please try again later.";

const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
const addressKey = (ip: string) => `address:${ip}`;

function rules(email: string, ip: string): CounterRule[] {
  const { windowMs, blockMs } = THROTTLE;
  // Account before address, always: the statement locks the rows in this order.
  return [
    { key: accountKey(email), limit: THROTTLE.maxAccountFailures, windowMs, blockMs },
    { key: addressKey(ip), limit: THROTTLE.maxAddressFailures, windowMs, blockMs },
  ];
}

/** An attempt that was counted and may now have its password checked. */
export interface SignInAttempt {
  email: string;
  ip: string;
  /** The account count this attempt got: a success forgets the attempts up to it. */
  accountCount: number;
}

/** Counts a sign-in attempt before its password is checked; throws 429 with Retry-After when it may not go on. */
export async function countSignInAttempt(db: Db | Tx, email: string, ip: string): Promise<SignInAttempt> {
  const [account] = rules(email, ip);
  const counted = await countAttempt(db, rules(email, ip));
  if (counted.blockedForSeconds !== null) throw tooManyAttempts(TOO_MANY_SIGN_INS, counted.blockedForSeconds);
  return { email, ip, accountCount: counted.counts[account!.key] ?? 1 };
}

/**
 * The password was right. The account forgets its failures up to and including this attempt (a real user who
 * typed it right is not punished for earlier typos), but not attempts counted after it, still in flight.
 * The address gets this one attempt back, so it counts only failures: a dealership's staff share one address
 * and sign in all day.
 */
export async function signInSucceeded(db: Db | Tx, attempt: SignInAttempt): Promise<void> {
  await giveBackAttempts(db, { [accountKey(attempt.email)]: attempt.accountCount, [addressKey(attempt.ip)]: 1 });
}

/**
 * The password was right but a second factor is still to come (decision 082): the address gets this attempt back, as
 * it was no failure; the account keeps it until the code is right too, so code guesses stay within the account's limit.
 */
export async function passwordStepSucceeded(db: Db | Tx, attempt: SignInAttempt): Promise<void> {
  await giveBackAttempts(db, { [addressKey(attempt.ip)]: 1 });
}
