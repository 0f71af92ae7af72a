import { createHmac } from "node:crypto";

// Authenticator codes computed independently of the app's library (otpauth): RFC 4226 HOTP with node:crypto's HMAC,
// stepped every 30 s as RFC 6238 says. Tests use these to play the part of the user's phone.

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 §5.3: HMAC over the 8-byte counter, dynamic truncation, modulo 10^digits. */
export function hotp(key: Buffer, counter: number, digits = 6, algorithm: "sha1" | "sha256" | "sha512" = "sha1"): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, "0");
}

export const PERIOD_SECONDS = 30;

export function stepAt(ms: number): number {
  return Math.floor(ms / 1000 / PERIOD_SECONDS);
}

/** The 6-digit code an authenticator app shows for a base32 secret at an instant. */
export function totpAt(secretBase32: string, ms: number): string {
  return hotp(base32Decode(secretBase32), stepAt(ms));
}
