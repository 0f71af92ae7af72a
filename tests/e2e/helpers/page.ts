import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";

// Small waiting helpers (playwright-core has no `expect`): each waits until the page shows something.

/** The toast on screen (one at a time, part 1 §9). */
export function toastLocator(page: Page): Locator {
  return page.locator("li[data-variant]");
}

/** Waits for a toast containing this text and answers its full text. */
export async function waitForToast(page: Page, text: string): Promise<string> {
  const toast = toastLocator(page).filter({ hasText: text });
  await toast.first().waitFor({ state: "visible" });
  return (await toast.first().textContent()) ?? "";
}

export async function waitForPath(page: Page, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname);
}

export async function waitForHeading(page: Page, name: string): Promise<void> {
  await page.getByRole("heading", { name, exact: true }).first().waitFor({ state: "visible" });
}

export async function localStorageKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(localStorage).sort());
}

/** Saves a screenshot to SHOTS_DIR when it is set (to look at screens while working); does nothing otherwise. */
export async function shotIfAsked(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}
