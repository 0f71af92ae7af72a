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
    globalSetup: ["tests/e2e/helpers/global-setup.ts"],
  },
});
