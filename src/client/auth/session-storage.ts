import { EMAIL_REDIRECT_STORAGE_KEY } from "../../shared/constants";
import { safeAppPath } from "./sign-in-first";

// Local storage rules of part 1 §2.1 and §4.

/** The path to open after login (stored by /email-redirect), removed as it is read. */
export function takeRedirectPath(): string | null {
  try {
    const path = localStorage.getItem(EMAIL_REDIRECT_STORAGE_KEY);
    localStorage.removeItem(EMAIL_REDIRECT_STORAGE_KEY);
    return safeAppPath(path);
  } catch {
    return null;
  }
}

/** At logout: the redirect path and every key whose name contains user, auth or dealership. */
export function clearPersonalStorage(): void {
  try {
    localStorage.removeItem(EMAIL_REDIRECT_STORAGE_KEY);
    const doomed: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && /user|auth|dealership/i.test(key)) doomed.push(key);
    }
    for (const key of doomed) localStorage.removeItem(key);
  } catch {
    // Storage unavailable (private mode): nothing to clear.
  }
}
