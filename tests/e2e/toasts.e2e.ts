import { describe, expect, it } from "vitest";
import { logInAs } from "./helpers/auth";
import { DESKTOP, newPage, PHONE } from "./helpers/browser";
import { toastLocator, waitForHeading, waitForToast } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// Issue 30, decision 217: a toast stays 4-5 s; where it stood (the top) it sat over the header's menus and the pages'
// action buttons. The toast is fixed to the viewport, so the rectangle the sign-in toast takes is the rectangle every
// toast takes on every page. None of the controls that stay put may lie under it: the header's, the navigation's (the
// sidebar, the phone's bottom bar) and each page's actions beside its title. (A list scrolling under it may pass below.)

const suite = useServerAndBrowser();

const PAGES = [
  { path: "/", heading: "Dashboard" },
  { path: "/leads/new", heading: "New Leads" },
  { path: "/leads/my", heading: "All Clients" },
  { path: "/test-drives", heading: "Test Drives" },
  { path: "/calendar", heading: "Calendar" },
  { path: "/admin", heading: "Admin Panel" },
];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

describe("a toast covers no control", () => {
  for (const [name, viewport] of [["1280 px", DESKTOP], ["375 px", PHONE]] as const) {
    it(`at ${name}, on the pages with action buttons`, async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "management");
      await waitForToast(page, "Login");
      const toast = (await toastLocator(page).first().boundingBox())!;
      expect(toast.height).toBeGreaterThan(0);
      for (const { path, heading } of PAGES) {
        await page.goto(path);
        await waitForHeading(page, heading);
        const covered = await page.evaluate((box: Box) => {
          const controls = document.querySelectorAll<HTMLElement>("button, a[href], input, select, textarea, [role=tab], [role=combobox]");
          const title = document.querySelector("main h1");
          const staysPut = (control: HTMLElement) =>
            control.closest("header, nav, aside") !== null || (title !== null && title.parentElement?.parentElement?.contains(control) === true);
          return Array.from(controls)
            .filter(staysPut)
            .filter((control) => {
              if (control.closest("li[data-variant]")) return false;
              const rect = control.getBoundingClientRect();
              if (rect.width === 0 || rect.height === 0 || getComputedStyle(control).visibility === "hidden") return false;
              return rect.left < box.x + box.width && rect.right > box.x && rect.top < box.y + box.height && rect.bottom > box.y;
            })
            .map((control) => (control.getAttribute("aria-label") ?? control.textContent ?? control.tagName).trim().slice(0, 40));
        }, toast);
        expect({ path, covered }).toEqual({ path, covered: [] });
      }
      await context.close();
    });
  }
});
