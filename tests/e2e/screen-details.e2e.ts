import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { logInAs, register, uniqueEmail } from "./helpers/auth";
import { expectAccessible } from "./helpers/axe";
import { DESKTOP, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked, waitForHeading } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// The small things a user notices (issue 30, decision 224), at 1280 px and at 375 px.

const suite = useServerAndBrowser();

/** A customer as real ones come: long hyphenated names, a long e-mail, a full trim name for the vehicle. */
const LONG = {
  firstName: "Maximiliana-Josefina",
  lastName: "Featherstonehaugh-Worthington",
  email: "maximiliana.featherstonehaugh-worthington@example-dealership-group.com",
  vehicle: "2025 Hyundai Tucson Preferred AWD Trend",
  title: "2025 Hyundai Tucson Preferred AWD Trend test drive and trade-in appraisal",
};

/** A lead with those strings (a rep's own: they typed it in), with an appointment and a booked drive in two days. */
async function longLead(page: Page): Promise<string> {
  const dealerships = (await (await page.request.get("/api/dealerships")).json()) as Array<{ id: string; name: string }>;
  const dealershipId = dealerships.find((d) => d.name === "Northside Motors")!.id;
  const created = await page.request.post(`/api/dealerships/${dealershipId}/leads`, {
    data: { firstName: LONG.firstName, lastName: LONG.lastName, email: LONG.email, phone: "+44 20 7946 0958", description: `${LONG.vehicle}, trade-in 2016 Mazda3 GS` },
  });
  expect(created.status()).toBe(201);
  const leadId = ((await created.json()) as { id: string }).id;
  const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const appointment = await page.request.post(`/api/dealerships/${dealershipId}/appointments`, {
    data: { title: LONG.title, firstName: LONG.firstName, lastName: LONG.lastName, date: tomorrow, time: "10:00", leadId },
  });
  expect(appointment.status()).toBe(201);
  const drive = await page.request.post("/api/test-drives", {
    data: { dealershipId, clientType: "existing", leadId, vehicleType: "manual", vehicleDriven: LONG.vehicle, stockNumber: "HT25-004411-B", status: "scheduled", testDriveDate: tomorrow, testDriveTime: "11:00" },
  });
  expect(drive.status()).toBe(201);
  return leadId;
}

/** What sticks out: the page wider than the window, or a card wider than its list. */
async function overflow(page: Page): Promise<{ page: number; cards: string[] }> {
  return page.evaluate(() => ({
    page: document.documentElement.scrollWidth - window.innerWidth,
    cards: Array.from(document.querySelectorAll<HTMLElement>("ul > li, [data-slot='card']"))
      .filter((card) => {
        const parent = card.parentElement!.getBoundingClientRect();
        return card.getBoundingClientRect().right > parent.right + 0.5 && getComputedStyle(card.parentElement!).overflowX !== "auto";
      })
      .map((card) => (card.textContent ?? "").trim().slice(0, 40)),
  }));
}

describe("long real-world strings", () => {
  for (const [name, viewport] of [["1280 px", DESKTOP], ["375 px", PHONE]] as const) {
    it(`at ${name}, no page is wider than the screen and no card wider than its list`, async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "sales");
      const leadId = await longLead(page);
      for (const path of [`/leads/detail/${leadId}`, "/leads/my", "/calendar", "/test-drives", "/"]) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        expect({ path, ...(await overflow(page)) }).toEqual({ path, page: 0, cards: [] });
      }
      // The lead's own appointment and drive say their whole titles (wrapped, not cut).
      await page.goto(`/leads/detail/${leadId}`);
      const title = page.getByTestId("lead-appointment").getByRole("link", { name: LONG.title });
      expect(await title.evaluate((link) => link.scrollWidth <= link.clientWidth)).toBe(true);
      await context.close();
    });
  }
});

