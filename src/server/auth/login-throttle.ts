import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { loginAttempts } from "../db/schema/users";
import { HttpError } from "../http/errors";

// Failed sign-ins are counted per account and per client address in PostgreSQL, so every app process
// sees the same counts (decision 004). A block is temporary: the real user gets back in after it.
export const THROTTLE = {
  windowMs: 15 * 60_000,
  blockMs: 15 * 60_000,
  maxAccountFailures: 5,
  maxAddressFailures: 30,
} as const;

const accountKey = (email: string) => `account:${email.toLowerCase()}`;
const addressKey = (ip: string) => `address:${ip}`;

/** Throws 429 with Retry-After when the account or the address is blocked. */
export async function assertNotThrottled(db: Db, email: string, ip: string): Promise<void> {
  const rows = await db
    .select({ blockedUntil: loginAttempts.blockedUntil })
    .from(loginAttempts)
    .where(sql`${loginAttempts.key} in (${accountKey(email)}, ${addressKey(ip)}) and ${loginAttempts.blockedUntil} > now()`);
  const until = Math.max(0, ...rows.map((r) => r.blockedUntil?.getTime() ?? 0));
  if (until > Date.now()) {
    const retryAfter = Math.ceil((until - Date.now()) / 1000);
    throw new HttpError(429, "Too many failed sign-in attempts. Please try again later.", undefined, {
      "retry-after": String(retryAfter),
    });
  }
}

async function countFailure(db: Db, key: string, max: number): Promise<void> {
  const windowStartsAfter = new Date(Date.now() - THROTTLE.windowMs);
  // One statement: concurrent failures from several processes cannot lose counts.
  const [row] = await db
    .insert(loginAttempts)
    .values({ key, failures: 1 })
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`case when ${loginAttempts.windowStart} < ${windowStartsAfter} then 1 else ${loginAttempts.failures} + 1 end`,
        windowStart: sql`case when ${loginAttempts.windowStart} < ${windowStartsAfter} then now() else ${loginAttempts.windowStart} end`,
      },
    })
    .returning({ failures: loginAttempts.failures });
  if (row && row.failures >= max) {
    await db
      .update(loginAttempts)
      .set({ failures: 0, windowStart: new Date(), blockedUntil: new Date(Date.now() + THROTTLE.blockMs) })
      .where(eq(loginAttempts.key, key));
  }
}

export async function recordFailedLogin(db: Db, email: string, ip: string): Promise<void> {
  await countFailure(db, accountKey(email), THROTTLE.maxAccountFailures);
  await countFailure(db, addressKey(ip), THROTTLE.maxAddressFailures);
}

/** A successful sign-in clears the account's count (the address count keeps protecting other accounts). */
export async function recordSuccessfulLogin(db: Db, email: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, accountKey(email)));
}
