import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../helpers/smtp-receiver";
import { logIn, logInAs, uniqueEmail } from "./helpers/auth";
import { launchBrowser, newPage, PHONE } from "./helpers/browser";
import { dismissToast, shotIfAsked, waitForHeading, waitForPath, waitForToast } from "./helpers/page";
import { startServer, type RunningServer } from "./helpers/server";

// Platform administration end to end in Chromium (spec part 2 §2, §5, §8; part 1 §2.1): the real server sends real
// mail to an SMTP server on 127.0.0.1; a new dealership's admin signs up from the e-mailed invitation.

let smtp: SmtpReceiver;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startServer({ env: { SMTP_URL: smtp.url } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.remove();
  await smtp?.close();
});

const boss = { email: uniqueEmail("harbour-boss"), firstName: "Hana", lastName: "Harbour", password: "Harbour-cars-2026" };

async function openTab(page: Page, name: "Overview" | "Dealerships" | "Users"): Promise<void> {
  await page.getByRole("tab", { name, exact: true }).first().click();
}

describe("a platform admin running the installation", () => {
  it("creates a dealership, and its admin signs up from the e-mailed invitation as its manager", async () => {
    const { page, context } = await newPage(browser, server.url);
    await logInAs(page, "platformAdmin");
    await waitForPath(page, "/platform-admin");
    await page.getByRole("button", { name: /Create New Dealership/ }).click();
    // The quick action opens the Dealerships tab's "Add Dealership" dialog.
    const dialog = page.getByRole("dialog", { name: "Add Dealership" });
    await dialog.getByLabel("Dealership name").fill("Harbour Cars");
    await dialog.getByLabel("Address").fill("1 Quay St, Halifax");
    await dialog.getByLabel("Phone").pressSequentially("9025550111");
    await dialog.getByLabel("Admin email").fill(boss.email);
    await dialog.getByLabel("Admin first name").fill(boss.firstName);
    await dialog.getByLabel("Admin last name").fill(boss.lastName);
    await shotIfAsked(page, "platform-add-dealership");
    await dialog.getByRole("button", { name: "Create Dealership" }).click();
    expect(await waitForToast(page, "Dealership Created")).toContain(`an invitation was sent to ${boss.email}`);
    const row = page.getByRole("listitem", { name: "Harbour Cars" });
    expect(await row.textContent()).toContain("902-555-0111");

    // The Manage dialog shows the pending invitation of the admin.
    await row.getByRole("button", { name: "Manage" }).click();
    await page.getByRole("dialog").getByRole("tab", { name: "Invites" }).click();
    const pending = page.getByRole("listitem", { name: `${boss.firstName} ${boss.lastName}` });
    expect(await pending.textContent()).toMatch(/Management.*Pending.*Sent .* · Expires /);
    await context.close();

    // The invitee follows the e-mailed link and the code.
    const invitation = await smtp.waitFor(boss.email, { subject: /invited to join Harbour Cars/ });
    const link = /(http:\/\/\S+\/auth\?\S+)/.exec(invitation.text)?.[1];
    expect(link).toBeDefined();
    const invitee = await newPage(browser, server.url);
    await invitee.page.goto(link!);
    await invitee.page.getByText("You've been invited to join Harbour Cars as Management").waitFor();
    await invitee.page.getByLabel("First name").fill(boss.firstName);
    await invitee.page.getByLabel("Last name").fill(boss.lastName);
    await invitee.page.getByLabel("Password", { exact: true }).fill(boss.password);
    await invitee.page.getByLabel("Confirm password").fill(boss.password);
    const before = smtp.mailsTo(boss.email).length;
    await invitee.page.getByRole("button", { name: "Create Account" }).click();
    await invitee.page.getByText(`Enter the 6-digit code sent to ${boss.email}`).waitFor();
    const code = codeIn(await smtp.waitFor(boss.email, { subject: /verification code/, since: before }));
    await invitee.page.getByLabel("Verification code").fill(code);
    await invitee.page.getByRole("button", { name: "Complete Registration" }).click();
    await waitForPath(invitee.page, "/");
    await waitForHeading(invitee.page, "Dashboard");
    expect(await invitee.page.getByTestId("dashboard-dealership").textContent()).toBe("Harbour Cars");
    expect(await invitee.page.getByTestId("user-menu-role").textContent()).toBe("Management");
    await invitee.context.close();
  });

  it("grants another admin, who reaches the platform, then revokes them, and Recent Activity shows both", async () => {
    const { page, context } = await newPage(browser, server.url);
    await logInAs(page, "platformAdmin");
    await openTab(page, "Users");
    await page.getByPlaceholder("Email of an existing user").fill(boss.email);
    await page.getByRole("button", { name: "Grant Admin" }).click();
    expect(await waitForToast(page, "Admin Access Granted")).toContain(boss.email);
    const row = page.getByRole("list", { name: "Users" }).getByRole("listitem", { name: `${boss.firstName} ${boss.lastName}` });
    expect(await row.textContent()).toContain("Harbour Cars · Management");

    // The new admin lands in the platform shell.
    const granted = await newPage(browser, server.url);
    await logIn(granted.page, boss.email, boss.password);
    await waitForPath(granted.page, "/platform-admin");
    await granted.page.getByRole("heading", { name: /^Platform Administration/ }).waitFor();
    await granted.context.close();

    // Nobody can remove their own access: the control looks unavailable (aria-disabled) and says why when pressed.
    const me = page.getByRole("listitem", { name: "Pat Platform" });
    await dismissToast(page);
    await me.getByRole("button", { name: "Revoke admin from Pat Platform" }).click({ force: true });
    expect(await waitForToast(page, "Cannot Delete")).toContain("You cannot delete your own account.");

    await row.getByRole("button", { name: `Revoke admin from ${boss.firstName} ${boss.lastName}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke Admin" }).click();
    expect(await waitForToast(page, "Admin Access Revoked")).toContain(boss.email);
    await row.waitFor({ state: "detached" });

    await openTab(page, "Overview");
    const activity = page.getByRole("list", { name: "Recent activity" });
    await activity.getByText(`Revoked platform admin from ${boss.email}`).waitFor();
    expect(await activity.textContent()).toContain(`Granted platform admin to ${boss.email}`);
    expect(await activity.textContent()).toContain(`Created dealership Harbour Cars and invited ${boss.email} as Management`);
    await context.close();

    // Revoked: back to the dealership's own screens.
    const revoked = await newPage(browser, server.url);
    await logIn(revoked.page, boss.email, boss.password);
    await waitForHeading(revoked.page, "Dashboard");
    await revoked.context.close();
  });

  it("is usable on a phone: the tabs, the lists and the Manage dialog fit 375 px", async () => {
    const { page, context } = await newPage(browser, server.url, PHONE);
    await logInAs(page, "platformAdmin");
    await openTab(page, "Dealerships");
    await page.getByRole("listitem", { name: "Harbour Cars" }).getByRole("button", { name: "Manage" }).click();
    await page.getByRole("dialog").getByRole("tab", { name: "Users" }).click();
    await page.getByRole("listitem", { name: `${boss.firstName} ${boss.lastName}` }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shotIfAsked(page, "platform-manage-375");
    await context.close();
  });
});

describe("someone who is not a platform admin opening /platform-admin", () => {
  it("is told they have no platform admin privileges and sent to /", async () => {
    const { page, context } = await newPage(browser, server.url);
    await logInAs(page, "management");
    await waitForHeading(page, "Dashboard");
    await page.goto("/platform-admin");
    await waitForToast(page, "Access Denied: You don't have platform admin privileges");
    await waitForPath(page, "/");
    await waitForHeading(page, "Dashboard");
    expect(await page.getByRole("heading", { name: /^Platform Administration/ }).count()).toBe(0);
    await context.close();
  });
});
