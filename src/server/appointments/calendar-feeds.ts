import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { CalendarFeedScope } from "../../shared/schemas/appointment";
import type { Db } from "../db/client";
import { calendarFeeds } from "../db/schema/appointments";

// Private calendar subscription links (decision 023). The token is 32 random bytes (base64url) and only its
// SHA-256 is stored: a leaked database gives no feed, and a wrong token cannot be told from a missing feed.

export type CalendarFeedRow = typeof calendarFeeds.$inferSelect;

export function hashFeedToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function newFeedToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The feed's path: ends in .ics, which some calendar apps look for. */
export function feedPath(token: string): string {
  return `/api/calendar/${token}.ics`;
}

export async function feedOf(db: Db, userId: string, dealershipId: string): Promise<CalendarFeedRow | undefined> {
  const [row] = await db
    .select()
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.userId, userId), eq(calendarFeeds.dealershipId, dealershipId)))
    .limit(1);
  return row;
}

/**
 * Makes the user's feed for a dealership, or gives the existing one a new token (the old URL stops working at
 * once: one row per user and dealership, one hash per row). Answers the new secret token.
 */
export async function issueFeed(
  db: Db,
  values: { userId: string; dealershipId: string; scope: CalendarFeedScope },
  now: Date,
): Promise<{ token: string; row: CalendarFeedRow }> {
  const token = newFeedToken();
  const tokenHash = hashFeedToken(token);
  const [row] = await db
    .insert(calendarFeeds)
    .values({ ...values, tokenHash, createdAt: now })
    .onConflictDoUpdate({
      target: [calendarFeeds.userId, calendarFeeds.dealershipId],
      set: { scope: values.scope, tokenHash, createdAt: now, lastFetchedAt: null },
    })
    .returning();
  if (!row) throw new Error("calendar feed upsert returned nothing");
  return { token, row };
}

export async function deleteFeed(db: Db, userId: string, dealershipId: string): Promise<boolean> {
  const rows = await db
    .delete(calendarFeeds)
    .where(and(eq(calendarFeeds.userId, userId), eq(calendarFeeds.dealershipId, dealershipId)))
    .returning({ id: calendarFeeds.id });
  return rows.length > 0;
}

export async function feedByToken(db: Db, token: string): Promise<CalendarFeedRow | undefined> {
  // Tokens are base64url of 32 bytes (43 characters); anything else cannot match, so skip the query.
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.tokenHash, hashFeedToken(token))).limit(1);
  return row;
}

export async function markFeedFetched(db: Db, id: string, now: Date): Promise<void> {
  await db.update(calendarFeeds).set({ lastFetchedAt: now }).where(eq(calendarFeeds.id, id));
}
