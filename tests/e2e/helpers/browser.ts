import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

// Debian's Chromium driven by playwright-core (no bundled browsers are downloaded).

/** The whole browser (Lighthouse runs it, bench/lighthouse.ts). */
export const FULL_CHROMIUM_PATH = "/usr/bin/chromium";
/**
 * The tests' browser: Chromium's headless shell when installed (Debian: chromium-headless-shell, the browser
 * Playwright itself runs headless tests in), the same Blink and V8 without the full browser's layers: a fifth less
 * CPU per test on this machine (decision 238). Else the whole Chromium; CHROMIUM_PATH picks another.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : FULL_CHROMIUM_PATH);
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A fresh browser context (own cookies and storage) pointed at the server. */
export async function newPage(browser: Browser, baseURL: string, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport, deviceScaleFactor: 1, reducedMotion: "reduce" });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}
