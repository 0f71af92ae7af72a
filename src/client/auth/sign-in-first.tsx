import { Navigate, useLocation } from "react-router";

// A signed-out visitor who opens a page that needs a sign-in (a bookmark, a pasted link) is sent to /auth with the
// page in ?next=, and lands there after signing in (issue 12). Unknown paths still show the not-found screen.

const NEXT_PARAM = "next";

/** Only a path inside this app: never an absolute URL or a protocol-relative one to somewhere else. */
export function safeAppPath(path: string | null | undefined): string | null {
  return path && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : null;
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
