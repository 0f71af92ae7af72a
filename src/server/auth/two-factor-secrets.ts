import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// Keys for two-factor data at rest (decision 081). Authenticator secrets are stored encrypted (AES-256-GCM) and
// backup codes as HMACs, both under keys derived from one application secret that is NOT in the database: APP_SECRET
// when set, else a random key created once in DATA_DIR/app-secret.key. A copy of the database alone then gives
// neither the secrets nor the codes.

const KEY_FILE = "app-secret.key";
const ENCRYPTED_PREFIX = "v1:";

export interface SecretSource {
  appSecret?: string | undefined;
  dataDir: string;
}

const roots = new Map<string, Buffer>();

/** The application secret: APP_SECRET, else the key file (made once; several processes on one machine share it). */
function rootKey(source: SecretSource): Buffer {
  if (source.appSecret) return Buffer.from(source.appSecret, "utf8");
  const file = path.join(source.dataDir, KEY_FILE);
  let root = roots.get(file);
  if (root) return root;
  try {
    root = Buffer.from(readFileSync(file, "utf8").trim(), "base64url");
  } catch {
    mkdirSync(source.dataDir, { recursive: true });
    try {
      // wx: the first process to get here creates it; the others read what it wrote.
      writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    root = Buffer.from(readFileSync(file, "utf8").trim(), "base64url");
  }
  if (root.length < 32) throw new Error(`${file} holds too short a key`);
  roots.set(file, root);
  return root;
}

function derivedKey(source: SecretSource, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", rootKey(source), "showroom", purpose, 32));
}

/** Encrypts an authenticator secret for the users table. */
export function encryptSecret(source: SecretSource, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey(source, "two-factor secret"), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ENCRYPTED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** Decrypts a stored secret; null when it was made under another key or was altered. */
export function decryptSecret(source: SecretSource, stored: string): string | null {
  if (!stored.startsWith(ENCRYPTED_PREFIX)) return null;
  const raw = Buffer.from(stored.slice(ENCRYPTED_PREFIX.length), "base64url");
  if (raw.length < 29) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", derivedKey(source, "two-factor secret"), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/**
 * A backup code as stored: an HMAC, so the same code always gives the same value and "is this one of the user's
 * unused codes" is one indexed comparison inside the UPDATE that uses it up.
 */
export function backupCodeDigest(source: SecretSource, normalizedCode: string): string {
  return createHmac("sha256", derivedKey(source, "backup code")).update(normalizedCode).digest("base64url");
}
