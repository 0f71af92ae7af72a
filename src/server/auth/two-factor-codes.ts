import { randomInt } from "node:crypto";
import { HOTP, Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { BACKUP_CODE_COUNT, BACKUP_CODE_LENGTH, TWO_FACTOR_CODE_LENGTH, TWO_FACTOR_PERIOD_SECONDS } from "../../shared/schemas/two-factor";

// Authenticator codes (TOTP, RFC 6238: HMAC-SHA1, 30 s, 6 digits) through otpauth, and backup codes.

const ISSUER = "Showroom";
/** No 0/O or 1/I/L: a code read off paper is typed right. 32 symbols, so 8 of them carry 40 bits. */
const BACKUP_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** The clock the codes are checked against. Tests set it to a known instant; the app never changes it. */
export const twoFactorClock = { now: (): number => Date.now() };

/** The 30-second time step an instant falls in (RFC 6238 T). */
export function timeStep(ms: number): number {
  return Math.floor(ms / 1000 / TWO_FACTOR_PERIOD_SECONDS);
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The secret in groups of four for typing into an app by hand. */
export function manualEntryKey(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(" ") ?? secret;
}

export function otpauthUri(secret: string, accountEmail: string): string {
  return new TOTP({
    issuer: ISSUER,
    label: accountEmail,
    algorithm: "SHA1",
    digits: TWO_FACTOR_CODE_LENGTH,
    period: TWO_FACTOR_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  }).toString();
}

export function qrCodeDataUrl(uri: string): Promise<string> {
  return QRCode.toDataURL(uri, { errorCorrectionLevel: "M", margin: 1, width: 240 });
}

/**
 * The time step whose code this is, when it is the code of the current step or of one step on either side (RFC 6238
 * §5.2: a code typed just as it changed, or a phone whose clock runs a little fast or slow; decision 179); null
 * otherwise. Two steps away is refused. Each step is used once: sign-in refuses a step not newer than the last used.
 */
export function matchingStep(secret: string, token: string, now: number): number | null {
  if (!new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`).test(token)) return null;
  const key = Secret.fromBase32(secret);
  const current = timeStep(now);
  for (const step of [current, current - 1, current + 1]) {
    if (HOTP.validate({ token, secret: key, algorithm: "SHA1", digits: TWO_FACTOR_CODE_LENGTH, counter: step, window: 0 }) === 0) {
      return step;
    }
  }
  return null;
}

/** Fresh backup codes, XXXX-XXXX. */
export function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => {
    const chars = Array.from({ length: BACKUP_CODE_LENGTH }, () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)]);
    return `${chars.slice(0, 4).join("")}-${chars.slice(4).join("")}`;
  });
}

/** A typed backup code in the stored form (upper case, no dash or spaces); null when it cannot be one. */
export function normalizeBackupCode(typed: string): string | null {
  const compact = typed.replace(/[\s-]/g, "").toUpperCase();
  return new RegExp(`^[A-Z0-9]{${BACKUP_CODE_LENGTH}}$`).test(compact) ? compact : null;
}

export function looksLikeAuthenticatorCode(typed: string): boolean {
  return new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`).test(typed.trim());
}
