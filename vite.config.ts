import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import { parseRouteTable } from "./src/server/http/static-routes";

const CLIENT = fileURLToPath(new URL("./src/client", import.meta.url));
const OUT = fileURLToPath(new URL("./dist/client", import.meta.url));

/**
 * What the server needs to write each address's first-screen files into index.html (src/server/http/static.ts,
 * decision 125): routes.tsx's route table, beside Vite's manifest in dist/client/.vite (never served).
 */
function firstScreenRoutes(): Plugin {
  return {
    name: "showroom-first-screen-routes",
    apply: "build",
    writeBundle() {
      const resolve = (specifier: string) =>
        [".tsx", ".ts"].map((ext) => specifier + ext).find((file) => existsSync(path.join(CLIENT, file))) ?? `${specifier}.tsx`;
      const table = parseRouteTable(readFileSync(path.join(CLIENT, "routes.tsx"), "utf8"), resolve);
      writeFileSync(path.join(OUT, ".vite/first-screen-routes.json"), JSON.stringify(table, null, 2));
    },
  };
}

/**
 * Brotli (best quality) and gzip copies of every script, style and SVG, served as they are by @fastify/static
 * (preCompressed): smaller than compressing per request at a fast level, and no CPU spent on it per visit.
 */
function precompress(): Plugin {
  return {
    name: "showroom-precompress",
    apply: "build",
    closeBundle() {
      const dirs = [OUT, path.join(OUT, "assets")];
      for (const dir of dirs) {
        for (const name of readdirSync(dir).filter((f) => /\.(js|css|svg|json)$/.test(f))) {
          const bytes = readFileSync(path.join(dir, name));
          writeFileSync(path.join(dir, `${name}.br`), brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(path.join(dir, `${name}.gz`), gzipSync(bytes, { level: 9 }));
        }
      }
    },
  };
}

/**
 * The first screens' code in a few files instead of dozens (issue 12). Left to itself the bundler gives every module
 * shared by a different set of pages its own chunk: the dashboard's first screen was 49 files of which 40 under 2 KiB,
 * and a phone on HTTP/1.1 fetches six at a time, a round trip each. Modules the sign-in page or the dashboard (with the
 * app shell) import statically, and the shell's own entry does not, go in one chunk per first screen and one for what
 * both share. The pages' own modules keep their chunks. Other pages load these chunks too when they use a module in
 * them: a few KiB more on a later screen, usually from the cache already.
 */
const FIRST_SCREENS = {
  auth: ["auth/AuthPage.tsx"],
  dashboard: ["components/shell/app-shell.tsx", "dashboard/DashboardPage.tsx"],
};
const MAIN_ENTRY = "main.tsx";
const OWN_MODULE = /[\\/]src[\\/](client|shared)[\\/]/;
const ICON = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/;

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

function firstScreenChunks(): (id: string, ctx: ModuleGraph) => string | null {
  let sets: { main: Set<string>; auth: Set<string>; dashboard: Set<string>; roots: Set<string> } | null = null;
  const closure = (roots: string[], ctx: ModuleGraph) => {
    const seen = new Set<string>();
    const todo = [...roots];
    while (todo.length) {
      const id = todo.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const info = ctx.getModuleInfo(id);
      // Static imports only: what a page loads later (import()) stays out of the first screen.
      const later = new Set(info?.dynamicallyImportedIds ?? []);
      todo.push(...(info?.importedIds ?? []).filter((imported) => !later.has(imported)));
    }
    return seen;
  };
  const file = (name: string) => path.join(CLIENT, name);
  return (id, ctx) => {
    sets ??= {
      main: closure([file(MAIN_ENTRY)], ctx),
      auth: closure(FIRST_SCREENS.auth.map(file), ctx),
      dashboard: closure(FIRST_SCREENS.dashboard.map(file), ctx),
      roots: new Set([...FIRST_SCREENS.auth, ...FIRST_SCREENS.dashboard].map(file)),
    };
    if (sets.main.has(id) || sets.roots.has(id)) return null;
    // Our own modules only. A library's barrel (radix-ui, lucide-react's index) statically imports every part of it:
    // captured, the parts the pages never use would come along instead of being shaken out. Icons have their group.
    if (!OWN_MODULE.test(id)) return null;
    const auth = sets.auth.has(id);
    const dashboard = sets.dashboard.has(id);
    if (auth && dashboard) return "first-screens";
    if (auth) return "first-screen-auth";
    if (dashboard) return "first-screen-dashboard";
    return null;
  };
}

// The SPA lives in src/client and builds to dist/client, which the server serves (src/server/http/static.ts).
export default defineConfig({
  root: CLIENT,
  plugins: [react(), tailwindcss(), firstScreenRoutes(), precompress()],
  build: {
    outDir: OUT,
    emptyOutDir: true,
    sourcemap: false,
    // The server names each address's first-screen files from it (decision 125).
    manifest: true,
    rolldownOptions: {
      output: {
        // React and the router change rarely and every screen needs them: one file that stays cached across releases.
        // Everything else is left to the bundler's automatic splitting, so each lazy page (src/client/routes.tsx)
        // downloads only the code it uses (issue 12, decision 070; bench/BUNDLE.md).
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 2 },
            { name: firstScreenChunks(), priority: 1, includeDependenciesRecursively: false },
            // Icons (a few hundred bytes each) by the pages that use them, sets under 8 KB merged with their nearest.
            { name: "icons", test: ICON, entriesAware: true, entriesAwareMergeThreshold: 8000, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": { target: "http://localhost:5000", changeOrigin: false } },
  },
});