for (const [name, viewport] of [["1280 px", DESKTOP], ["375 px", PHONE]] as const) {
  describe(`at ${name}`, () => {
    it("a new dealership's dashboard shows an unchanged number as grey, not green, and its analytics say 'nothing yet'", async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      await register(page, {
        firstName: "Maximiliana",
        lastName: "Featherstonehaugh-Worthington",
        email: uniqueEmail("flat"),
        dealershipName: "Featherstonehaugh-Worthington Hyundai Genesis of North Vancouver",
        password: "a-long-unusual-passphrase",
      });
      await waitForHeading(page, "Dashboard");
      const changes = page.getByTestId("metric-change");
      await changes.first().waitFor();
      expect(await changes.evaluateAll((spans) => spans.map((s) => [s.getAttribute("data-trend"), s.textContent]))).toEqual([
        ["flat", "0%"],
        ["flat", "0%"],
        ["flat", "0%"],
      ]);
      const colours = await changes.evaluateAll((spans) => spans.map((s) => getComputedStyle(s).color));
      const muted = await page.evaluate(() => getComputedStyle(document.querySelector("[data-testid='metric-note']")!).color);
      expect(new Set(colours)).toEqual(new Set([muted]));
      // Its test drive analytics say there is nothing yet, instead of "0m" and bars of zero on an axis from 0 to 4.
      await page.goto("/tdus?days=7");
      await waitForHeading(page, "Test Drive Analytics");
      expect(await page.getByTestId("average-duration").getByTestId("stat-value").textContent()).toBe("—");
      expect(await page.getByTestId("daily-chart-empty").textContent()).toBe("No test drives in the last 7 days.");
      expect(await page.getByTestId("daily-chart").count()).toBe(0);
      await expectAccessible(page, `empty test drive analytics at ${name}`);
      await context.close();
    });

    it("the profile shows the user ID as a fact to quote to support, not as a field", async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "sales");
      await page.goto("/profile");
      await waitForHeading(page, "Profile");
      const id = page.getByTestId("profile-user-id");
      expect(await id.textContent()).toContain("Quote it if you contact support.");
      expect(await page.locator("main input[readonly]").count()).toBe(0);
      await expectAccessible(page, `the profile at ${name}`);
      await context.close();
    });

    it("a search box has one clear button, ours", async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "management");
      await page.goto("/test-drives");
      await waitForHeading(page, "Test Drives");
      const box = page.getByRole("searchbox", { name: "Search vehicles" });
      await box.fill("Kia");
      await page.getByRole("button", { name: "Clear the search box" }).waitFor();
      // Chromium draws its own clear button at the end of a search box's text area. The box must look exactly as the
      // same box as a plain text field, which has none, does.
      const input = (await box.elementHandle())!;
      const shot = () => input.screenshot({ animations: "disabled", caret: "hide" });
      const asSearch = await shot();
      await input.evaluate((element) => element.setAttribute("type", "text"));
      const asText = await shot();
      await input.evaluate((element) => element.setAttribute("type", "search"));
      expect(asSearch.equals(asText)).toBe(true);
      expect(await page.getByRole("button", { name: "Clear the search box" }).count()).toBe(1);
      await context.close();
    });

    it("a returned drive is listed under Returned, with when it came back and how long it was out", async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "sales");
      const dealerships = (await (await page.request.get("/api/dealerships")).json()) as Array<{ id: string; name: string }>;
      const dealershipId = dealerships.find((d) => d.name === "Northside Motors")!.id;
      const out = await page.request.post("/api/test-drives", {
        data: { dealershipId, clientType: "new", firstName: LONG.firstName, lastName: LONG.lastName, email: LONG.email, phone: "416-555-0190", vehicleType: "manual", vehicleDriven: LONG.vehicle, stockNumber: `RET-${viewport.width}`, status: "out" },
      });
      expect(out.status()).toBe(201);
      const drive = (await out.json()) as { id: string };
      expect((await page.request.post(`/api/test-drives/${drive.id}/return`)).status()).toBe(200);
      await page.goto("/test-drives?tab=drives");
      const returned = page.getByRole("heading", { name: "Returned" }).locator("xpath=ancestor::*[@data-slot='card'][1]");
      const row = returned.getByTestId("drive-row").filter({ hasText: `#RET-${viewport.width}` });
      await row.waitFor();
      expect(await row.textContent()).toMatch(/0m/);
      expect(await row.getAttribute("href")).toBe(`/test-drives/${drive.id}`);
      await row.scrollIntoViewIfNeeded();
      await shotIfAsked(page, `drives-returned-${viewport.width}`);
      await expectAccessible(page, `the drives tab at ${name}`);
      await context.close();
    });

    it("a test drive's detail page reads as lists of terms to a screen reader (axe finds nothing serious)", async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "management");
      const dealerships = (await (await page.request.get("/api/dealerships")).json()) as Array<{ id: string }>;
      const drives = (await (await page.request.get(`/api/dealerships/${dealerships[0]!.id}/test-drives`)).json()) as Array<{ id: string }>;
      expect(drives.length).toBeGreaterThan(0);
      await page.goto(`/test-drives/${drives[0]!.id}`);
      await page.getByTestId("test-drive-information").waitFor();
      await expectAccessible(page, `a test drive's detail at ${name}`);
      await context.close();
    });
  });
}
