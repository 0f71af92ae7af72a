import { dictionary } from "@zxcvbn-ts/language-common";
import { PASSWORD_MIN_LENGTH } from "../../shared/constants";
import { normalizePassword, PASSWORD_TOO_COMMON, passwordRuleBroken } from "../../shared/schemas/password";
import { badRequest } from "../http/errors";

// The whole policy for a password being set (decision 009): the shared rules the forms check too, plus the
// common-password list, which lives only here so the client bundle does not carry it. Registering, joining by
// invitation, and any later password change or reset call assertAcceptablePassword.

/** OWASP ASVS 2.1.7: the 10,000 most common passwords that the length rule would otherwise let through. */
export const COMMON_PASSWORDS_CHECKED = 10_000;

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  // zxcvbn-ts ranks its list most common first (lower case); unpacking it once costs a few milliseconds.
  common ??= new Set(
    dictionary["passwords-common"].filter((p) => p.length >= PASSWORD_MIN_LENGTH).slice(0, COMMON_PASSWORDS_CHECKED),
  );
  return common;
}

/** True for one of the most common passwords, whatever its case and surrounding spaces. */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(normalizePassword(password).trim().toLowerCase());
}

/** The rule a new password breaks, or null. */
export function passwordProblem(password: string, email: string): string | null {
  return passwordRuleBroken(password, email) ?? (isCommonPassword(password) ? PASSWORD_TOO_COMMON : null);
}

/** Throws 400 naming field `password` when a password being set breaks the policy. */
export function assertAcceptablePassword(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw badRequest(problem, { password: problem });
}
