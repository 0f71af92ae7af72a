import { describe, expect, it } from "vitest";
import { logInAs } from "./helpers/auth";
import { newPage } from "./helpers/browser";
import { waitForPath } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

const suite = useServerAndBrowser();

describe("a platform admin's shell (part 2 §2)", () => {
  it("lands on /platform-admin in the simplified shell, with the platform's totals", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await logInAs(page, "platformAdmin");
    await waitForPath(page, "/platform-admin");
    // The page's own heading (the shell's subtitle says "Platform Administration" before the page has loaded).
    await page.getByRole("heading", { name: /^Platform Administration/ }).waitFor();
    expect(await page.getByTestId("user-menu-role").textContent()).toBe("Platform Admin");
    // No regular navigation.
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);

    const overview = (await (await page.request.get("/api/platform/overview")).json()) as Record<string, number>;
    expect(overview.totalDealerships).toBeGreaterThanOrEqual(2);
    for (const [key, label] of [
      ["totalDealerships", "Total Dealerships"],
      ["totalUsers", "Total Users"],
      ["totalLeads", "Total Leads"],
      ["totalAppointments", "Total Appointments"],
      ["totalTestDrives", "Test Drives"],
      ["totalEmailsSent", "Total Emails Sent"],
    ] as const) {
      expect(await page.getByText(label, { exact: true }).isVisible()).toBe(true);
      await page.getByTestId(`stat-${key}`).filter({ hasText: new RegExp(`^${overview[key]!.toLocaleString("en-US")}$`) }).waitFor();
    }
    await context.close();
  });

  it("sends /, /dashboard and any other path to /platform-admin", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await logInAs(page, "platformAdmin");
    for (const path of ["/", "/dashboard", "/auth", "/leads/new"]) {
      await page.goto(path);
      await waitForPath(page, "/platform-admin");
    }
    await page.getByRole("heading", { name: /^Platform Administration/ }).waitFor();
    await context.close();
  });
});
