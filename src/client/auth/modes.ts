import type { InviteLookup } from "../../shared/schemas/responses/team";

// The /auth screen's modes (part 1 §2.2). AuthPage keeps one AuthState and renders the component of its mode
// (see auth-modes.tsx). The team area adds the e-mail verification mode (and two-factor) by adding a mode name here
// and a component there; the invitation check lives in invitation.ts.

export type AuthMode = "login" | "register" | "verify" | "twoFactor" | "forgot";

export interface AuthState {
  mode: AuthMode;
  /** Prefilled e-mail (from ?email=, the invitation check, or the login form). */
  email: string;
  /** The e-mail came from a link: shown locked, and the "Already have an account? Login" link is hidden. */
  emailLocked: boolean;
  /** Set when the e-mail has a pending invitation (team area). */
  invitation: InviteLookup | null;
  /** What the invitee typed in register mode, carried into the e-mail verification mode and back (team area). */
  draft?: SignUpDraft;
  /** The password of a sign-in that asked for the second factor: sent again with the code (part 1 §4). */
  pendingPassword?: string;
}

export interface SignUpDraft {
  firstName: string;
  lastName: string;
  phone?: string;
  password: string;
  confirmPassword: string;
}

export interface AuthModeProps {
  state: AuthState;
  /** Switch mode, keeping what is not given. */
  go: (next: Partial<AuthState> & { mode: AuthMode }) => void;
}

/**
 * Reads ?action=register|signup and ?email= from the query or the hash query (part 1 §2.2); ?action=forgot opens
 * "Forgot password?" (the reset screen links there when a link has expired).
 */
export function initialAuthState(search: string, hash: string): AuthState {
  const query = new URLSearchParams(search);
  const hashQuery = new URLSearchParams(hash.includes("?") ? hash.slice(hash.indexOf("?") + 1) : hash.replace(/^#/, ""));
  const read = (name: string) => query.get(name) ?? hashQuery.get(name);
  const action = read("action");
  const email = (read("email") ?? "").trim();
  return {
    mode: action === "register" || action === "signup" ? "register" : action === "forgot" ? "forgot" : "login",
    email,
    emailLocked: email !== "",
    invitation: null,
  };
}
