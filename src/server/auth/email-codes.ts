import { createHash, randomInt, timingSafeEqual } from "node:crypto";

// The 6-digit codes mailed to prove an address: invitations' sign-up codes (decision 031) and the profile's own-address
// and e-mail-change codes (decision 169). From crypto.randomInt; only a digest is stored; compared in constant time.

export function newEmailCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export function emailCodeDigest(code: string): string {
  return createHash("sha256").update(`showroom-email-code:${code}`).digest("hex");
}

export function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
