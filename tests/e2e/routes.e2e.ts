import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_USERS, logInAs, logOut } from "./helpers/auth";
import { newPage, PHONE } from "./helpers/browser";
import { waitForHeading, waitForPath, waitForToast } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

const suite = useServerAndBrowser();

describe("routing when signed out (part 1 §2.1)", () => {
  it("sends / to /auth", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await page.goto("/");
    await waitForPath(page, "/auth");
    await waitForHeading(page, "Welcome back");
    await context.close();
  });

  it("shows the not-found screen for a path no one has", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await page.goto("/no/such/page");
    await waitForHeading(page, "404 Page Not Found");
    expect(await page.getByText("Did you forget to add the page to the router?").isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe("/no/such/page");
    await context.close();
  });

  // Issue 12: a bookmarked page used to answer "404 ... Did you forget to add the page to the router?".
  it("on a phone, sends a bookmarked page to sign in and back to that page afterwards", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
    for (const [path, heading] of [["/calendar", "Calendar"], ["/leads/my?status=claimed", "My Clients"]] as const) {
      await page.goto(path);
      await waitForHeading(page, "Welcome back");
      const url = new URL(page.url());
      expect(url.pathname).toBe("/auth");
      expect(url.searchParams.get("next")).toBe(path);
      expect(await page.getByText("404 Page Not Found").count()).toBe(0);
      await page.getByLabel("Email").fill(DEMO_USERS.sales);
      await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await waitForPath(page, path.split("?")[0]!);
      await waitForHeading(page, heading);
      expect(new URL(page.url()).search).toBe(path.includes("?") ? `?${path.split("?")[1]}` : "");
      await logOut(page);
    }
    await context.close();
  });

  it("never sends a visitor off the site after signing in, whatever ?next= says", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await page.goto(`/auth?next=${encodeURIComponent("//evil.example/phish")}`);
    await page.getByLabel("Email").fill(DEMO_USERS.sales);
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await waitForPath(page, "/");
    expect(new URL(page.url()).host).toBe(new URL(suite.server.url).host);
    await context.close();
  });
});

describe("routing for a signed-in regular user", () => {
  it("shows the dashboard at / and /dashboard, and sends unknown paths and /auth to /", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await logInAs(page, "sales");
    await waitForPath(page, "/");
    await waitForHeading(page, "Dashboard");
    expect(await page.getByTestId("user-menu-role").textContent()).toBe("Sales");
    await page.goto("/dashboard");
    await waitForHeading(page, "Dashboard");
    for (const path of ["/no/such/page", "/auth"]) {
      await page.goto(path);
      await waitForPath(page, "/");
      await waitForHeading(page, "Dashboard");
    }
    await context.close();
  });

  // Decision 161: a signed-in phone opening the dashboard gets its cards' data inside the page, no call per card.
  for (const who of ["sales", "management"] as const) {
    it(`draws the dashboard of a returning ${who} user from the page's own answers, asking none of them again`, async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
      await logInAs(page, who);
      await waitForHeading(page, "Dashboard");
      const asked: string[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith("/api/")) asked.push(url.pathname + url.search);
      });
      await page.goto("/"); // a returning visit: a new document with the session cookie
      await waitForHeading(page, "Dashboard");
      await page.getByTestId("speed-to-lead-card").waitFor();
      await page.getByRole("heading", { name: "Recent Leads" }).waitFor();
      await page.getByTestId("today-agenda").waitFor();
      await page.waitForLoadState("networkidle");
      const dealershipRead = /^\/api\/dealerships\/[^/]+\/(users\/[^/]+\/role|leads\?type=new|metrics|leads\?limit=\d+|appointments\?type=upcoming|agenda\?scope=mine|speed-to-lead\?days=\d+)$/;
      expect(asked.filter((path) => dealershipRead.test(path))).toEqual([]);
      // And the cards are drawn with data, not waiting on anything.
      expect(await page.getByText("Created today").count()).toBeGreaterThan(0);
      await context.close();
    });
  }

  it("checks a regular user who opens /platform-admin, says access is denied and sends them to /", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await logInAs(page, "management");
    await page.goto("/platform-admin");
    const toast = await waitForToast(page, "Access Denied");
    expect(toast).toContain("Access Denied: You don't have platform admin privileges");
    await waitForPath(page, "/");
    await waitForHeading(page, "Dashboard");
    await context.close();
  });

  // Decision 177: /tdus is for management; its link shows only to them and anyone else opening it is told so.
  for (const who of ["sales", "frontDesk", "management"] as const) {
    it(`offers Test Drive Analytics to ${who} only if they may open it, and /tdus says Access Denied otherwise`, async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url);
      await logInAs(page, who);
      await waitForHeading(page, "Dashboard");
      const link = page.getByRole("link", { name: "Test Drive Analytics" });
      if (who === "management") {
        await link.first().waitFor();
        await page.goto("/tdus");
        await waitForHeading(page, "Test Drive Analytics");
      } else {
        await page.getByRole("link", { name: "Test Drives" }).first().waitFor(); // the navigation is drawn
        expect(await link.count()).toBe(0);
        await page.goto("/tdus");
        await waitForHeading(page, "Access Denied");
        await page.getByText("You need management access to view test drive analytics").waitFor();
        expect(await page.getByRole("heading", { name: "Test Drive Analytics" }).count()).toBe(0);
      }
      await context.close();
    });
  }

  it("on a phone, opens the navigation from the hamburger menu", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await logInAs(page, "frontDesk");
    await waitForHeading(page, "Dashboard");
    expect(await page.getByRole("complementary").isVisible()).toBe(false);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog");
    await menu.getByRole("link", { name: "Dashboard" }).waitFor();
    await menu.getByRole("link", { name: "Dashboard" }).click();
    await menu.waitFor({ state: "detached" });
    await context.close();
  });
});

// Issue 31: a deploy replaced the build while this tab held the old one; its next page's chunk is gone (404). The tab
// reloads once and draws the page from the new build, where it used to stay blank.
describe("a page chunk gone after a deploy", () => {
  it("reloads the page once and draws it, instead of a blank page", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url);
    await page.goto("/auth");
    await waitForHeading(page, "Welcome back");
    let asked = 0;
    await page.route(/\/assets\/NotFoundPage-[^/]+\.js$/, async (route) => {
      asked++;
      if (asked === 1) await route.fulfill({ status: 404, body: "Not Found" });
      else await route.continue();
    });
    let loads = 0;
    page.on("load", () => void loads++);
    // A client-side move to a page whose chunk this tab has not loaded yet.
    await page.evaluate(() => {
      history.pushState({}, "", "/no/such/page");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    await waitForHeading(page, "404 Page Not Found");
    expect(asked).toBe(2);
    expect(loads).toBe(1);
    await context.close();
  });
});
