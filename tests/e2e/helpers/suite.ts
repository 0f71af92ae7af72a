import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "./browser";
import { startServer, type RunningServer } from "./server";

/**
 * The real server (fresh data, demo seeded) and Chromium for one spec file, started before its tests and removed
 * after them. Read `suite.server` and `suite.browser` inside tests.
 */
export function useServerAndBrowser(options: Parameters<typeof startServer>[0] = {}): { server: RunningServer; browser: Browser } {
  const suite = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    suite.server = await startServer(options);
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.remove();
  });
  return suite;
}
