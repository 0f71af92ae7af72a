import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_USERS, logInAs } from "./helpers/auth";
import { newPage } from "./helpers/browser";
import { waitForHeading, waitForPath } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// /email-redirect (part 2 §2): where notification e-mails link. An open tab of this browser takes the link and this
// one says 'Redirecting to existing tab...'; with none it opens here; signed out it signs in first and comes back;
// only paths of this app are followed.

const suite = useServerAndBrowser();

/** Every text the page has shown, in order (the spinner's label changes as it goes). */
async function recordTexts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { seenTexts: string[] }).seenTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector("[role='status'] p")?.textContent;
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const seenTexts = (page: Page) => page.evaluate(() => (window as unknown as { seenTexts?: string[] }).seenTexts ?? []);

describe("an e-mail link", () => {
  it("is handed to the tab already open, which goes to the page, while the new tab says so", async () => {
    const { page: a, context } = await newPage(suite.browser, suite.server.url);
    const socket = a.waitForEvent("websocket", { timeout: 60_000 });
    await logInAs(a, "sales");
    await a.goto("/leads/new");
    await waitForHeading(a, "New Leads");
    await socket; // the tab's live parts (and its hand-off listener) are loaded
    await a.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    const b = await context.newPage();
    await recordTexts(b);
    const closed = new Promise<boolean>((resolve) => b.once("close", () => resolve(true)));
    await b.goto("/email-redirect?to=/calendar");
    await waitForPath(a, "/calendar");
    expect(await a.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // B either closed itself or, when the browser would not let it, showed the page itself 1.5 s later.
    const outcome = await Promise.race([closed.then(() => "closed"), b.waitForURL((u) => u.pathname === "/calendar", { timeout: 10_000 }).then(() => "navigated")]);
    if (outcome === "navigated") expect(await seenTexts(b)).toEqual(expect.arrayContaining(["Checking for existing tabs...", "Redirecting to existing tab..."]));
    else expect(outcome).toBe("closed");
    await context.close();
  });

  it("opens in its own tab when no other tab can take it", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await logInAs(page, "sales");
    await waitForHeading(page, "Dashboard"); // a tab on / does not take links
    const b = await context.newPage();
    await recordTexts(b);
    const started = Date.now();
    await b.goto("/email-redirect?to=/leads/my");
    await waitForPath(b, "/leads/my");
    expect(Date.now() - started).toBeGreaterThanOrEqual(550); // 100 ms before asking, then 500 ms waiting
    expect(await seenTexts(b)).toEqual(expect.arrayContaining(["Checking for existing tabs...", "Loading application..."]));
    expect(new URL(page.url()).pathname).toBe("/");
    await context.close();
  });

  it("signed out: keeps the target, signs in first, then opens the target", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await page.goto("/email-redirect?to=%2Fcalendar");
    await waitForPath(page, "/auth");
    expect(await page.evaluate(() => localStorage.getItem("emailRedirectPath"))).toBe("/calendar");
    await page.getByLabel("Email").fill(DEMO_USERS.sales);
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await waitForPath(page, "/calendar");
    expect(await page.evaluate(() => localStorage.getItem("emailRedirectPath"))).toBeNull();
    await context.close();
  });

  it("never leaves the app, whatever 'to' says", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await logInAs(page, "sales");
    for (const to of ["//evil.example/phish", "https://evil.example/", "javascript:alert(1)"]) {
      await page.goto(`/email-redirect?to=${encodeURIComponent(to)}`);
      await page.waitForURL((u) => u.pathname === "/" && !u.search, { timeout: 10_000 });
      expect(new URL(page.url()).origin).toBe(suite.server.url);
    }
    const out = await newPage(suite.browser, suite.server.url);
    await out.page.goto(`/email-redirect?to=${encodeURIComponent("//evil.example")}`);
    await waitForPath(out.page, "/auth");
    expect(await out.page.evaluate(() => localStorage.getItem("emailRedirectPath"))).toBe("/");
    await out.context.close();
    await context.close();
  });

  it("goes to / for a target the browser would read as another site, instead of staying on its spinner", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await logInAs(page, "sales");
    await waitForHeading(page, "Dashboard");
    // A tab the browser drops ('/\t/evil.example' is '//evil.example'), and '..' climbing to '//': navigating there
    // threw in history.replaceState and the page stayed on "Loading application..." (issue 23).
    for (const to of ["/\t/evil.example", "/\n/evil.example", "/..//evil.example"]) {
      await page.goto(`/email-redirect?to=${encodeURIComponent(to)}`);
      await page.waitForURL((u) => u.pathname === "/" && !u.search, { timeout: 10_000 });
      await waitForHeading(page, "Dashboard");
      expect(new URL(page.url()).origin, JSON.stringify(to)).toBe(suite.server.url);
    }
    await context.close();
  });
});
