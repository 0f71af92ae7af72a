import { z } from "zod";
import { messageSchema, timestamp } from "./fields";
import { currentUserSchema } from "./auth";

// What the profile, password, session, two-factor and password-reset calls answer (decision 053).

export const twoFactorStatusSchema = z.strictObject({
  enabled: z.boolean(),
  /** Unused backup codes left (0 when two-factor is off). */
  backupCodesLeft: z.number().int().min(0),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** Setup: the secret, its otpauth URI as a QR image (data URL), and the key grouped for typing (part 2 §3). */
export const twoFactorSetupSchema = z.strictObject({
  secret: z.string().min(16),
  qrCodeUrl: z.string().startsWith("data:image/png;base64,"),
  manualEntryKey: z.string().min(16),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

export const backupCodesSchema = z.strictObject({
  backupCodes: z.array(z.string().regex(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/)).min(1),
});
export type BackupCodes = z.infer<typeof backupCodesSchema>;

export const avatarSchema = z.strictObject({ profileImageUrl: z.string().startsWith("/api/avatars/") });
export type AvatarResponse = z.infer<typeof avatarSchema>;

export const passwordChangedSchema = z.strictObject({ message: z.string().min(1), passwordChangedAt: timestamp });
export type PasswordChanged = z.infer<typeof passwordChangedSchema>;

/** One signed-in device of the user (the profile's Active sessions card). */
export const activeSessionSchema = z.strictObject({
  /** Not the session id: a short handle to key the list by. */
  id: z.string().min(1),
  device: z.string(),
  ipAddress: z.string().nullable(),
  lastSeenAt: timestamp,
  signedInAt: timestamp,
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;

/** The code is on its way to the new address; the e-mail changes when it is confirmed (decision 169). */
export const emailChangeRequestedSchema = z.strictObject({ message: z.string().min(1), email: z.email() });
export type EmailChangeRequested = z.infer<typeof emailChangeRequestedSchema>;

export const sessionsEndedSchema = z.strictObject({ ended: z.number().int().min(0) });

export const responses = {
  "PATCH /api/user/profile": currentUserSchema,
  "POST /api/user/email-verification/request": messageSchema,
  "POST /api/user/email-verification/confirm": currentUserSchema,
  "POST /api/user/email-change/request": emailChangeRequestedSchema,
  "POST /api/user/email-change/confirm": currentUserSchema,
  "POST /api/user/avatar": avatarSchema,
  "PATCH /api/user/password": passwordChangedSchema,
  "GET /api/user/sessions": z.array(activeSessionSchema),
  "POST /api/user/sessions/sign-out-others": sessionsEndedSchema,
  "GET /api/auth/2fa/status": twoFactorStatusSchema,
  "POST /api/auth/2fa/setup": twoFactorSetupSchema,
  "POST /api/auth/2fa/verify-setup": backupCodesSchema,
  "POST /api/auth/2fa/disable": twoFactorStatusSchema,
  "POST /api/auth/2fa/regenerate-backup-codes": backupCodesSchema,
  "POST /api/auth/password-reset/request": messageSchema,
  "POST /api/auth/password-reset/confirm": messageSchema,
} as const satisfies Record<string, z.ZodType>;
