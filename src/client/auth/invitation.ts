import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api, errorStatus, serverMessage } from "../lib/api";
import { dismissToast, toast } from "../lib/toast";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import type { InviteLookup } from "../../shared/schemas/responses/team";
import type { AuthModeProps, AuthState, SignUpDraft } from "./modes";

/** The server's answer when the caps on code requests are reached (src/server/team/verification.ts). */
export const TOO_MANY_CODE_REQUESTS = "Too many verification codes requested";

/**
 * A 429 on the code request means "a code was sent a moment ago, use that one", unless it is the per-e-mail or
 * per-address cap (decision 008): then no code is coming and the person must be told.
 */
export function isCodeSentMomentsAgo(error: unknown): boolean {
  return errorStatus(error) === 429 && !serverMessage(error, "").startsWith(TOO_MANY_CODE_REQUESTS);
}

// Joining by invitation on /auth (part 1 §2.2, §4, §7, §8; decisions 030-033):
//   Sign Up → "Check Invitation" (GET /api/invites/email/{email}) → register mode "You've been invited to join …"
//   → Create Account asks for a code (POST /api/auth/email-verification/request) → e-mail verification mode
//   → Complete Registration (POST /api/auth/email-verification/verify) → signed in.

export function fetchInvitation(email: string): Promise<InviteLookup> {
  return api.get<InviteLookup>(`/api/invites/email/${encodeURIComponent(email)}`);
}

/** "Check Invitation" on the login screen. */
export function useInvitationCheck(go: AuthModeProps["go"]): {
  check: (email: string) => void;
  isChecking: boolean;
  /** The e-mail the last check found no invitation for: the screen offers to create a new dealership (issue 12). */
  notFoundFor: string | null;
} {
  const mutation = useMutation<InviteLookup, Error, string>({
    mutationFn: fetchInvitation,
    meta: { allowUnauthorized: true },
    onSuccess: (invitation, email) => {
      dismissToast(); // an earlier "Error" toast no longer applies
      go({ mode: "register", email, emailLocked: false, invitation, draft: undefined });
    },
    onError: (error) => {
      // No invitation is an answer, not a failure: the login screen's panel says it, with the way to start a dealership
      // beside it, instead of a red toast next to that friendly panel (issue 30, decision 224).
      if (errorStatus(error) !== 404) {
        toast({ title: "Error", description: "Unable to check for invitation. Please try again.", variant: "destructive" });
      }
    },
  });
  const notFoundFor = mutation.isError && errorStatus(mutation.error) === 404 ? (mutation.variables ?? null) : null;
  return { check: (email) => mutation.mutate(email), isChecking: mutation.isPending, notFoundFor };
}

const LINK_ERRORS: Record<string, { title: string; description: string }> = {
  invitation_not_found: { title: "Invitation Not Found", description: "This invitation may have expired or been used already." },
  invalid_invitation: { title: "Invalid Invitation", description: "The invitation link appears to be invalid." },
};

function readParam(name: string): string | null {
  const hash = window.location.hash;
  const hashQuery = new URLSearchParams(hash.includes("?") ? hash.slice(hash.indexOf("?") + 1) : hash.replace(/^#/, ""));
  return new URLSearchParams(window.location.search).get(name) ?? hashQuery.get(name);
}

/**
 * What the /auth link itself carries: ?error= shows its toast, and a register link with an e-mail (the
 * invitation e-mail's link) looks the invitation up so the form shows it. Answers true while looking.
 */
export function useInvitationLink(state: AuthState, go: AuthModeProps["go"]): boolean {
  const shouldCheck = state.mode === "register" && state.emailLocked && state.invitation === null;
  const [checking, setChecking] = useState(shouldCheck);
  const started = useRef(false);

  useEffect(() => {
    const error = readParam("error");
    const known = error ? LINK_ERRORS[error] : undefined;
    if (known) toast({ ...known, variant: "destructive" });
  }, []);

  useEffect(() => {
    if (!shouldCheck || started.current) return;
    started.current = true;
    fetchInvitation(state.email)
      .then((invitation) => go({ mode: "register", invitation }))
      .catch((error: unknown) => {
        if (errorStatus(error) === 404) toast({ ...LINK_ERRORS.invitation_not_found!, variant: "destructive" });
        else toast({ title: "Error", description: "Unable to check for invitation. Please try again.", variant: "destructive" });
      })
      .finally(() => setChecking(false));
  }, [shouldCheck, state.email, go]);

  return shouldCheck && checking;
}

/** POST /api/auth/email-verification/request with the toasts of part 1 §8. */
export function useSendCode() {
  return useMutation<MessageResponse, Error, string>({
    mutationFn: (email) => api.post<MessageResponse>("/api/auth/email-verification/request", { email }),
    meta: { allowUnauthorized: true },
    onSuccess: () => toast({ title: "Verification Code Sent", description: "Please check your email for the verification code.", variant: "success" }),
    onError: (error) =>
      toast({
        title: "Failed to Send Code",
        description: serverMessage(error, "Unable to send verification code. Please check your email address."),
        variant: "destructive",
      }),
  });
}

/** Create Account with an invitation: send the code, then the e-mail verification mode with what was typed. */
export function useInvitedSignUp(state: AuthState, go: AuthModeProps["go"]) {
  const mutation = useMutation<MessageResponse, Error, SignUpDraft & { email: string }>({
    mutationFn: ({ email }) => api.post<MessageResponse>("/api/auth/email-verification/request", { email }),
    meta: { allowUnauthorized: true },
    onSuccess: (_r, values) => {
      toast({ title: "Verification Code Sent", description: "Please check your email for the verification code.", variant: "success" });
      toVerify(values);
    },
    onError: (error, values) => {
      // A code sent moments ago (e.g. before going Back) is still valid: carry on with it. The per-e-mail and
      // per-address caps also answer 429 (decision 008): then no code is coming, so say so and stay.
      if (isCodeSentMomentsAgo(error)) {
        toast({ title: "Verification Code Sent", description: "We sent you a code a moment ago. Please check your email.", variant: "success" });
        toVerify(values);
        return;
      }
      toast({ title: "Failed to Send Code", description: serverMessage(error, "Unable to send verification code. Please check your email address."), variant: "destructive" });
    },
  });
  function toVerify({ email, firstName, lastName, phone, password, confirmPassword }: SignUpDraft & { email: string }) {
    go({ mode: "verify", email, invitation: state.invitation, draft: { firstName, lastName, phone, password, confirmPassword } });
  }
  return { isPending: mutation.isPending, start: (values: SignUpDraft & { email: string }) => mutation.mutate(values) };
}
