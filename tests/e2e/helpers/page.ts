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

/**
 * Starts watching for a toast containing this text before the action that raises it, and answers its full text. For
 * toasts the page navigates away from soon after (the logged-out toast leaves after 500 ms): the text is read inside
 * the page the moment the toast appears, not in a second round trip that a busy machine can lose to the navigation.
 */
export function captureToast(page: Page, text: string): Promise<string> {
  return page.evaluate(
    (wanted) =>
      new Promise<string>((resolve) => {
        const find = () =>
          Array.from(document.querySelectorAll("li[data-variant]"))
            .map((toast) => toast.textContent ?? "")
            .find((content) => content.includes(wanted));
        const seen = find();
        if (seen !== undefined) return resolve(seen);
        const observer = new MutationObserver(() => {
          const found = find();
          if (found === undefined) return;
          observer.disconnect();
          resolve(found);
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      }),
    text,
  );
}

/** Taps away the toast on screen, as a person does when it lies over the row they want (decision 217). */
export async function dismissToast(page: Page): Promise<void> {
  const toast = toastLocator(page).first();
  if ((await toast.count()) === 0) return;
  await toast.click().catch(() => undefined);
  await toast.waitFor({ state: "detached" });
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

/**
 * The controls in <main> that something else covers where one would click them: each is scrolled into view in turn
 * and the element at its centre must be the control or inside it. Answers their names.
 */
export async function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>("main a[href], main button, main input, main select, main textarea, main [role='combobox']")];
    const covered: string[] = [];
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      // Not for people: hidden from assistive technology (radix's native <select> mirror) or not drawn.
      if (control.closest("[aria-hidden='true']") || box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === "hidden") continue;
      // "end": the control at the bottom of the window, where anything fixed at the bottom would sit.
      control.scrollIntoView({ block: "end", inline: "nearest" });
      const r = control.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (hit && !control.contains(hit) && !hit.contains(control)) {
        covered.push(`${control.tagName.toLowerCase()} "${(control.getAttribute("aria-label") ?? control.textContent ?? "").trim().slice(0, 40)}" under ${hit.tagName.toLowerCase()} "${(hit.textContent ?? "").trim().slice(0, 40)}"`);
      }
    }
    window.scrollTo(0, 0);
    return covered;
  });
}

/**
 * Lets the page handle what was already sent to it and paint: two animation frames, then a task. Keyboard handlers run
 * while the key is dispatched, so after this a shortcut that was going to act has acted (and React has rendered it):
 * the way to check that something did NOT happen without a fixed wait.
 */
export async function settle(page: Page, frames = 2): Promise<void> {
  await page.evaluate(async (count) => {
    for (let i = 0; i < count; i++) await new Promise((r) => requestAnimationFrame(() => r(undefined)));
    await new Promise((r) => setTimeout(r, 0));
  }, frames);
}
