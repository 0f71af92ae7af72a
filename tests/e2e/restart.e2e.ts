import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, register, uniqueEmail } from "./helpers/auth";
import { launchBrowser, newPage } from "./helpers/browser";
import { waitForHeading } from "./helpers/page";
import { makeDataDir, startServer } from "./helpers/server";
import { rmSync } from "node:fs";

let browser: Browser;
const dataDir = makeDataDir();

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("data survives a restart", () => {
  it("keeps an account registered before the server stopped", async () => {
    const person = { firstName: "Remy", lastName: "Restart", email: uniqueEmail("remy"), dealershipName: "Restart Motors", password: "secret123" };
    const first = await startServer({ dataDir });
    const a = await newPage(browser, first.url);
    await register(a.page, person);
    await waitForHeading(a.page, "Dashboard");
    await a.context.close();
    expect(await first.stop()).toBe(0);

    const second = await startServer({ dataDir });
    try {
      const b = await newPage(browser, second.url);
      await logIn(b.page, person.email, person.password);
      await waitForHeading(b.page, "Dashboard");
      expect(await b.page.getByTestId("dashboard-dealership").textContent()).toBe("Restart Motors");
      await b.context.close();
    } finally {
      await second.stop();
    }
  });
});
