import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logInAs } from "./helpers/auth";
import { launchBrowser, newPage } from "./helpers/browser";
import { waitForHeading, waitForPath, waitForToast } from "./helpers/page";
import { startServer, type RunningServer } from "./helpers/server";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.remove();
});

describe("the dealership switcher (part 1 §2.9)", () => {
  it("lets a member of two dealerships switch, with the role of the new one, and remembers the choice", async () => {
    const { page, context } = await newPage(browser, server.url);
    await logInAs(page, "multi");
    await waitForHeading(page, "Dashboard");
    const switcher = page.getByTestId("dealership-switcher");
    expect(await switcher.textContent()).toContain("Northside Motors");
    expect(await page.getByTestId("dashboard-dealership").textContent()).toBe("Northside Motors");
    expect(await page.getByTestId("user-menu-role").textContent()).toBe("Management");

    await switcher.click();
    await page.getByRole("menuitemradio", { name: /Lakeshore Auto Group/ }).click();
    await waitForToast(page, "Dealership switched");
    await page.getByTestId("dashboard-dealership").filter({ hasText: "Lakeshore Auto Group" }).waitFor();
    await page.getByTestId("user-menu-role").filter({ hasText: "Sales" }).waitFor();

    await page.reload();
    await page.getByTestId("dashboard-dealership").filter({ hasText: "Lakeshore Auto Group" }).waitFor();
    expect(await page.getByTestId("dealership-switcher").textContent()).toContain("Lakeshore Auto Group");
    await context.close();
  });

  it("is not shown to someone in a single dealership", async () => {
    const { page, context } = await newPage(browser, server.url);
    await logInAs(page, "sales");
    await waitForHeading(page, "Dashboard");
    expect(await page.getByTestId("dealership-switcher").count()).toBe(0);
    await context.close();
  });
});

describe("losing the session (part 1 §2.1, §8)", () => {
  it("shows 'Unauthorized / You are logged out. Logging in again...' and goes to /auth", async () => {
    const { page, context } = await newPage(browser, server.url);
    await logInAs(page, "multi");
    await waitForHeading(page, "Dashboard");
    await context.clearCookies();
    await page.getByTestId("dealership-switcher").click();
    await page.getByRole("menuitemradio").filter({ hasNotText: (await page.getByTestId("dashboard-dealership").textContent())! }).click();
    const toast = await waitForToast(page, "Unauthorized");
    expect(toast).toContain("You are logged out. Logging in again...");
    await waitForPath(page, "/auth");
    await waitForHeading(page, "Welcome back");
    await context.close();
  });
});
