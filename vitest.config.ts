import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit and API tests. Two workers (this machine has 2 cores), and files share a worker's loaded modules
// (`isolate: false`): importing the server and its libraries once per worker instead of once per file halves the run.
// Every file closes what it opens (apps, databases, servers, fake timers), so nothing leaks into the next one.
//
// With TEST_DATABASE_URL (the second run of .ci/run, on the PostgreSQL server) only the files that touch the database
// run again: the rest test pure code, which does not change with the database.

const ROOTS = ["src", "tests/api"];
const TEST_FILE = /\.test\.ts$/;
// A file touches the database when it builds the app or a database, or starts the server.
const TOUCHES_DATABASE = /helpers\/test-app|helpers\/realtime-app|db\/client|TEST_DATABASE_URL|server\/main\.ts|startServer/;
// ...unless its first lines say why it runs on the embedded database only (issue 24: "a file that runs on one database
// only says why in its first lines").
const EMBEDDED_ONLY = /^\/\/ On the embedded database only: /m;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return TEST_FILE.test(entry.name) ? [full] : [];
  });
}

// Test files share helpers under tests/ (tests/api/fuzz/hostile-input.ts builds the app for three files): follow their
// relative imports that stay under tests/.
const RELATIVE_IMPORT = /from "(\.{1,2}\/[^"]+)"/g;

function touchesDatabase(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  if (TOUCHES_DATABASE.test(text)) return true;
  return [...text.matchAll(RELATIVE_IMPORT)]
    .map((m) => path.join(path.dirname(file), `${m[1]}.ts`))
    .filter((helper) => helper.startsWith("tests/") && existsSync(helper))
    .some((helper) => touchesDatabase(helper, seen));
}

export function databaseTestFiles(): string[] {
  return ROOTS.flatMap(testFiles).filter((file) => touchesDatabase(file) && !EMBEDDED_ONLY.test(readFileSync(file, "utf8").slice(0, 2_000)));
}

const onServer = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    include: onServer ? databaseTestFiles() : ROOTS.map((root) => `${root}/**/*.test.ts`),
    globalSetup: ["tests/helpers/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    isolate: false,
  },
});
