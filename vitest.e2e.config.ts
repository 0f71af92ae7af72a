import { defineConfig } from "vitest/config";

// End-to-end: real server processes and Debian's Chromium, generous timeouts. One file at a time by default; each file
// has its own server, data directory and browser, so E2E_WORKERS=2 runs two at once (CI does: a page mostly waits).
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.e2e.ts"],
    maxWorkers: Number(process.env.E2E_WORKERS ?? 1),
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // CI retries a failed e2e test once (E2E_RETRY=1, decision 237); the reporter marks it "(retry x1)" so it is seen.
    retry: Number(process.env.E2E_RETRY ?? 0),
    globalSetup: ["tests/e2e/helpers/global-setup.ts"],
  },
});
