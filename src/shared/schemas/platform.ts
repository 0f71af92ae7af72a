import { z } from "zod";
import { emailField } from "./auth";
import { optionalPhoneField } from "./lead";
import { roleSchema } from "./team";

// Request schemas of platform administration (part 2 §2, §5, §7). The platform screens' forms and the server use
// these same objects.

/** Rows per page of the platform lists; an installation has thousands of users (decision 091). */
export const PLATFORM_PAGE_SIZE = 25;
export const PLATFORM_PAGE_MAX = 100;
/** Entries of Recent Activity on the Overview. */
export const RECENT_ACTIVITY_SHOWN = 10;
/** Part 2 §7: the overview is fresh for 30 s and retried up to 2 times (not on 401); the dealerships list 5 s. */
export const PLATFORM_OVERVIEW_STALE_MS = 30_000;
export const PLATFORM_OVERVIEW_RETRIES = 2;
export const PLATFORM_DEALERSHIPS_STALE_MS = 5_000;

/** What the audit log records (decision 093): every platform action, by whom and when. */
export const PLATFORM_ACTIONS = [
  "admin_granted",
  "admin_revoked",
  "dealership_created",
  "dealership_updated",
  "dealership_deleted",
  "user_updated",
  "user_deleted",
  "member_role_changed",
  "member_removed",
  "invitation_sent",
  "invitation_resent",
  "invitation_deleted",
  "maintenance_run",
  "test_email_sent",
] as const;
export type PlatformAction = (typeof PLATFORM_ACTIONS)[number];

/** Part 2 §8: the one sentence for deleting or revoking oneself. */
export const CANNOT_DELETE_SELF = "You cannot delete your own account.";
export const LAST_PLATFORM_ADMIN = "The last platform admin cannot be revoked. Grant another admin first.";

const page = (max: number) =>
  z.coerce
    .number({ message: `Must be a number from 1 to ${max}` })
    .int({ message: `Must be a number from 1 to ${max}` })
    .min(1, { message: `Must be a number from 1 to ${max}` })
    .max(max, { message: `Must be a number from 1 to ${max}` });

/** ?search=&page=&pageSize= of the platform lists. */
export const platformListQuerySchema = z.object({
  search: z.string().trim().max(200, { message: "Search is too long" }).default(""),
  page: page(100_000).default(1),
  pageSize: page(PLATFORM_PAGE_MAX).default(PLATFORM_PAGE_SIZE),
});
export type PlatformListQuery = z.infer<typeof platformListQuerySchema>;

/** The Users tab lists platform admins (part 2 §2) or, with show=all, every user of the installation. */
export const platformUserListQuerySchema = platformListQuerySchema.extend({
  show: z.enum(["admins", "all"], { message: "show must be admins or all" }).default("admins"),
});
export type PlatformUserListQuery = z.infer<typeof platformUserListQuerySchema>;

/** Optional text: trimmed, empty or null means none (stored as null); a form may send its parsed values again. */
const optionalText = (max: number, message = `Must be at most ${max} characters`) =>
  z
    .string()
    .trim()
    .max(max, { message })
    .nullish()
    .transform((v) => (v ? v : null));

const optionalEmail = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => v === "" || z.email().safeParse(v).success, { message: "Please enter a valid email" })
  .nullish()
  .transform((v) => (v ? v : null));

const optionalPhone = optionalPhoneField;

const optionalWebsite = z
  .string()
  .trim()
  .max(200, { message: "Must be at most 200 characters" })
  .refine((v) => v === "" || /^(https?:\/\/)?[^\s/.]+\.[^\s]+$/i.test(v), { message: "Please enter a valid website" })
  .nullish()
  .transform((v) => (v ? v : null));

const requiredText = (message: string, max = 100) => z.string({ message }).trim().min(1, { message }).max(max);

/** Part 2 §3 Dealership; §5: update requires a name. */
export const dealershipDetailsSchema = z.object({
  name: requiredText("Dealership name is required", 200),
  address: optionalText(300),
  phone: optionalPhone,
  email: optionalEmail,
  website: optionalWebsite,
});
export type DealershipDetailsInput = z.input<typeof dealershipDetailsSchema>;

/** Part 2 §5: creation requires name, admin email, admin first name and last name; the admin is invited. */
export const dealershipCreateSchema = dealershipDetailsSchema.extend({
  adminEmail: z.string({ message: "Admin email is required" }).pipe(emailField),
  adminFirstName: requiredText("Admin first name is required"),
  adminLastName: requiredText("Admin last name is required"),
});
export type DealershipCreateInput = z.input<typeof dealershipCreateSchema>;

/** Part 2 §5: a platform invite needs an e-mail (trimmed); the role defaults to sales; names are optional. */
export const platformInviteSchema = z.object({
  email: z.string({ message: "Email is required" }).pipe(emailField),
  role: roleSchema.default("sales"),
  firstName: optionalText(100),
  lastName: optionalText(100),
});
export type PlatformInviteInput = z.input<typeof platformInviteSchema>;

/** PUT /api/platform/dealerships/{id}/users/{userId}/role (part 2 §7). */
export const platformRoleChangeSchema = z.object({ role: roleSchema });

/** Part 2 §5: grant admin requires a non-empty e-mail. */
export const grantAdminSchema = z.object({
  email: z.string({ message: "Email is required" }).trim().min(1, { message: "Email is required" }).pipe(emailField),
});

/** Part 2 §5: the platform user edit requires an e-mail; names and phone may be cleared. */
export const platformUserUpdateSchema = z.object({
  firstName: optionalText(100),
  lastName: optionalText(100),
  email: z.string({ message: "Email is required" }).trim().min(1, { message: "Email is required" }).pipe(emailField),
  phone: optionalPhone,
});
export type PlatformUserUpdateInput = z.input<typeof platformUserUpdateSchema>;

/** POST /api/platform/test-email: to the admin's own address unless another is given. */
export const testEmailSchema = z.object({ to: z.string().pipe(emailField).optional() });
