import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../helpers/smtp-receiver";
import { logIn, logInAs, uniqueEmail } from "./helpers/auth";
import { launchBrowser, newPage } from "./helpers/browser";
import { waitForHeading, waitForPath, waitForToast } from "./helpers/page";
import { startServer, type RunningServer } from "./helpers/server";

// Joining a dealership by invitation, end to end in Chromium: the real server sends real mail to an SMTP server on
// 127.0.0.1, and the invitee follows the link and the code from their inbox (spec part 1 §2.2, §4; part 2 §2).

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

describe("joining a dealership by invitation", () => {
  const invitee = { email: uniqueEmail("invitee"), firstName: "Ivy", lastName: "Newhire", password: "secret123" };

  it("goes from the manager's invitation, through the e-mails, to the invitee signed in with the invited role", async () => {
    // The manager invites from the admin panel.
    const manager = await newPage(browser, server.url);
    await logInAs(manager.page, "management");
    await manager.page.getByRole("link", { name: "Admin Panel" }).click();
    await waitForPath(manager.page, "/admin");
    await waitForHeading(manager.page, "Admin Panel");
    await manager.page.getByRole("button", { name: "Invite User" }).click();
    await manager.page.getByRole("dialog").getByLabel("Email", { exact: true }).fill(invitee.email);
    await manager.page.getByLabel("First name").fill(invitee.firstName);
    await manager.page.getByLabel("Last name").fill(invitee.lastName);
    await manager.page.getByRole("combobox", { name: "Role" }).click();
    await manager.page.getByRole("option", { name: "Front Desk" }).click();
    await manager.page.getByRole("button", { name: "Send Invitation" }).click();
    expect(await waitForToast(manager.page, "Invitation Sent")).toContain(invitee.email);
    const pendingRow = manager.page.getByRole("listitem", { name: `${invitee.firstName} ${invitee.lastName}` });
    expect(await pendingRow.textContent()).toContain("Pending");

    // The invitation arrives; its link opens the sign-up form with the invitation shown.
    const invitation = await smtp.waitFor(invitee.email, { subject: /invited to join Northside Motors/ });
    const link = /(http:\/\/\S+\/auth\?\S+)/.exec(invitation.text)?.[1];
    expect(link).toBeDefined();
    const { page, context } = await newPage(browser, server.url);
    await page.goto(link!);
    await page.getByText("You've been invited to join Northside Motors as Front Desk").waitFor();
    expect(await page.getByLabel("Dealership name").count()).toBe(0);
    expect(await page.getByLabel("Email", { exact: true }).inputValue()).toBe(invitee.email);

    await page.getByLabel("First name").fill(invitee.firstName);
    await page.getByLabel("Last name").fill(invitee.lastName);
    await page.getByLabel("Password", { exact: true }).fill(invitee.password);
    await page.getByLabel("Confirm password").fill(invitee.password);
    const mailsBefore = smtp.mailsTo(invitee.email).length;
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.getByText(`Enter the 6-digit code sent to ${invitee.email}`).waitFor();
    await waitForToast(page, "Verification Code Sent");

    // A wrong code is refused; the code from the e-mail completes the registration.
    const code = codeIn(await smtp.waitFor(invitee.email, { subject: /verification code/, since: mailsBefore }));
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    await page.getByLabel("Verification code").fill(wrong);
    await page.getByRole("button", { name: "Complete Registration" }).click();
    expect(await waitForToast(page, "Verification Failed")).toContain("Invalid or expired verification code.");
    await page.getByLabel("Verification code").fill(code);
    await page.getByRole("button", { name: "Complete Registration" }).click();
    await waitForPath(page, "/");
    await waitForToast(page, "Registration Complete");
    await waitForHeading(page, "Dashboard");
    expect(await page.getByTestId("dashboard-dealership").textContent()).toBe("Northside Motors");
    expect(await page.getByTestId("user-menu-role").textContent()).toBe("Front Desk");
    // Front desk has no admin panel.
    expect(await page.getByRole("link", { name: "Admin Panel" }).count()).toBe(0);
    await page.goto("/admin");
    await page.getByText("Access Denied").waitFor();
    await context.close();

    // The manager now sees them as an active member, no longer pending.
    await manager.page.reload();
    const memberRow = manager.page.getByRole("listitem", { name: `${invitee.firstName} ${invitee.lastName}` });
    await memberRow.getByText("Active").waitFor();
    expect(await memberRow.textContent()).toContain("Front Desk");
    await manager.context.close();
  });

  it("lets the manager promote the new member, which they see at once", async () => {
    const manager = await newPage(browser, server.url);
    await logInAs(manager.page, "management");
    await manager.page.goto("/admin");
    await manager.page.getByRole("button", { name: `Actions for ${invitee.firstName} ${invitee.lastName}` }).click();
    await manager.page.getByRole("menuitem", { name: "Change Role" }).click();
    await manager.page.getByRole("combobox", { name: "New role" }).click();
    await manager.page.getByRole("option", { name: "Management" }).click();
    await manager.page.getByRole("button", { name: "Update Role" }).click();
    await waitForToast(manager.page, "Role Updated");
    await manager.context.close();

    const { page, context } = await newPage(browser, server.url);
    await logIn(page, invitee.email, invitee.password);
    await page.getByRole("link", { name: "Admin Panel" }).click();
    await waitForHeading(page, "Admin Panel");
    await page.getByRole("tab", { name: "Email Notifications" }).click();
    await page.getByText("Unattended Leads Reminder").first().waitFor();
    await context.close();
  });

  it("lets an existing user join another dealership with the e-mailed code and their password, then switch to it", async () => {
    const existing = "lakeshore.manager@demo.showroom";
    const manager = await newPage(browser, server.url);
    await logInAs(manager.page, "management");
    await manager.page.goto("/admin");
    await manager.page.getByRole("button", { name: "Invite User" }).click();
    await manager.page.getByRole("dialog").getByLabel("Email", { exact: true }).fill(existing);
    await manager.page.getByLabel("First name").fill("Lee");
    await manager.page.getByLabel("Last name").fill("Shore");
    await manager.page.getByRole("combobox", { name: "Role" }).click();
    await manager.page.getByRole("option", { name: "Sales" }).click();
    await manager.page.getByRole("button", { name: "Send Invitation" }).click();
    await waitForToast(manager.page, "Invitation Sent");
    await manager.context.close();

    const invitation = await smtp.waitFor(existing, { subject: /invited to join Northside Motors/ });
    const link = /(http:\/\/\S+\/auth\?\S+)/.exec(invitation.text)![1]!;
    const { page, context } = await newPage(browser, server.url);
    await page.goto(link);
    await page.getByText("You've been invited to join Northside Motors as Sales").waitFor();
    await page.getByLabel("First name").fill("Lee");
    await page.getByLabel("Last name").fill("Shore");
    await page.getByLabel("Password", { exact: true }).fill("showroom123");
    await page.getByLabel("Confirm password").fill("showroom123");
    const before = smtp.mailsTo(existing).length;
    await page.getByRole("button", { name: "Create Account" }).click();
    const code = codeIn(await smtp.waitFor(existing, { subject: /verification code/, since: before }));
    await page.getByLabel("Verification code").fill(code);
    await page.getByRole("button", { name: "Complete Registration" }).click();
    await waitForPath(page, "/");
    await waitForHeading(page, "Dashboard");
    expect(await page.getByTestId("dashboard-dealership").textContent()).toBe("Northside Motors");
    expect(await page.getByTestId("user-menu-role").textContent()).toBe("Sales");
    // Two dealerships now: the switcher appears.
    await page.getByTestId("dealership-switcher").waitFor();
    await context.close();
  });
});
