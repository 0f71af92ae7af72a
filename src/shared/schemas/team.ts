import { z } from "zod";
import { DEALERSHIP_ROLES, PASSWORD_MIN_LENGTH } from "../constants";
import { emailField, verificationCodeSchema } from "./auth";
import { normalizePassword, PASSWORD_MAX_LENGTH, PASSWORD_TOO_SHORT } from "./password";

// Request schemas of the team area: invitations, sign-up by e-mail code, members, e-mail notifications
// (part 1 §5, part 2 §5). The forms and the server use these same objects.

/** How long an invitation stays pending (decision 030). */
export const INVITE_VALID_DAYS = 7;
/** How long an e-mailed sign-up code is accepted, and how many wrong tries burn it (decision 031). */
export const VERIFICATION_CODE_VALID_MINUTES = 10;
export const VERIFICATION_CODE_MAX_ATTEMPTS = 5;
/** A new code for the same e-mail is sent at most this often. */
export const VERIFICATION_CODE_RESEND_SECONDS = 30;

export const roleSchema = z.enum(DEALERSHIP_ROLES, { message: "Please choose a role" });

const requiredName = (message: string) => z.string().trim().min(1, { message }).max(100);

/** Part 2 §5: e-mail, first name, last name and role are all required in the admin panel's dialog. */
export const inviteSchema = z.object({
  email: emailField,
  firstName: requiredName("First name is required"),
  lastName: requiredName("Last name is required"),
  role: roleSchema,
});
export type InviteInput = z.infer<typeof inviteSchema>;
export const INVITE_MISSING_INFORMATION = "Please enter email, first name, last name, and role.";

export const roleChangeSchema = z.object({ role: roleSchema });

export const triggerToggleSchema = z.object({ isActive: z.boolean({ message: "isActive must be true or false" }) });

export const subscriptionSchema = z.object({
  userId: z.string().min(1, { message: "User is required" }),
  triggerId: z.string().min(1, { message: "Trigger is required" }),
  isSubscribed: z.boolean({ message: "isSubscribed must be true or false" }),
});

export const emailVerificationRequestSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email({ message: "Please enter a valid email address" })),
});

/**
 * The invitee's new password, or the current password of an account the e-mail already has (decision 033): only
 * the length is judged here. The server applies the whole new-password policy when it creates the account
 * (decision 009), and the form shows its field error.
 */
const passwordField = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: PASSWORD_TOO_SHORT })
  .max(PASSWORD_MAX_LENGTH);
const passwordsMatch = (v: { password: string; confirmPassword: string }) =>
  normalizePassword(v.password) === normalizePassword(v.confirmPassword);

/** Part 1 §5: e-mail verification completion. */
export const emailVerificationVerifySchema = z
  .object({
    email: emailField,
    code: verificationCodeSchema,
    firstName: requiredName("First name is required"),
    lastName: requiredName("Last name is required"),
    /** Not on the verification form; carried over when the invitee typed it in register mode. */
    phone: z.string().trim().max(30).optional().or(z.literal("")),
    password: passwordField,
    confirmPassword: z.string(),
  })
  .refine(passwordsMatch, { message: "Passwords don't match", path: ["confirmPassword"] });
export type EmailVerificationVerifyInput = z.infer<typeof emailVerificationVerifySchema>;

/**
 * POST /api/register for an invited e-mail: the register form without a dealership name (it is hidden when an
 * invitation exists, part 1 §2.2), plus the code that proves the e-mail is theirs (decision 032).
 */
export const invitedRegisterSchema = z
  .object({
    firstName: requiredName("First name is required"),
    lastName: requiredName("Last name is required"),
    email: emailField,
    phone: z.string().trim().max(30).optional().or(z.literal("")),
    password: passwordField,
    confirmPassword: z.string(),
    code: z.string({ message: "Enter the 6-digit code sent to your email to accept the invitation" }).pipe(verificationCodeSchema),
  })
  .refine(passwordsMatch, { message: "Passwords don't match", path: ["confirmPassword"] });

/** Shapes the client reads. */
export interface InviteLookup {
  dealershipName: string;
  role: (typeof DEALERSHIP_ROLES)[number];
}

export interface Invitation {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: (typeof DEALERSHIP_ROLES)[number];
  createdAt: string;
  invitedAt: string;
  expiresAt: string;
  status: "pending" | "accepted" | "expired";
}

export interface DealershipMember {
  userId: string;
  role: (typeof DEALERSHIP_ROLES)[number];
  active: boolean;
  addedAt: string;
  user: { id: string; firstName: string | null; lastName: string | null; email: string };
}

export interface EmailTrigger {
  id: string;
  dealershipId: string;
  name: string;
  displayName: string;
  description: string | null;
  isActive: boolean;
}

export interface EmailSubscription {
  id: string;
  userId: string;
  triggerId: string;
  isSubscribed: boolean;
}
