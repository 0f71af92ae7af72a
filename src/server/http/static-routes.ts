// Which page modules a visit to a path draws first, so that the server can name their files in the index.html it
// serves (<link rel="modulepreload">) and the browser fetches the whole first screen in one round instead of a
// waterfall (issue 12, decision 125). The table is read from src/client/routes.tsx at build time (vite.config.ts
// writes it beside Vite's manifest), never kept by hand: a route added there is preloaded without another edit.

export interface RouteEntry {
  path: string;
  /** The page's module, relative to src/client (a key of Vite's manifest). */
  module: string;
  /** userRoutes only: false when the page is drawn without the app shell. */
  shell: boolean;
}

export interface RouteTable {
  userRoutes: RouteEntry[];
  platformAdminRoutes: RouteEntry[];
  publicRoutes: RouteEntry[];
  openRoutes: RouteEntry[];
  appShell: string | null;
  platformAdminShell: string | null;
  notFound: string | null;
}

/** Who the server knows is asking: nobody signed in, a regular user, or a platform admin. */
export type Audience = "signed-out" | "user" | "platform-admin";

/**
 * Reads routes.tsx's `const X = page(() => import("./module"), ...)` lines and its four route lists
 * (`{ path: "...", element: <X /> }`). `resolve` turns "./auth/AuthPage" into the manifest key ("auth/AuthPage.tsx").
 */
export function parseRouteTable(source: string, resolve: (specifier: string) => string): RouteTable {
  const modules = new Map<string, string>();
  for (const m of source.matchAll(/const (\w+) = page\(\s*\(\) => import\("\.\/([^"]+)"\)/g)) modules.set(m[1]!, resolve(m[2]!));
  const list = (name: "userRoutes" | "platformAdminRoutes" | "publicRoutes" | "openRoutes"): RouteEntry[] => {
    const body = new RegExp(`export const ${name}\\b[^=]*=\\s*\\[([\\s\\S]*?)\\n?\\];`).exec(source)?.[1] ?? "";
    return [...body.matchAll(/\{\s*path: "([^"]+)", element: <(\w+) \/>(, shell: false)?/g)].flatMap((m) => {
      const module = modules.get(m[2]!);
      return module ? [{ path: m[1]!, module, shell: !m[3] }] : [];
    });
  };
  return {
    userRoutes: list("userRoutes"),
    platformAdminRoutes: list("platformAdminRoutes"),
    publicRoutes: list("publicRoutes"),
    openRoutes: list("openRoutes"),
    appShell: modules.get("AppShell") ?? null,
    platformAdminShell: modules.get("PlatformAdminShell") ?? null,
    notFound: modules.get("NotFoundPage") ?? null,
  };
}

/** The route of this list that draws this path (":param" matches one segment), as react-router matches it. */
export function matchPath(routes: RouteEntry[], pathname: string): RouteEntry | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return routes.find((route) => {
    const pattern = route.path.split("/").map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    return new RegExp(`^${pattern.join("/")}$`, "i").test(path);
  });
}

/**
 * The modules the first screen at this path draws for this audience, following routes.tsx's rules: open routes for
 * everyone; signed out, a signed-in path goes to /auth (and an unknown one to the 404 page); a regular user's unknown
 * path (and /auth) goes to the dashboard; a platform admin's to /platform-admin.
 */
export function firstScreenModules(table: RouteTable, pathname: string, audience: Audience): string[] {
  const open = matchPath(table.openRoutes, pathname);
  if (open) return [open.module];
  const withShell = (shell: string | null, route: RouteEntry | undefined) =>
    route ? [...(shell && route.shell ? [shell] : []), route.module] : [];
  if (audience === "signed-out") {
    const known = matchPath(table.publicRoutes, pathname);
    if (known) return [known.module];
    const signInFirst = pathname === "/" || matchPath(table.userRoutes, pathname) || matchPath(table.platformAdminRoutes, pathname);
    if (signInFirst) return table.publicRoutes.slice(0, 1).map((r) => r.module);
    return table.notFound ? [table.notFound] : [];
  }
  if (audience === "platform-admin") {
    const route = matchPath(table.platformAdminRoutes, pathname) ?? table.platformAdminRoutes[0];
    return withShell(table.platformAdminShell, route);
  }
  const route = matchPath(table.userRoutes, pathname) ?? matchPath(table.userRoutes, "/");
  return withShell(table.appShell, route);
}
