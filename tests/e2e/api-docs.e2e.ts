import { describe, expect, it } from "vitest";
import { expectAccessible } from "./helpers/axe";
import { DESKTOP, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// The API's documentation page (issue 28, decision 209) in a real browser: Redoc draws /api/openapi.json from our own
// address, nothing is asked of another host, the Content-Security-Policy is not broken, every operation and every
// webhook event is on the page, at 1280 and 375 px, axe clean.

const suite = useServerAndBrowser({ startupTimeoutMs: 400_000 });

describe("/api/docs", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`renders every operation and webhook event from our own assets at ${viewport.width} px`, async () => {
      const { server, browser } = suite;
      const { context, page } = await newPage(browser, server.url, viewport);
      const asked: string[] = [];
      const problems: string[] = [];
      page.on("request", (request) => asked.push(request.url()));
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));

      await page.goto("/api/docs");
      await page.getByRole("heading", { level: 1, name: /Showroom API/ }).waitFor({ timeout: 120_000 });
      const spec = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, object>; webhooks: Record<string, object> };
      const operations = Object.values(spec.paths).reduce((sum, path) => sum + Object.keys(path).length, 0);
      // Redoc gives each operation and each webhook a section of its own ("operation/<id>").
      await expect.poll(() => page.locator('[data-section-id^="operation/"]').count(), { timeout: 60_000 }).toBe(operations + Object.keys(spec.webhooks).length);
      await expect.poll(() => page.getByText("lead.created (version 1)").count()).toBeGreaterThan(0);
      await expect.poll(() => page.getByText("apiToken", { exact: true }).count()).toBeGreaterThan(0);

      const origin = new URL(server.url).origin;
      expect(asked.filter((url) => !url.startsWith(origin) && !url.startsWith("data:"))).toEqual([]);
      expect(asked).toContain(`${origin}/api/docs/redoc.js`);
      expect(asked).toContain(`${origin}/api/openapi.json`);
      expect(problems).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      await shotIfAsked(page, `api-docs-${viewport.width}`);
      await expectAccessible(page, `/api/docs at ${viewport.width} px`);
      await context.close();
      // Redoc lays out ~250 operations and axe reads them all: minutes on a busy 2-core machine.
    }, 300_000);
  }
});
