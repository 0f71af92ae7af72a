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
          groups: [{ name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 1 }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": { target: "http://localhost:5000", changeOrigin: false } },
  },
});
