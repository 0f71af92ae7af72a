import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The checkout's root (where package.json, drizzle/ and dist/ live). Found by walking up from this module, so it is the
 * same whether the server runs from its sources (src/server, under tsx) or from the build (dist/server/main.mjs).
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "drizzle"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no Showroom checkout above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
