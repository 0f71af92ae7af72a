import type { AuthModeProps } from "./modes";

// "Check Invitation" on the login screen (part 1 §2.2, §4). The team area replaces the body with the real check
// (GET /api/invites/email/{email}, its toasts, and the verification mode). Until then the visitor goes on to
// registration with the e-mail they typed (decision 041).

export function useInvitationCheck(go: AuthModeProps["go"]): { check: (email: string) => void; isChecking: boolean } {
  return {
    check: (email) => go({ mode: "register", email, emailLocked: false, invitation: null }),
    isChecking: false,
  };
}
