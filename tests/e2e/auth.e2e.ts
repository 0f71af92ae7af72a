import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, logOut, register, uniqueEmail } from "./helpers/auth";
import { launchBrowser, newPage } from "./helpers/browser";
import { localStorageKeys, toastLocator, waitForHeading, waitForPath, waitForToast } from "./helpers/page";
import { startServer, type RunningServer } from "./helpers/server";

let server: RunningServer;
let browser: Browser;
let page: Page;

const newcomer = {
  firstName: "Dana",
  lastName: "Dealer",
  email: uniqueEmail("dana"),
  phone: "4165550199",
  dealershipName: "Dana's Autos",
  password: "secret123",
};

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ page } = await newPage(browser, server.url));
});
afterAll(async () => {
  await browser?.close();
  await server?.remove();
});

describe("registration, logout and login in a real browser", () => {
  it("registers a new user, who lands on the dashboard of their new dealership inside the shell", async () => {
    await register(page, newcomer);
    await waitForPath(page, "/");
    expect(await waitForToast(page, "Account created!")).toContain("Account created!");
    await waitForHeading(page, "Dashboard");
    expect(await page.getByTestId("dashboard-dealership").textContent()).toBe("Dana's Autos");
    expect(await page.getByTestId("user-menu-name").textContent()).toBe("Dana Dealer");
    expect(await page.getByTestId("user-menu-role").textContent()).toBe("Management");
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).isVisible()).toBe(true);
    // One dealership: no switcher.
    expect(await page.getByTestId("dealership-switcher").count()).toBe(0);
  });

  it("logs out to /auth, ends the session and clears the user's local storage keys", async () => {
    await page.evaluate(() => {
      localStorage.setItem("lastDealershipId", "x");
      localStorage.setItem("authHint", "x");
      localStorage.setItem("emailRedirectPath", "/dashboard");
      localStorage.setItem("theme", "light");
    });
    await logOut(page);
    expect(await localStorageKeys(page)).toEqual(["theme"]);
    const me = await page.request.get("/api/user");
    expect(me.status()).toBe(401);
    await page.goto("/");
    await waitForPath(page, "/auth");
  });

  it("refuses a wrong password with the server's message and stays on /auth", async () => {
    await page.goto("/auth");
    await page.getByLabel("Email").fill(newcomer.email);
    await page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    const text = await waitForToast(page, "Login Failed");
    expect(text).toContain("Invalid email or password");
    expect(new URL(page.url()).pathname).toBe("/auth");
    // What was typed stays, so a typo is fixed without starting over.
    expect(await page.getByLabel("Email").inputValue()).toBe(newcomer.email);
  });

  it("lets a toast be dismissed by a click, and F8 moves focus to the toast area", async () => {
    await toastLocator(page).first().waitFor({ state: "visible" });
    await page.keyboard.press("F8");
    const focused = await page.evaluate(() => document.activeElement?.closest("[role=region]")?.getAttribute("aria-label") ?? null);
    expect(focused).toMatch(/F8/);
    await toastLocator(page).first().click();
    await toastLocator(page).first().waitFor({ state: "detached" });
  });

  it("logs in again and goes to the path stored under emailRedirectPath, removing it", async () => {
    await page.evaluate(() => localStorage.setItem("emailRedirectPath", "/dashboard"));
    await logIn(page, newcomer.email, newcomer.password);
    await waitForPath(page, "/dashboard");
    expect(await waitForToast(page, "Login Successful")).toContain("Welcome back!");
    await waitForHeading(page, "Dashboard");
    expect(await localStorageKeys(page)).not.toContain("emailRedirectPath");
  });

  it("refuses a second registration with the same e-mail and says why", async () => {
    const fresh = await newPage(browser, server.url);
    await fresh.page.goto("/auth?action=register");
    await fresh.page.getByLabel("First name").fill("Other");
    await fresh.page.getByLabel("Last name").fill("Person");
    await fresh.page.getByLabel("Email").fill(newcomer.email);
    await fresh.page.getByLabel("Dealership name").fill("Other Autos");
    await fresh.page.getByLabel("Password", { exact: true }).fill("secret123");
    await fresh.page.getByLabel("Confirm password").fill("secret123");
    await fresh.page.getByRole("button", { name: "Create Account" }).click();
    const text = await waitForToast(fresh.page, "Registration failed");
    expect(text).toContain("An account with this email already exists");
    await fresh.context.close();
  });
});

describe("the /auth screen's forms", () => {
  let p: Page;
  beforeAll(async () => {
    p = (await newPage(browser, server.url)).page;
  });

  it("shows the schema's messages in register mode, formats the phone, keeps an extension and refuses other letters", async () => {
    await p.goto("/auth?action=register");
    await waitForHeading(p, "Complete Your Registration");
    expect(await p.getByText("Create your account to get started").isVisible()).toBe(true);
    await p.getByLabel("Phone number").pressSequentially("41a6-555b0199");
    expect(await p.getByLabel("Phone number").inputValue()).toBe("416-555-0199");
    // "x" starts an extension (issue 29, decision 205).
    await p.getByLabel("Phone number").pressSequentially("x12");
    expect(await p.getByLabel("Phone number").inputValue()).toBe("416-555-0199 x12");
    await p.getByLabel("Password", { exact: true }).fill("secret123");
    await p.getByLabel("Confirm password").fill("secret124");
    await p.getByRole("button", { name: "Create Account" }).click();
    for (const message of ["First name is required", "Last name is required", "Please enter a valid email", "Dealership name is required", "Passwords don't match"]) {
      await p.getByText(message, { exact: true }).waitFor();
    }
    await p.getByRole("button", { name: "Already have an account? Login" }).click();
    await waitForHeading(p, "Welcome back");
  });

  it("Sign Up reveals the invitation e-mail box, validates it, and Enter checks it", async () => {
    await p.goto("/auth");
    await p.getByRole("button", { name: "Sign Up" }).click();
    const box = p.getByLabel("Enter your email to check for invitation");
    await box.fill("not-an-email");
    await box.press("Enter");
    await p.getByText("Please enter a valid email address").waitFor();
    await p.getByRole("button", { name: "Cancel" }).click();
    expect(await box.count()).toBe(0);
    await p.getByRole("button", { name: "Sign Up" }).click();
    await p.getByLabel("Enter your email to check for invitation").fill("nobody-invited@example.com");
    await p.getByLabel("Enter your email to check for invitation").press("Enter");
    const panel = p.getByTestId("no-invitation");
    await panel.getByText("No Invitation Found").waitFor();
    expect(await panel.textContent()).toContain("Please contact your dealership administrator for an invitation.");
    expect(await toastLocator(p).count()).toBe(0);
    await waitForHeading(p, "Welcome back");
  });

  it("?action=signup&email= opens register mode with the e-mail locked and no login link", async () => {
    await p.goto("/auth?action=signup&email=invited%40example.com");
    await waitForHeading(p, "Complete Your Registration");
    const email = p.getByLabel("Email");
    expect(await email.inputValue()).toBe("invited@example.com");
    expect(await email.getAttribute("readonly")).not.toBeNull();
    expect(await p.getByRole("button", { name: "Already have an account? Login" }).count()).toBe(0);
  });

  it("validates the login form with the shared schema", async () => {
    await p.goto("/auth");
    await p.getByLabel("Email").fill("nope");
    await p.getByLabel("Password", { exact: true }).fill("123");
    await p.getByLabel("Password", { exact: true }).press("Enter");
    await p.getByText("Please enter a valid email", { exact: true }).waitFor();
    await p.getByText("Password must be at least 6 characters").waitFor();
  });
});
