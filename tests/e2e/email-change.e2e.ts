import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../helpers/smtp-receiver";
import { totpAt } from "../helpers/totp";
import { register, uniqueEmail } from "./helpers/auth";
import { launchBrowser, newPage } from "./helpers/browser";
import { waitForHeading, waitForPath, waitForToast } from "./helpers/page";
import { startServer, type RunningServer } from "./helpers/server";

// The profile's e-mail in Chromium (decision 169), with real mail to an SMTP server on 127.0.0.1: the registration's
// code proves the address (Verify E-mail), new backup codes ask for the password, and changing the e-mail takes the
// password, a backup code (two-factor is on) and the code mailed to the new address; the old address is told.

let smtp: SmtpReceiver;
let server: RunningServer;
let browser: Browser;
let page: Page;

const person = { firstName: "Elena", lastName: "Moreno", email: uniqueEmail("elena"), dealershipName: "Moreno Motors", password: "Lot-keys-2026!" };
const newEmail = uniqueEmail("elena-new");
let backupCodes: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startServer({ env: { SMTP_URL: smtp.url } });
  browser = await launchBrowser();
  page = (await newPage(browser, server.url)).page;
  await register(page, person);
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Profile" }).click();
  await waitForPath(page, "/profile");
  await waitForHeading(page, "Profile");
});
afterAll(async () => {
  await page?.context().close();
  await browser?.close();
  await server?.remove();
  await smtp?.close();
});

describe("the profile's e-mail in a real browser", () => {
  it("proves the registered address with the code mailed at registration", async () => {
    expect(await page.getByTestId("email-verification").textContent()).toContain("Not verified");
    const code = codeIn(await smtp.waitFor(person.email, { subject: /Verify your Showroom e-mail/ }));
    await page.getByRole("button", { name: "Verify E-mail" }).click();
    await page.getByRole("dialog").getByLabel("Verification code").fill(code);
    await page.getByRole("dialog").getByRole("button", { name: "Verify", exact: true }).click();
    await waitForToast(page, "E-mail Verified");
    expect(await page.getByTestId("email-verification").textContent()).toContain("Verified");
    expect(await page.getByTestId("email-verification").textContent()).not.toContain("Not verified");
  });

  it("gets new backup codes only with the password once two-factor is on", async () => {
    await page.getByRole("button", { name: "Enable 2FA" }).click();
    const secret = ((await page.getByTestId("manual-entry-key").textContent()) ?? "").replace(/\s/g, "");
    await page.getByLabel("Verification code").fill(totpAt(secret, Date.now()));
    await page.getByRole("button", { name: "Verify and Enable" }).click();
    await page.getByTestId("backup-codes").waitFor();
    await page.getByRole("button", { name: "I've Saved My Codes" }).click();

    await page.getByRole("button", { name: "New Backup Codes" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Password", { exact: true }).fill("not-my-password");
    await dialog.getByRole("button", { name: "Get New Codes" }).click();
    await dialog.getByText("Incorrect password").waitFor();
    await dialog.getByLabel("Password", { exact: true }).fill(person.password);
    await dialog.getByRole("button", { name: "Get New Codes" }).click();
    await waitForToast(page, "Backup Codes Regenerated");
    backupCodes = (await page.getByTestId("backup-codes").locator("li").allTextContents()).map((c) => c.trim());
    expect(backupCodes).toHaveLength(10);
    await page.getByRole("button", { name: "I've Saved My Codes" }).click();
  });

  it("changes the e-mail after the password, a backup code and the code from the new address; the old address is told", async () => {
    await page.getByRole("button", { name: "Edit Profile" }).click();
    await page.getByLabel("Email Address").fill(newEmail);
    await page.getByRole("button", { name: "Save Changes" }).click();

    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Change Your E-mail" }).waitFor();
    await dialog.getByLabel("Current Password").fill(person.password);
    await dialog.getByLabel("Authentication code or backup code").fill(backupCodes[0]!);
    await dialog.getByRole("button", { name: "Send Code" }).click();
    const code = codeIn(await smtp.waitFor(newEmail, { subject: /Confirm your new Showroom e-mail/ }));
    // Nothing has changed yet.
    expect((await (await page.request.get("/api/user")).json()).email).toBe(person.email);

    await dialog.getByLabel("Verification code").fill(code);
    await dialog.getByRole("button", { name: "Change E-mail" }).click();
    expect(await waitForToast(page, "E-mail Changed")).toContain(newEmail);
    expect(await page.getByLabel("Email Address").inputValue()).toBe(newEmail);
    expect(await page.getByTestId("email-verification").textContent()).toContain("Verified");

    const notice = await smtp.waitFor(person.email, { subject: /Your Showroom e-mail was changed/ });
    expect(notice.text).toContain(newEmail);
  });
});
