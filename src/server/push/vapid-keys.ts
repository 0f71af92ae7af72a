import { and, eq, sql } from "drizzle-orm";
import webpush from "web-push";
import { decryptSecret, encryptSecret, type SecretSource } from "../auth/two-factor-secrets";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { installationKeys } from "../db/schema/push";
import { userTokens } from "../db/schema/users";

// The installation's VAPID pair (decision 110). Every process and every restart must sign with the same pair: a
// browser subscribed with its public key, and a push signed with another is refused by the push service. So the pair
// comes from the environment, or is made once (the first process to insert it wins) and kept in the database, its
// private half encrypted with APP_SECRET like the two-factor secrets (decision 081): a copy of the database alone does
// not let anyone push to our users.

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const KEY_NAME = "vapid";

interface StoredPair {
  publicKey: string;
  /** encryptSecret's "v1:..." form. */
  privateKey: string;
}

export interface VapidLoadResult {
  keys: VapidKeys;
  /** A kept pair could not be decrypted (APP_SECRET changed or its key file was lost) and was replaced. */
  replaced: boolean;
}

export async function loadVapidKeys(db: Db, config: Config): Promise<VapidLoadResult> {
  const subject = config.vapidSubject;
  if (config.vapidKeys) return { keys: { ...config.vapidKeys, subject }, replaced: false };
  const secrets: SecretSource = { appSecret: config.appSecret, dataDir: config.dataDir };

  const fresh = webpush.generateVAPIDKeys();
  const made: StoredPair = { publicKey: fresh.publicKey, privateKey: encryptSecret(secrets, fresh.privateKey) };
  await db.insert(installationKeys).values({ name: KEY_NAME, value: { ...made } }).onConflictDoNothing();
  const [row] = await db.select().from(installationKeys).where(eq(installationKeys.name, KEY_NAME)).limit(1);
  const kept = row?.value as StoredPair | undefined;
  if (!kept) throw new Error("the VAPID keys could not be kept");
  const privateKey = decryptSecret(secrets, kept.privateKey);
  if (privateKey) return { keys: { publicKey: kept.publicKey, privateKey, subject }, replaced: false };

  // Unreadable under this APP_SECRET: nothing can be signed with it again. Take the new pair (only if nobody replaced
  // it meanwhile) and end the subscriptions made for the old public key: push services would refuse every push to
  // them; the browsers subscribe again with the new key.
  await db.transaction(async (tx) => {
    const swapped = await tx
      .update(installationKeys)
      .set({ value: { ...made }, createdAt: new Date() })
      .where(and(eq(installationKeys.name, KEY_NAME), sql`${installationKeys.value}->>'publicKey' = ${kept.publicKey}`))
      .returning({ name: installationKeys.name });
    if (swapped.length > 0) await tx.update(userTokens).set({ active: false }).where(eq(userTokens.active, true));
  });
  // Ours, or the pair another process put in its place a moment earlier.
  const [now] = await db.select().from(installationKeys).where(eq(installationKeys.name, KEY_NAME)).limit(1);
  const current = now?.value as StoredPair | undefined;
  const readable = current && decryptSecret(secrets, current.privateKey);
  if (!current || !readable) throw new Error("the VAPID keys could not be read with this APP_SECRET");
  return { keys: { publicKey: current.publicKey, privateKey: readable, subject }, replaced: true };
}
