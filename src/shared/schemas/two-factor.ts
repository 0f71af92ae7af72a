import { z } from "zod";

// Two-factor sign-in (part 1 §2.2 two-factor step, §5; part 2 §5, §9): request schemas and constants, both sides.

/** Authenticator codes: 6 digits, every 30 seconds (RFC 6238 defaults, which every authenticator app uses). */
export const TWO_FACTOR_CODE_LENGTH = 6;
export const TWO_FACTOR_PERIOD_SECONDS = 30;
/** Backup codes: 8 characters shown as XXXX-XXXX (9 with the dash), each usable once. */
export const BACKUP_CODE_LENGTH = 8;
export const BACKUP_CODE_INPUT_MAX = BACKUP_CODE_LENGTH + 1;
export const BACKUP_CODE_COUNT = 10;
/** How long "Copied" shows after copying the backup codes (part 2 §9). */
export const COPIED_LABEL_MS = 2000;

export const CODE_MUST_BE_SIX_DIGITS = "Code must be 6 digits";
export const VERIFICATION_CODE_REQUIRED = "Verification code is required";
export const BACKUP_CODE_FORMAT = "Backup code must look like XXXX-XXXX";

/** The six-digit code of the setup and sign-in forms (part 1 §5: exactly 6, "Code must be 6 digits"). */
export const authenticatorCodeField = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`), { message: CODE_MUST_BE_SIX_DIGITS });

/** A backup code as typed: XXXX-XXXX, the dash optional, any case. */
export const backupCodeField = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{4}-?[A-Za-z0-9]{4}$/, { message: BACKUP_CODE_FORMAT });

/** Either kind of code, as the disable dialog and the sign-in step send it (up to 9 characters). */
export const anyTwoFactorCodeField = z
  .string()
  .trim()
  .min(1, { message: VERIFICATION_CODE_REQUIRED })
  .max(BACKUP_CODE_INPUT_MAX, { message: CODE_MUST_BE_SIX_DIGITS });

/** POST /api/auth/2fa/verify-setup: the secret shown by setup and a code from the app (part 2 §7). */
export const verifySetupSchema = z.object({
  secret: z.string().trim().min(16).max(128),
  token: authenticatorCodeField,
});
export type VerifySetupInput = z.infer<typeof verifySetupSchema>;

/** POST /api/auth/2fa/disable: password and a code or a backup code (part 2 §5). */
export const disableTwoFactorSchema = z.object({
  password: z.string().min(6, { message: "Password is required" }).max(200),
  token: anyTwoFactorCodeField,
});
export type DisableTwoFactorInput = z.infer<typeof disableTwoFactorSchema>;

export const PASSWORD_OR_CODE_NEEDED = "Enter your password or a code from your authenticator app";

/**
 * POST /api/auth/2fa/regenerate-backup-codes (decision 169): the password or a current authenticator code, so a
 * session alone cannot replace the codes (a backup code does not make new ones).
 */
export const regenerateBackupCodesSchema = z
  .object({
    password: z.string().max(200).optional(),
    token: authenticatorCodeField.optional(),
  })
  .refine((v) => Boolean(v.password) || Boolean(v.token), { message: PASSWORD_OR_CODE_NEEDED, path: ["password"] });
export type RegenerateBackupCodesInput = z.infer<typeof regenerateBackupCodesSchema>;

/** The sign-in code step's form, per toggle position (part 1 §2.2). */
export const signInCodeSchema = z.object({ code: z.string().trim().min(1, { message: VERIFICATION_CODE_REQUIRED }).pipe(authenticatorCodeField) });
export const signInBackupCodeSchema = z.object({ code: z.string().trim().min(1, { message: VERIFICATION_CODE_REQUIRED }).pipe(backupCodeField) });
