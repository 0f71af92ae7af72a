import { createECDH } from "node:crypto";
import { and, desc, eq, gt, inArray, isNotNull, notInArray, sql } from "drizzle-orm";
import { ENDPOINT_INVALID, P256DH_INVALID, type PushSubscriptionInput } from "../../shared/schemas/push";
import type { Db, Tx } from "../db/client";
import { sessions, userTokens } from "../db/schema/users";
import { badRequest } from "../http/errors";

// The browsers that may receive a user's pushes (spec part 2 §3 user_tokens; decision 111).

/**
 * The push services of the browsers we know (Chrome, Edge, Firefox, Safari, Samsung and Opera use one of these). Our
 * server POSTs to whatever endpoint is stored, so an endpoint elsewhere would let any signed-in user point it at a
 * machine of our network: only these hosts (and their subdomains) are accepted.
 */
export const PUSH_SERVICE_HOSTS = [
  "fcm.googleapis.com",
  "android.googleapis.com",
  "push.services.mozilla.com",
  "push.apple.com",
  "notify.windows.com",
] as const;

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A user's browsers beyond this many: the oldest stop receiving (one person rarely has more devices). */
export const MAX_ACTIVE_SUBSCRIPTIONS = 10;

/** Throws a 400 unless the endpoint is on a push service we know (or on this machine, when allowed). */
export function assertPushServiceEndpoint(endpoint: string, allowLocal: boolean): void {
  const url = new URL(endpoint);
  const host = url.hostname.toLowerCase();
  const known = PUSH_SERVICE_HOSTS.some((service) => host === service || host.endsWith(`.${service}`)) && url.port === "";
  if (known || (allowLocal && LOCAL_HOSTS.has(host))) return;
  throw badRequest(ENDPOINT_INVALID, { endpoint: ENDPOINT_INVALID });
}

/** Throws a 400 unless p256dh is a point on P-256: a payload cannot be encrypted to anything else. */
export function assertBrowserKey(p256dh: string): void {
  try {
    // computeSecret refuses a point off the curve; it needs a key pair of its own to compute with.
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    ecdh.computeSecret(Buffer.from(p256dh, "base64url"));
  } catch {
    throw badRequest(P256DH_INVALID, { "keys.p256dh": P256DH_INVALID });
  }
}

export interface Subscriber {
  userId: string;
  /** The session that subscribes (sessions.sid). */
  sessionId: string;
  /** Their role in their current dealership, as the spec's userRole keeps it. */
  role: string | null;
}

/**
 * Keeps the browser's subscription for the user. The same endpoint subscribed again (new keys, another user on a
 * shared showroom tablet, another session) takes the new owner and keys: one browser, one owner.
 */
export async function saveSubscription(db: Db, subscriber: Subscriber, input: PushSubscriptionInput) {
  return db.transaction(async (tx) => {
    const values = {
      token: input.endpoint,
      userId: subscriber.userId,
      sessionId: subscriber.sessionId,
      userRole: subscriber.role,
      device: input.device || null,
      p256dh: input.keys.p256dh.replace(/=+$/, ""),
      auth: input.keys.auth.replace(/=+$/, ""),
      active: true,
      createdAt: new Date(),
    };
    const [saved] = await tx
      .insert(userTokens)
      .values(values)
      .onConflictDoUpdate({ target: userTokens.token, set: { ...values, token: undefined } })
      .returning({ endpoint: userTokens.token, device: userTokens.device, createdAt: userTokens.createdAt });
    await retireOldest(tx, subscriber.userId);
    return { ...saved!, active: true as const };
  });
}

async function retireOldest(tx: Tx, userId: string): Promise<void> {
  const newest = tx
    .select({ token: userTokens.token })
    .from(userTokens)
    .where(and(eq(userTokens.userId, userId), eq(userTokens.active, true)))
    .orderBy(desc(userTokens.createdAt))
    .limit(MAX_ACTIVE_SUBSCRIPTIONS);
  await tx
    .update(userTokens)
    .set({ active: false })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.active, true), notInArray(userTokens.token, newest)));
}

/** Stops pushes to the endpoint if it is the user's; someone else's endpoint is left as it is. */
export async function endSubscription(db: Db, userId: string, endpoint: string): Promise<void> {
  await db
    .update(userTokens)
    .set({ active: false })
    .where(and(eq(userTokens.token, endpoint), eq(userTokens.userId, userId)));
}

export interface PushTarget {
  endpoint: string;
  userId: string;
  keys: { p256dh: string; auth: string };
}

/**
 * Where the users' pushes go: their active subscriptions whose session is still signed in. A browser that signed out,
 * or was signed out (password change, removal from the dealership), gets nothing more until someone subscribes it again.
 */
export async function pushTargets(db: Db | Tx, userIds: string[]): Promise<PushTarget[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ endpoint: userTokens.token, userId: userTokens.userId, p256dh: userTokens.p256dh, auth: userTokens.auth })
    .from(userTokens)
    .innerJoin(sessions, and(eq(sessions.sid, userTokens.sessionId), gt(sessions.expire, sql`now()`)))
    .where(and(inArray(userTokens.userId, userIds), eq(userTokens.active, true), isNotNull(userTokens.p256dh), isNotNull(userTokens.auth)));
  return rows.map((r) => ({ endpoint: r.endpoint, userId: r.userId, keys: { p256dh: r.p256dh!, auth: r.auth! } }));
}

/** A subscription the push service says is gone (404/410): never tried again. */
export async function retireSubscription(db: Db | Tx, endpoint: string): Promise<void> {
  await db.update(userTokens).set({ active: false }).where(eq(userTokens.token, endpoint));
}
