import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { logInAs } from "./auth";
import { seriousA11yFindings } from "./axe";
import { DESKTOP, newPage, PHONE } from "./browser";
import type { RunningServer } from "./server";

// The axe sweep of issue 12 at one viewport: every route and every dialog, as each role sees them. A serious or
// critical finding anywhere fails; each test lists everything it found so one run shows all there is to fix.
// tests/e2e/accessibility-*.e2e.ts run it at 1280 and at 375 px, each file with its own server (two e2e workers).

class Sweep {
  readonly problems: string[] = [];
  constructor(private readonly page: Page, private readonly label: string) {}

  /** Opens a path, waits until its data has arrived, and checks it. */
  async visit(path: string): Promise<void> {
    await this.page.goto(path);
    await this.settle();
    await this.check(path);
  }

  async settle(): Promise<void> {
    await this.page.waitForLoadState("networkidle");
    await this.page.locator("[aria-busy='true']").first().waitFor({ state: "detached" }).catch(() => undefined);
  }

  async check(where: string): Promise<void> {
    // Animations settle first: a half-faded dialog would fail the contrast rule for no real reason.
    await this.page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    for (const f of await seriousA11yFindings(this.page)) {
      this.problems.push(`${this.label} ${where}: ${f.impact} ${f.id} (${f.help}) at ${f.targets.join(" | ")}`);
    }
  }

  /** Opens a dialog or menu with this button, checks it, and closes it with Escape. */
  async dialog(where: string, open: () => Promise<void>): Promise<void> {
    await open();
    await this.page.locator("[role='dialog'], [role='alertdialog'], [role='menu']").first().waitFor();
    await this.check(where);
    await this.page.keyboard.press("Escape");
    await this.page.locator("[role='dialog'], [role='alertdialog'], [role='menu']").first().waitFor({ state: "detached" });
  }
}

/** Registers the sweep's tests for one viewport; `suite` is the file's server and browser (useServerAndBrowser). */
export function axeSweep(size: string, viewport: { width: number; height: number }, suite: { server: RunningServer; browser: Browser }): void {
describe(`axe at ${size} px`, () => {
  it("finds nothing serious or critical on the signed-out screens", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
    const sweep = new Sweep(page, "signed out");
    await sweep.visit("/auth");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await sweep.check("/auth with the invitation check open");
    await sweep.visit("/auth?action=register");
    await sweep.visit("/reset-password?token=not-a-real-token");
    await sweep.visit("/email-redirect?to=/calendar");
    await sweep.visit("/no/such/page");
    expect(sweep.problems).toEqual([]);
    await context.close();
  });

  it("finds nothing serious or critical on a sales rep's screens, menus and dialogs", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
    await logInAs(page, "sales");
    const sweep = new Sweep(page, "sales");
    await sweep.visit("/");
    if (viewport === PHONE) await sweep.dialog("/ phone menu", () => page.getByRole("button", { name: "Open menu" }).click());
    await sweep.dialog("/ account menu", () => page.getByRole("button", { name: "Account menu" }).click());
    await sweep.dialog("/ notifications popover", () => page.getByRole("button", { name: /^Notifications, / }).click());
    // The shortcuts download after the first screen: press '?' until the help dialog is there (issue 11).
    await sweep.dialog("/ keyboard shortcuts help", async () => {
      for (let i = 0; i < 40 && (await page.getByRole("dialog").count()) === 0; i++) {
        await page.keyboard.press("Shift+?");
        await page.getByRole("dialog").waitFor({ timeout: 250 }).catch(() => undefined);
      }
    });
    await sweep.visit("/email-redirect?to=/leads/new");
    await sweep.visit("/leads/new");
    await sweep.dialog("/leads/new row menu", () => page.getByRole("button", { name: /^More actions for/ }).first().click());
    await page.getByRole("button", { name: /^More actions for/ }).first().click();
    await page.getByRole("menuitem", { name: "Delete Lead" }).click();
    await page.getByRole("alertdialog").waitFor();
    await sweep.check("/leads/new delete confirmation");
    await page.getByRole("button", { name: "Cancel" }).click();
    await sweep.visit("/leads/my");
    const detail = await page.getByRole("link", { name: "View Details" }).first().getAttribute("href");
    await sweep.visit(detail!);
    await sweep.visit("/leads/create");
    await sweep.visit("/calendar");
    await sweep.dialog("/calendar subscribe dialog", () => page.getByRole("button", { name: "Subscribe in your calendar" }).click());
    await sweep.dialog("/calendar cancel confirmation", () => page.getByRole("button", { name: /^Cancel .*'s appointment$/ }).first().click());
    await sweep.visit("/appointments/new");
    await sweep.visit("/test-drives");
    await sweep.dialog("/test-drives take-out dialog", () => page.getByRole("button", { name: "Take Out Demo" }).first().click());
    await sweep.visit("/test-drives/book");
    await sweep.visit("/profile");
    expect(sweep.problems).toEqual([]);
    await context.close();
  });

  it("finds nothing serious or critical on management's screens and dialogs", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
    await logInAs(page, "management");
    const sweep = new Sweep(page, "management");
    await sweep.visit("/admin");
    await sweep.dialog("/admin invite dialog", () => page.getByRole("button", { name: "Invite User" }).first().click());
    await page.getByRole("tab", { name: "Email Notifications" }).click();
    await sweep.settle();
    await sweep.check("/admin e-mail notifications");
    await page.getByRole("tab", { name: "Lead Intake" }).click();
    await sweep.settle();
    await sweep.check("/admin lead intake");
    await sweep.visit("/leads/my");
    await sweep.dialog("/leads/my import dialog", () => page.getByRole("button", { name: "Import", exact: true }).click());
    await sweep.visit("/sales-analytics");
    await sweep.visit("/tdus");
    await sweep.visit("/test-drives");
    await sweep.dialog("/test-drives add vehicle dialog", () => page.getByRole("button", { name: "Add Vehicle" }).click());
    expect(sweep.problems).toEqual([]);
    await context.close();
  });

  it("finds nothing serious or critical in the dealership switcher", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
    await logInAs(page, "multi");
    const sweep = new Sweep(page, "multi-dealership user");
    await sweep.visit("/");
    if (viewport === DESKTOP) {
      await sweep.dialog("/ dealership switcher", () => page.getByRole("button", { name: /^Switch dealership/ }).click());
    } else {
      await page.getByRole("button", { name: "Open menu" }).click();
      await page.getByRole("dialog").getByRole("button", { name: /^Switch dealership/ }).click();
      await page.getByRole("menu").waitFor();
      await sweep.check("/ phone menu's dealership switcher");
    }
    expect(sweep.problems).toEqual([]);
    await context.close();
  });

  it("finds nothing serious or critical on the platform administration screens and dialogs", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
    await logInAs(page, "platformAdmin");
    const sweep = new Sweep(page, "platform admin");
    await sweep.visit("/platform-admin");
    for (const tab of ["Dealerships", "Users"]) {
      await page.getByRole("tab", { name: tab }).click();
      await sweep.settle();
      await sweep.check(`/platform-admin ${tab}`);
    }
    await page.getByRole("tab", { name: "Dealerships" }).click();
    await sweep.dialog("/platform-admin add dealership dialog", () => page.getByRole("button", { name: "Add Dealership" }).click());
    await sweep.visit("/profile");
    expect(sweep.problems).toEqual([]);
    await context.close();
  });
});
}
