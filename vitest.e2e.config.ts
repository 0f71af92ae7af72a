import { defineConfig } from "vitest/config";

// End-to-end: real server processes and Debian's Chromium. One file at a time (2 cores), generous timeouts.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.e2e.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
  },
});
