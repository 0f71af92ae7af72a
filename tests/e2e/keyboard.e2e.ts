import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_USERS, logInAs } from "./helpers/auth";
import { newPage, PHONE } from "./helpers/browser";
import { waitForHeading, waitForPath } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// Issue 12: every flow works by keyboard alone with a visible focus; dialogs trap focus and give it back.

const suite = useServerAndBrowser();

/** What has focus: its accessible-ish name, and whether anything shows it (an outline or a ring). */
async function focused(page: Page): Promise<{ name: string; visible: boolean; inDialog: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "<body>", visible: false, inDialog: false };
    const style = getComputedStyle(el);
    const visible = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none";
    const name = (el.getAttribute("aria-label") ?? el.textContent ?? el.getAttribute("name") ?? el.id ?? "").trim() || el.id;
    return { name: el.id ? `${name}#${el.id}` : name, visible, inDialog: Boolean(el.closest("[role='dialog'], [role='alertdialog']")) };
  });
}

/** Presses Tab until focus is on something whose name matches; fails after `max` presses. */
async function tabTo(page: Page, name: RegExp, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    if (name.test(now.name)) {
      expect(now.visible, `focus on "${now.name}" is not visible`).toBe(true);
      return;
    }
  }
  throw new Error(`Tab never reached ${name}`);
}

describe("by keyboard alone", () => {
  it("on a phone, signs in with Tab, typing and Enter, seeing where the focus is at each step", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto("/auth");
    await waitForHeading(page, "Welcome back");
    await tabTo(page, /#login-email$/);
    await page.keyboard.type(DEMO_USERS.sales);
    await tabTo(page, /#login-password$/, 3);
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press("Enter");
    await waitForPath(page, "/");
    await waitForHeading(page, "Dashboard");
    await context.close();
  });

  it("skips to the content with the first Tab, and opens and leaves the account menu with the keys", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await logInAs(page, "sales");
    await waitForHeading(page, "Dashboard");
    await page.keyboard.press("Tab");
    const skip = await focused(page);
    expect(skip).toMatchObject({ name: "Skip to content", visible: true });
    expect(await page.getByRole("link", { name: "Skip to content" }).isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    expect(new URL(page.url()).hash).toBe("#main");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");

    const account = page.getByRole("button", { name: /^Account menu/ });
    await account.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menu").waitFor();
    await page.locator("[role='menu'] [role='menuitem']:focus").waitFor();
    await page.keyboard.press("End");
    await page.locator("[role='menuitem']:focus", { hasText: "Sign Out" }).waitFor();
    expect((await focused(page)).visible).toBe(true);
    await page.keyboard.press("Escape");
    await page.getByRole("menu").waitFor({ state: "detached" });
    expect(await account.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it("keeps focus inside a dialog however often Tab is pressed, and gives it back to the button that opened it", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await logInAs(page, "management");
    await page.goto("/admin");
    await waitForHeading(page, "Admin Panel");
    const invite = page.getByRole("button", { name: "Invite User" }).first();
    await invite.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").waitFor();
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press("Tab");
      const now = await focused(page);
      expect(now.inDialog, `Tab ${i + 1} left the dialog for "${now.name}"`).toBe(true);
      expect(now.visible, `focus on "${now.name}" is not visible`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    expect(await invite.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it("gives focus back to a lead's menu button when the Delete dialog opened from that menu is dismissed", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await logInAs(page, "sales");
    await page.goto("/leads/new");
    const more = page.getByRole("button", { name: /^More actions for/ }).first();
    await more.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menu").waitFor();
    await page.getByRole("menuitem", { name: "Delete Lead" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("alertdialog").waitFor();
    expect((await focused(page)).inDialog).toBe(true);
    await page.keyboard.press("Escape");
    await page.getByRole("alertdialog").waitFor({ state: "detached" });
    expect(await more.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });
});

describe("less motion (WCAG 2.3.3, decision 238)", () => {
  it("opens the account menu at once for someone whose system asks for reduced motion, and animated for everyone else", async () => {
    const seconds: Record<string, number> = {};
    for (const reducedMotion of ["reduce", "no-preference"] as const) {
      const context = await suite.browser.newContext({ baseURL: suite.server.url, reducedMotion });
      const page = await context.newPage();
      await logInAs(page, "sales");
      await waitForHeading(page, "Dashboard");
      await page.getByRole("button", { name: "Account menu" }).click();
      const menu = page.getByRole("menu");
      await menu.waitFor();
      const duration = await menu.evaluate((el) => getComputedStyle(el).animationDuration);
      seconds[reducedMotion] = duration.endsWith("ms") ? parseFloat(duration) / 1000 : parseFloat(duration);
      await context.close();
    }
    expect(seconds.reduce).toBeLessThan(0.001);
    expect(seconds["no-preference"]).toBeGreaterThanOrEqual(0.1);
  });
});
