import { createECDH } from "node:crypto";
import { and, desc, eq, gt, inArray, isNotNull, notInArray, sql } from "drizzle-orm";
import { P256DH_INVALID, type PushSubscriptionInput } from "../../shared/schemas/push";
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

/** With PUSH_LOCAL_ENDPOINTS=1 (tests, a local push server): this machine, on any port. */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A user's browsers beyond this many: the oldest stop receiving (one person rarely has more devices). */
export const MAX_ACTIVE_SUBSCRIPTIONS = 10;

/** Why an endpoint is refused: the 400's `endpoint` field (decision 171). */
export const ENDPOINT_PROBLEMS = {
  notUrl: "must be an https URL of a push service",
  notHttps: "must be an https URL (push services speak https only)",
  userinfo: "must not carry a user name or password",
  notAsWritten: "must be the URL as the browser gave it (lower-case host, no backslashes, escapes or default port)",
  port: "must use the default https port",
  notDnsName: "must name the push service by its DNS name (no IP address, no characters other than letters, digits, '-' and '.')",
  unknownService: "must be on a browser push service (Google, Mozilla, Apple or Microsoft)",
} as const;

/** Lower-case DNS labels of letters, digits and inner hyphens, at least two, no trailing dot, the last not a number. */
const DNS_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z-])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The endpoint as the one URL both we and the push library read, or why it is refused. The library (web-push) parses
 * with Node's legacy url.parse, which reads hosts differently from the WHATWG parser (`https://127.0.0.1;.fcm.googleapis.com/`
 * is Google's to one and 127.0.0.1 to the other): only an endpoint that is already its WHATWG serialization, on a plain
 * DNS name, leaves no room for the two to disagree (decision 171).
 */
export function checkPushEndpoint(endpoint: string, allowLocal: boolean): { url: URL } | { problem: string } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { problem: ENDPOINT_PROBLEMS.notUrl };
  }
  if (url.protocol !== "https:") return { problem: ENDPOINT_PROBLEMS.notHttps };
  if (url.username || url.password) return { problem: ENDPOINT_PROBLEMS.userinfo };
  if (url.href !== endpoint) return { problem: ENDPOINT_PROBLEMS.notAsWritten };
  if (allowLocal && LOCAL_HOSTS.has(url.hostname)) return { url };
  if (url.port !== "") return { problem: ENDPOINT_PROBLEMS.port };
  if (!DNS_NAME.test(url.hostname)) return { problem: ENDPOINT_PROBLEMS.notDnsName };
  const host = url.hostname;
  if (!PUSH_SERVICE_HOSTS.some((service) => host === service || host.endsWith(`.${service}`))) return { problem: ENDPOINT_PROBLEMS.unknownService };
  return { url };
}

/** The endpoint's URL, or a 400 naming `endpoint` and saying what is wrong with it. */
export function pushServiceUrl(endpoint: string, allowLocal: boolean): URL {
  const checked = checkPushEndpoint(endpoint, allowLocal);
  if ("problem" in checked) throw badRequest(`endpoint: ${checked.problem}`, { endpoint: checked.problem });
  return checked.url;
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
 * Keeps the browser's subscription for the user, under the endpoint's checked URL (pushServiceUrl). The same endpoint subscribed again (new keys, another user on a
 * shared showroom tablet, another session) takes the new owner and keys: one browser, one owner.
 */
export async function saveSubscription(db: Db, subscriber: Subscriber, input: PushSubscriptionInput, endpoint: URL) {
  return db.transaction(async (tx) => {
    const values = {
      token: endpoint.href,
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
  /** As stored (user_tokens.token): the key of its deliveries and of its retirement. */
  endpoint: string;
  /** The checked URL's serialization: the only form handed to the push library. */
  url: string;
  userId: string;
  keys: { p256dh: string; auth: string };
}

/**
 * Where the users' pushes go: their active subscriptions whose session is still signed in. A browser that signed out,
 * or was signed out (password change, removal from the dealership), gets nothing more until someone subscribes it again.
 * Each endpoint is checked again as at subscribing: a row kept before that check was what it is now (decision 171) is
 * answered in `refused`, never as a target.
 */
export async function pushTargets(db: Db | Tx, userIds: string[], allowLocal: boolean): Promise<{ targets: PushTarget[]; refused: string[] }> {
  if (userIds.length === 0) return { targets: [], refused: [] };
  const rows = await db
    .select({ endpoint: userTokens.token, userId: userTokens.userId, p256dh: userTokens.p256dh, auth: userTokens.auth })
    .from(userTokens)
    .innerJoin(sessions, and(eq(sessions.sid, userTokens.sessionId), gt(sessions.expire, sql`now()`)))
    .where(and(inArray(userTokens.userId, userIds), eq(userTokens.active, true), isNotNull(userTokens.p256dh), isNotNull(userTokens.auth)));
  const targets: PushTarget[] = [];
  const refused: string[] = [];
  for (const row of rows) {
    const checked = checkPushEndpoint(row.endpoint, allowLocal);
    if ("problem" in checked) refused.push(row.endpoint);
    else targets.push({ endpoint: row.endpoint, url: checked.url.href, userId: row.userId, keys: { p256dh: row.p256dh!, auth: row.auth! } });
  }
  return { targets, refused };
}

/** A subscription the push service says is gone (404/410): never tried again. */
export async function retireSubscription(db: Db | Tx, endpoint: string): Promise<void> {
  await db.update(userTokens).set({ active: false }).where(eq(userTokens.token, endpoint));
}
