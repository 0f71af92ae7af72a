import { createContext, useContext, type ReactNode } from "react";
import { matchPath } from "react-router";

// Which route patterns exist for the signed-in person, so navigation and buttons appear only for pages that exist
// (routes of areas not built yet are absent; issue 2). Filled by src/client/routes.tsx.

const KnownRoutesContext = createContext<readonly string[]>([]);

export function KnownRoutesProvider({ patterns, children }: { patterns: readonly string[]; children: ReactNode }) {
  return <KnownRoutesContext.Provider value={patterns}>{children}</KnownRoutesContext.Provider>;
}

export function routeExists(patterns: readonly string[], path: string): boolean {
  const pathname = path.split("?")[0]!;
  return patterns.some((pattern) => matchPath({ path: pattern, end: true }, pathname) !== null);
}

/** Whether a page is routed at this path (e.g. "/leads/create", "/appointments/new?leadId=1"). */
export function useRouteExists(): (path: string) => boolean {
  const patterns = useContext(KnownRoutesContext);
  return (path) => routeExists(patterns, path);
}
