import { Navigate, useLocation } from "react-router";

// A signed-out visitor who opens a page that needs a sign-in (a bookmark, a pasted link) is sent to /auth with the
// page in ?next=, and lands there after signing in (issue 12). Unknown paths still show the not-found screen.

const NEXT_PARAM = "next";

/** Where paths are resolved: the page's origin, or any one outside a browser (the checks only compare origins). */
const appOrigin = () => (typeof window === "undefined" ? "http://app.invalid" : window.location.origin);

/**
 * Only a path inside this app: never an absolute URL or a protocol-relative one to somewhere else. The path is read as
 * the browser will read it when navigating (tabs and newlines dropped, backslashes taken for slashes), so '/\t/evil.com'
 * is the other site it is; a path the browser would take off this origin made history.replaceState throw, and the page
 * that was about to go there stayed on its spinner (issue 23). Answers the path as the browser resolves it.
 */
export function safeAppPath(path: string | null | undefined): string | null {
  if (!path?.startsWith("/")) return null;
  const origin = appOrigin();
  let url: URL;
  try {
    url = new URL(path, origin);
  } catch {
    return null;
  }
  const resolved = url.pathname + url.search + url.hash;
  // '/..//evil.com' resolves to the path '//evil.com': on this origin, but another site once used as a link again.
  return url.origin === origin && !resolved.startsWith("//") ? resolved : null;
}

/** The sign-in address that comes back to this path afterwards. */
export function signInPathFor(path: string): string {
  return `/auth?${NEXT_PARAM}=${encodeURIComponent(path)}`;
}

/** The page to return to after signing in, from the /auth address's query. */
export function nextPathFrom(search: string): string | null {
  return safeAppPath(new URLSearchParams(search).get(NEXT_PARAM));
}

export function SignInFirst() {
  const { pathname, search, hash } = useLocation();
  return <Navigate to={signInPathFor(pathname + search + hash)} replace />;
}
