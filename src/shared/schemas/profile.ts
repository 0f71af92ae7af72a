import { z } from "zod";
import { PASSWORD_MIN_LENGTH } from "../constants";
import { verificationCodeSchema } from "./auth";
import { normalizePassword, PASSWORD_BLANK, PASSWORD_MAX_LENGTH } from "./password";
import { BACKUP_CODE_INPUT_MAX } from "./two-factor";

// The profile screen's forms and the profile calls (part 2 §2 Profile, §3, §5, §7). Forms and server share these.

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_ACCEPTED_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export const INVALID_FILE_TYPE = "Please select an image file.";
export const FILE_TOO_LARGE = "Please select an image smaller than 5MB.";

export const NEW_PASSWORD_TOO_SHORT = `New password must be at least ${PASSWORD_MIN_LENGTH} characters long`;
export const PASSWORDS_DONT_MATCH = "Passwords don't match";

const profileEmailField = z.string().trim().toLowerCase().pipe(z.email({ message: "Invalid email address" }));

/**
 * Personal Information (part 2 §5: first and last name required, a valid e-mail): the form. Saving sends the names to
 * PATCH /api/user/profile; a new e-mail goes through the e-mail change below (decision 169).
 */
export const profileFormSchema = z.object({
  firstName: z.string().trim().min(1, { message: "First name is required" }).max(100),
  lastName: z.string().trim().min(1, { message: "Last name is required" }).max(100),
  email: profileEmailField,
});
export type ProfileForm = z.infer<typeof profileFormSchema>;

/** PATCH /api/user/profile: the names. An e-mail may come along only unchanged; a different one is refused. */
export const profileSchema = profileFormSchema.extend({ email: profileEmailField.optional() });
export type ProfileInput = z.infer<typeof profileSchema>;

export const EMAIL_CHANGE_NEEDS_PROOF =
  "To change your e-mail, confirm it with your password and a code sent to the new address (Change E-mail).";

// ---- Proving an address (decision 169) ----

/** An e-mailed code of the profile's address proofs works this long, once, and for a few wrong tries. */
export const ACCOUNT_EMAIL_CODE_VALID_MINUTES = 30;

/** POST /api/user/email-verification/confirm and /api/user/email-change/confirm: the 6-digit code from the mail. */
export const accountEmailCodeSchema = z.object({ code: verificationCodeSchema });
export type AccountEmailCodeInput = z.infer<typeof accountEmailCodeSchema>;

export const TWO_FACTOR_CODE_NEEDED = "Enter a code from your authenticator app, or a backup code";

/**
 * POST /api/user/email-change/request: the new address, the current password, and a second-factor code when two-factor
 * is on (an authenticator code or a backup code). A code is mailed to the new address; nothing changes until it is
 * confirmed.
 */
export const emailChangeRequestSchema = z.object({
  email: profileEmailField,
  currentPassword: z.string({ message: "Current password is required" }).min(1, { message: "Current password is required" }).max(PASSWORD_MAX_LENGTH),
  twoFactorCode: z.string().trim().max(BACKUP_CODE_INPUT_MAX).optional().or(z.literal("")),
});
export type EmailChangeRequestInput = z.infer<typeof emailChangeRequestSchema>;

/** A new password as the profile and reset forms word it; the server adds the common-password list (decision 009). */
export const newPasswordInput = z
  .string()
  .refine((p) => normalizePassword(p).length >= PASSWORD_MIN_LENGTH, { message: NEW_PASSWORD_TOO_SHORT })
  .refine((p) => normalizePassword(p).length <= PASSWORD_MAX_LENGTH, { message: `New password must be at most ${PASSWORD_MAX_LENGTH} characters` })
  .refine((p) => p.trim() !== "", { message: PASSWORD_BLANK });

const confirmationMatches = <T extends { newPassword: string; confirmPassword: string }>(v: T) =>
  normalizePassword(v.newPassword) === normalizePassword(v.confirmPassword);
const mismatch = { message: PASSWORDS_DONT_MATCH, path: ["confirmPassword"] };

/** PATCH /api/user/password: body currentPassword, newPassword (part 2 §7). */
export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, { message: "Current password is required" }).max(PASSWORD_MAX_LENGTH),
  newPassword: newPasswordInput,
});
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

/** The Change Password form: the call's fields plus the confirmation (part 2 §5). */
export const passwordChangeFormSchema = passwordChangeSchema
  .extend({ confirmPassword: z.string().min(1, { message: "Please confirm your new password" }) })
  .refine(confirmationMatches, mismatch);
export type PasswordChangeForm = z.infer<typeof passwordChangeFormSchema>;

// ---- Forgotten password (not in the spec; issue 15) ----

/** A reset link works for this long, once. */
export const PASSWORD_RESET_VALID_MINUTES = 30;

export const passwordResetRequestSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email({ message: "Please enter a valid email address" })),
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

export const passwordResetSchema = z
  .object({
    token: z.string().trim().regex(/^[A-Za-z0-9_-]{20,100}$/, { message: "This reset link is invalid." }),
    newPassword: newPasswordInput,
    confirmPassword: z.string().min(1, { message: "Please confirm your new password" }),
  })
  .refine(confirmationMatches, mismatch);
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;

/** The same answer whether or not an account has that e-mail. */
export const PASSWORD_RESET_SENT = "If an account exists for that email, we've sent a link to reset the password.";
export const PASSWORD_RESET_DONE = "Your password has been reset. Log in with your new password.";
export const PASSWORD_RESET_INVALID = "This reset link is invalid or has expired. Request a new one.";
