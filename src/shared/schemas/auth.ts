import { z } from "zod";
import { PASSWORD_MIN_LENGTH, VERIFICATION_CODE_LENGTH } from "../constants";
import { newPasswordField, normalizePassword, refuseEmailAsPassword } from "./password";

// Request schemas of sign-in and registration (part 1 §5). The forms and the server use these same objects.

export const emailField = z.string().trim().toLowerCase().pipe(z.email({ message: "Please enter a valid email" }));

export const loginSchema = z.object({
  email: emailField,
  password: z.string().min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` }),
  twoFactorCode: z.string().trim().max(9).optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

const nameField = (message: string) => z.string().trim().min(1, { message }).max(100);

// Compared after NFC, as the server stores it (decision 009).
const passwordsMatch = <T extends { password: string; confirmPassword: string }>(v: T) =>
  normalizePassword(v.password) === normalizePassword(v.confirmPassword);
const passwordsMismatch = { message: "Passwords don't match", path: ["confirmPassword"] };

export const registerSchema = z
  .object({
    firstName: nameField("First name is required"),
    lastName: nameField("Last name is required"),
    email: emailField,
    phone: z.string().trim().max(30).optional().or(z.literal("")),
    // A new password: the shared policy here, the common-password list on the server (decision 009).
    password: newPasswordField,
    confirmPassword: z.string(),
    dealershipName: z.string().trim().min(1, { message: "Dealership name is required" }).max(200),
    /**
     * The browser's time zone, sent unasked: the new dealership's clock (decision 191). A hint, not a field a person
     * fills: a name this server does not know falls back to the default instead of refusing the registration.
     */
    timezone: z.string().trim().max(100).optional(),
  })
  .refine(passwordsMatch, passwordsMismatch)
  .superRefine(refuseEmailAsPassword);
export type RegisterInput = z.infer<typeof registerSchema>;

export const invitationCheckSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email({ message: "Please enter a valid email address" })),
});

export const verificationCodeSchema = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`), { message: "Verification code must be 6 digits" });

export const currentDealershipSchema = z.object({ dealershipId: z.string().min(1, { message: "Dealership is required" }) });
