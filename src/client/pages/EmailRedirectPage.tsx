import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { EMAIL_REDIRECT_STORAGE_KEY } from "../../shared/constants";
import { useAuth } from "../auth/auth-provider";
import { safeAppPath } from "../auth/sign-in-first";
import { FullScreenSpinner } from "../components/ui/spinner";
import {
  HANDED_OFF_CLOSE_DELAY_MS,
  HANDED_OFF_FALLBACK_MS,
  TAB_CHECK_TIMEOUT_MS,
  TAB_FIRST_CHECK_DELAY_MS,
} from "../realtime/constants";
import { handToOpenTab } from "../realtime/tab-handoff";

// /email-redirect?to=<path> (part 2 §2 Email-redirect screen): where every notification e-mail links. Signed out: the
// target is kept under the email-redirect key and the person signs in first (useCompleteSignIn takes it from there).
// Signed in: an open tab of this browser is asked to show the page and this one closes; otherwise it opens here.
// Only a path of this app is followed: '//evil.com' or 'https://...' go to / (an open redirect is a phishing tool).

/** The page the link points at: a same-origin app path, never this page itself; '/' otherwise. */
export function redirectTarget(search: string): string {
  const path = safeAppPath(new URLSearchParams(search).get("to"));
  if (!path || path === "/email-redirect" || path.startsWith("/email-redirect?") || path.startsWith("/email-redirect#")) return "/";
  return path;
}

type Step = "starting" | "login" | "checking" | "handed-off" | "loading";

const TEXT: Record<Step, string> = {
  starting: "Loading...",
  login: "Redirecting to login...",
  checking: "Checking for existing tabs...",
  "handed-off": "Redirecting to existing tab...",
  loading: "Loading application...",
};

export function EmailRedirectPage() {
  const { user } = useAuth();
  const { search } = useLocation();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>(user ? "starting" : "login");
  const target = redirectTarget(search);
  const signedIn = Boolean(user);

  useEffect(() => {
    if (!signedIn) {
      try {
        localStorage.setItem(EMAIL_REDIRECT_STORAGE_KEY, target);
      } catch {
        // Storage unavailable (private mode): the sign-in's ?next= still brings them back.
      }
      navigate(`/auth?next=${encodeURIComponent(target)}`, { replace: true });
      return;
    }
    const timers: Array<ReturnType<typeof setTimeout>> = [];
    let cancelled = false;
    const goHere = () => {
      if (cancelled) return;
      setStep("loading");
      navigate(target, { replace: true });
    };
    timers.push(
      setTimeout(() => {
        setStep("checking");
        handToOpenTab(target, TAB_CHECK_TIMEOUT_MS)
          .catch(() => false)
          .then((handed) => {
            if (cancelled) return;
            if (!handed) return goHere();
            setStep("handed-off");
            timers.push(setTimeout(() => window.close(), HANDED_OFF_CLOSE_DELAY_MS));
            // A tab the script did not open may refuse to close: then show the page here after all.
            timers.push(setTimeout(goHere, HANDED_OFF_CLOSE_DELAY_MS + HANDED_OFF_FALLBACK_MS));
          });
      }, TAB_FIRST_CHECK_DELAY_MS),
    );
    return () => {
      cancelled = true;
      timers.forEach(clearTimeout);
    };
  }, [signedIn, target, navigate]);

  return <FullScreenSpinner label={TEXT[step]} />;
}
