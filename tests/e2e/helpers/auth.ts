import type { Page } from "playwright-core";

// Signing in through the real /auth screen, as a person would.

export const DEMO_PASSWORD = "showroom123";

/** Demo logins created by SEED_DEMO=1 (src/server/db/seed-demo.ts). */
export const DEMO_USERS = {
  sales: "sales@demo.showroom",
  frontDesk: "frontdesk@demo.showroom",
  management: "manager@demo.showroom",
  multi: "multi@demo.showroom",
  lakeshoreManager: "lakeshore.manager@demo.showroom",
  platformAdmin: "admin@demo.showroom",
} as const;

export async function logIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/auth");
}

/** Signs in a demo user by role name. */
export async function logInAs(page: Page, who: keyof typeof DEMO_USERS): Promise<void> {
  await logIn(page, DEMO_USERS[who]);
}

export async function logOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Account menu" }).click();
  // Logout ends with a full page load of /auth (part 1 §4): wait for that new document's load event.
  const loaded = page.waitForEvent("load");
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
  await loaded;
  if (new URL(page.url()).pathname !== "/auth") throw new Error(`logout ended on ${page.url()}`);
}

export interface Registration {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  dealershipName: string;
  password: string;
}

export function uniqueEmail(prefix = "e2e"): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

export async function register(page: Page, who: Registration): Promise<void> {
  await page.goto("/auth?action=register");
  await page.getByLabel("First name").fill(who.firstName);
  await page.getByLabel("Last name").fill(who.lastName);
  await page.getByLabel("Email").fill(who.email);
  if (who.phone) await page.getByLabel("Phone number").pressSequentially(who.phone);
  await page.getByLabel("Dealership name").fill(who.dealershipName);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByLabel("Confirm password").fill(who.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL((url) => url.pathname !== "/auth");
}
