import { z } from "zod";
import { PASSWORD_MIN_LENGTH } from "../constants";

// The rules for a password being SET (registering, joining by invitation, later changing or resetting it;
// decision 009). Signing in never applies them: a password set under older rules still signs in.
// The common-password list is checked only on the server (src/server/auth/password-policy.ts), so it stays out of
// the client bundle; the forms show the server's field error for it.

export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
export const PASSWORD_BLANK = "Password cannot be only spaces.";
export const PASSWORD_IS_EMAIL = "Password cannot be your email address.";
export const PASSWORD_TOO_COMMON = "This password is too common. Choose a less guessable one.";
export const PASSWORD_MAX_LENGTH = 200;

/** The same password typed on a Mac and on Windows can arrive composed or decomposed: NFC makes it one string. */
export function normalizePassword(password: string): string {
  return password.normalize("NFC");
}

/** True when the password is the e-mail, or the e-mail's part before the @, ignoring case and surrounding spaces. */
export function passwordIsEmail(password: string, email: string): boolean {
  const typed = normalizePassword(password).trim().toLowerCase();
  const address = email.trim().toLowerCase();
  const localPart = address.split("@")[0] ?? "";
  return typed !== "" && (typed === address || typed === localPart);
}

/** The first rule a new password breaks, of those the client can check too; null when it breaks none. */
export function passwordRuleBroken(password: string, email: string): string | null {
  const normalized = normalizePassword(password);
  if (normalized.length < PASSWORD_MIN_LENGTH) return PASSWORD_TOO_SHORT;
  if (normalized.length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (normalized.trim() === "") return PASSWORD_BLANK;
  if (passwordIsEmail(normalized, email)) return PASSWORD_IS_EMAIL;
  return null;
}

/** A new password field on its own: length (counted after NFC) and not all blank. */
export const newPasswordField = z
  .string()
  .refine((p) => normalizePassword(p).length >= PASSWORD_MIN_LENGTH, { message: PASSWORD_TOO_SHORT })
  .refine((p) => normalizePassword(p).length <= PASSWORD_MAX_LENGTH, {
    message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  })
  .refine((p) => p.trim() !== "", { message: PASSWORD_BLANK });

/**
 * For a form object with `email` and `password`: refuses the e-mail as its password, on field `password`.
 * Use with `.superRefine(refuseEmailAsPassword)` next to `newPasswordField`.
 */
export function refuseEmailAsPassword(value: { email?: unknown; password?: unknown }, ctx: z.RefinementCtx): void {
  if (typeof value.email !== "string" || typeof value.password !== "string") return;
  if (passwordIsEmail(value.password, value.email)) ctx.addIssue({ code: "custom", path: ["password"], message: PASSWORD_IS_EMAIL });
}
