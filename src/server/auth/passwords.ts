import { hash, verify } from "@node-rs/argon2";
import { normalizePassword } from "../../shared/schemas/password";

// argon2id with the library's defaults (m=19456 KiB, t=2, p=1), the OWASP baseline.
// Passwords are hashed and compared in Unicode NFC, so "é" typed composed or decomposed is one password (decision 009).
export function hashPassword(password: string): Promise<string> {
  return hash(normalizePassword(password));
}

async function matches(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  const normalized = normalizePassword(password);
  if (await matches(hashed, normalized)) return true;
  // A password set before hashing normalised it was stored as typed: it still signs in when typed the same way.
  return normalized !== password && matches(hashed, password);
}

// Verifying against this when the e-mail is unknown keeps both failures equally slow.
let dummyHash: Promise<string> | undefined;
export function burnPasswordCheck(password: string): Promise<boolean> {
  dummyHash ??= hash("not-a-real-password");
  return dummyHash.then((h) => verifyPassword(h, password));
}
