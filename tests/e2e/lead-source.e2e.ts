import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { logInAs } from "./helpers/auth";
import { expectAccessible } from "./helpers/axe";
import { DESKTOP, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked, waitForHeading } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// Lead source on the lists and in the analytics (issue 14; decisions 150, 151), at 1280 and 375 px: front desk picks a
// source on New Leads and sees only those leads (kept through a reload and Back, handed to Export); management sees
// the leads by source on Sales Rep Analytics. SHOTS_DIR=/some/dir saves the screens.

const suite = useServerAndBrowser({ startupTimeoutMs: 400_000 });

/** Two website leads, a phone lead and an ADF lead from "CarGurus", made today at Northside through the API. */
async function seedSources(page: Page, url: string): Promise<void> {
  const dealerships = (await (await page.request.get(`${url}/api/dealerships`)).json()) as Array<{ id: string; name: string }>;
  const dealershipId = dealerships.find((d) => d.name === "Northside Motors")!.id;
  const make = async (firstName: string, lastName: string, source: string) => {
    const response = await page.request.post(`${url}/api/dealerships/${dealershipId}/leads`, {
      data: { firstName, lastName, email: `${firstName}.${lastName}@example.com`.toLowerCase(), source },
    });
    expect(response.status()).toBe(201);
  };
  await make("Wendy", "Web-Src", "website");
  await make("Walt", "Web-Src", "website");
  await make("Pat", "Phone-Src", "phone");
  const credential = await page.request.post(`${url}/api/dealerships/${dealershipId}/intake/credentials`, { data: { name: "E2E Source" } });
  expect(credential.status()).toBe(201);
  const { secret } = (await credential.json()) as { secret: string };
  const xml = `<?xml version="1.0"?><adf><prospect><customer><contact><name part="first">Ada</name><name part="last">Adf-Src</name>
    <email>ada.adf-src@example.com</email></contact></customer><provider><name>CarGurus</name></provider></prospect></adf>`;
  const adf = await fetch(`${url}/api/intake/adf`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/xml" }, body: xml });
  expect(adf.status).toBe(201);
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The names and source badges of the leads on screen (table rows at 1280, cards at 375). */
async function shownLeads(page: Page, phone: boolean): Promise<Array<{ text: string; source: string }>> {
  const rows = page.getByTestId(phone ? "lead-card" : "lead-row");
  await rows.first().waitFor();
  return rows.evaluateAll((els) =>
    els.map((el) => ({ text: el.textContent ?? "", source: (el.querySelector("[data-testid=lead-source]")?.textContent ?? "").replace("Source: ", "") })),
  );
}

async function pickSource(page: Page, label: string): Promise<void> {
  await page.getByRole("combobox", { name: "Filter by source" }).click();
  await page.getByRole("option", { name: label, exact: true }).click();
}

describe("lead source", () => {
  it("seeds leads of several sources", async () => {
    const { context, page } = await newPage(suite.browser, suite.server.url, DESKTOP);
    await logInAs(page, "management");
    await seedSources(page, suite.server.url);
    await context.close();
  }, 120_000);

  for (const [size, viewport] of [
    ["375", PHONE],
    ["1280", DESKTOP],
  ] as const) {
    const phone = size === "375";
    it(`front desk filters New Leads by source at ${size} px; reload and Back keep it; Export takes it`, async () => {
      const { context, page } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "frontDesk");
      await page.goto("/leads/new");
      await waitForHeading(page, "New Leads");
      const everyone = await shownLeads(page, phone);
      expect(everyone.some((l) => l.source === "Walk-in")).toBe(true);

      await pickSource(page, "Website");
      await page.waitForURL((url) => url.searchParams.get("source") === "website");
      await expect.poll(async () => (await shownLeads(page, phone)).map((l) => l.source)).toEqual(["Website", "Website"]);
      const websites = await shownLeads(page, phone);
      expect(websites.map((l) => l.text).join(" ")).toContain("Wendy Web-Src");
      expect(websites.map((l) => l.text).join(" ")).toContain("Walt Web-Src");
      expect(await page.getByRole("link", { name: "Export" }).getAttribute("href")).toContain("source=website");
      await noSidewaysScroll(page);
      await shotIfAsked(page, `new-leads-source-${size}`);
      await expectAccessible(page, `New Leads filtered by source at ${size}`);

      // A reload keeps the filter (it is in the address).
      await page.reload();
      await waitForHeading(page, "New Leads");
      expect(await page.getByRole("combobox", { name: "Filter by source" }).textContent()).toContain("Website");
      expect((await shownLeads(page, phone)).map((l) => l.source)).toEqual(["Website", "Website"]);

      // ADF leads show their provider; Back from a lead's page comes back to the filtered list.
      await pickSource(page, "ADF");
      await expect.poll(async () => (await shownLeads(page, phone)).map((l) => l.source)).toEqual(["CarGurus"]);
      await page.getByTestId(phone ? "lead-card" : "lead-row").first().getByRole("link", { name: /View Details/ }).click();
      await page.waitForURL((url) => url.pathname.startsWith("/leads/detail/"));
      await page.goBack();
      await page.waitForURL((url) => url.pathname === "/leads/new" && url.searchParams.get("source") === "adf");
      expect((await shownLeads(page, phone)).map((l) => l.text).join(" ")).toContain("Ada Adf-Src");

      // All Sources takes the parameter away again.
      await pickSource(page, "All Sources");
      await page.waitForURL((url) => !url.searchParams.has("source"));
      await expect.poll(async () => (await shownLeads(page, phone)).length).toBeGreaterThan(4);
      await context.close();
    }, 120_000);

    it(`All Clients takes ?source= from the address, says when no client came that way, and Show all sources clears it at ${size} px`, async () => {
      const { context, page } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "frontDesk");
      // The demo's worked leads are all walk-ins: none came by phone.
      await page.goto("/leads/my?source=phone");
      await waitForHeading(page, "All Clients");
      expect(await page.getByRole("combobox", { name: "Filter by source" }).textContent()).toContain("Phone");
      await page.getByRole("heading", { name: "No clients from Phone" }).waitFor();
      expect(await page.getByRole("link", { name: "Export" }).getAttribute("href")).toContain("source=phone");
      await noSidewaysScroll(page);
      await shotIfAsked(page, `all-clients-source-${size}`);
      await expectAccessible(page, `All Clients filtered by source at ${size}`);
      await page.getByRole("button", { name: "Show all sources" }).click();
      await page.waitForURL((url) => !url.searchParams.has("source"));
      expect((await shownLeads(page, phone)).every((l) => l.source === "Walk-in")).toBe(true);
      await context.close();
    }, 120_000);

    it(`management sees leads by source on Sales Rep Analytics at ${size} px`, async () => {
      const { context, page } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "management");
      await page.goto("/sales-analytics?days=7");
      await waitForHeading(page, "Sales Rep Analytics");
      const panel = page.getByTestId("lead-sources-panel");
      await panel.getByTestId("lead-sources").waitFor();
      const rows = await panel.getByTestId("lead-source-row").evaluateAll((els) =>
        els.map((el) => [...el.querySelectorAll("th, td")].map((c) => (c.firstElementChild?.firstElementChild ?? c.firstElementChild ?? c).textContent?.trim())),
      );
      const row = (name: string) => rows.find((r) => r[0] === name);
      // Source, arrived, claimed, sold. (The seeded leads arrived today; nobody has claimed them.)
      expect(row("Website")).toEqual(["Website", "2", "0", "0"]);
      expect(row("Phone")).toEqual(["Phone", "1", "0", "0"]);
      expect(row("CarGurus")).toEqual(["CarGurus", "1", "0", "0"]);
      expect(Number(row("Walk-in")?.[1])).toBeGreaterThan(0);
      const total = await panel.getByTestId("lead-source-total").locator("td").first().textContent();
      expect(Number(total)).toBe(rows.reduce((sum, r) => sum + Number(r[1]), 0));
      await panel.scrollIntoViewIfNeeded();
      await noSidewaysScroll(page);
      await shotIfAsked(page, `analytics-lead-sources-${size}`);
      await expectAccessible(page, `Sales Rep Analytics with leads by source at ${size}`);
      await context.close();
    }, 120_000);
  }
});
