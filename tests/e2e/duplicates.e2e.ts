import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logInAs } from "./helpers/auth";
import { expectAccessible } from "./helpers/axe";
import { DESKTOP, launchBrowser, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked, waitForToast } from "./helpers/page";
import { startServer, type RunningServer } from "./helpers/server";

// Possible duplicates and the merge dialog in a real browser at 1280 and 375 px (issue 14; decisions 137-143), and
// the dashboard's Speed to Lead card. SHOTS_DIR=/some/dir saves the screens.

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // A fresh demo database takes a while on a busy machine.
  server = await startServer({ startupTimeoutMs: 240_000 });
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.remove();
});

let sequence = 0;

/** Two leads of one customer, the phone written two ways, made by front desk through the API. */
async function twinLeads(page: Page): Promise<{ first: string; second: string; surname: string }> {
  const dealerships = await (await page.request.get(`${server.url}/api/dealerships`)).json();
  const dealershipId = (dealerships as Array<{ id: string; name: string }>).find((d) => d.name === "Northside Motors")!.id;
  const n = ++sequence;
  const surname = `Twin${n}`;
  const phone = `905-555-${String(2000 + n)}`;
  const make = async (firstName: string, phoneAs: string, description: string) => {
    const response = await page.request.post(`${server.url}/api/dealerships/${dealershipId}/leads`, {
      data: { firstName, lastName: surname, phone: phoneAs, description },
    });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const first = await make("Dana", `+1 (${phone.slice(0, 3)}) ${phone.slice(4)}`, "Web form: wants a hybrid");
  const second = await make("Danielle", phone, "Called about trade-in");
  return { first, second, surname };
}

describe("possible duplicates", () => {
  for (const [size, viewport] of [
    ["1280", DESKTOP],
    ["375", PHONE],
  ] as const) {
    it(`front desk sees the banner and merges the two leads at ${size} px`, async () => {
      const { context, page } = await newPage(browser, server.url, viewport);
      await logInAs(page, "frontDesk");
      const { first, second, surname } = await twinLeads(page);
      await page.goto(`/leads/detail/${second}`);
      const banner = page.getByTestId("duplicate-banner");
      await banner.waitFor();
      expect(await banner.textContent()).toContain(`Dana ${surname}`);
      expect(await banner.textContent()).toContain("same phone");
      await shotIfAsked(page, `duplicate-banner-${size}`);
      await expectAccessible(page, `lead detail with a possible duplicate at ${size}`);

      await banner.getByRole("button", { name: "Merge" }).click();
      const dialog = page.getByTestId("merge-dialog");
      await dialog.waitFor();
      // Merged from the newer lead's page: the dialog says the other is older, whose arrival the lead keeps (decision 207).
      expect(await dialog.getByTestId("merge-arrival").textContent()).toContain("The other lead is older");
      await shotIfAsked(page, `merge-dialog-${size}`);
      await expectAccessible(page, `merge dialog at ${size}`);
      // Take the first name from the other lead; keep both descriptions (the default).
      await dialog.getByRole("radiogroup", { name: "First name: keep" }).getByRole("radio", { name: "Other lead" }).click();
      await dialog.getByRole("button", { name: "Merge leads" }).click();
      await waitForToast(page, "Leads merged");
      await banner.waitFor({ state: "detached" });
      const info = page.getByTestId("lead-information");
      await expect.poll(async () => info.textContent()).toContain("Dana");
      expect(await info.textContent()).toContain("Web form: wants a hybrid");
      expect(await info.textContent()).toContain("Called about trade-in");

      // The merged-away lead is gone: its address opens the kept lead and says so (decision 188).
      await page.goto(`/leads/detail/${first}`);
      await page.getByTestId("merged-notice").waitFor();
      expect(new URL(page.url()).pathname).toBe(`/leads/detail/${second}`);
      await context.close();
    });
  }

  it("'Not a duplicate' removes the banner, and a sales rep never sees the actions", async () => {
    const { context, page } = await newPage(browser, server.url, PHONE);
    await logInAs(page, "frontDesk");
    const { second } = await twinLeads(page);
    await page.goto(`/leads/detail/${second}`);
    const banner = page.getByTestId("duplicate-banner");
    await banner.waitFor();
    await banner.getByRole("button", { name: "Not a duplicate" }).click();
    await waitForToast(page, "Marked as not a duplicate");
    await banner.waitFor({ state: "detached" });
    await context.close();

    const rep = await newPage(browser, server.url, DESKTOP);
    await logInAs(rep.page, "sales");
    const pair = await twinLeads(rep.page); // the rep's own: claimed by them at once, so they see both
    await rep.page.goto(`/leads/detail/${pair.second}`);
    const repBanner = rep.page.getByTestId("duplicate-banner");
    await repBanner.waitFor();
    expect(await repBanner.getByRole("button", { name: "Merge" }).count()).toBe(0);
    await rep.context.close();
  });
});

describe("speed to lead", () => {
  for (const [size, viewport] of [
    ["1280", DESKTOP],
    ["375", PHONE],
  ] as const) {
    it(`shows the dashboard card at ${size} px`, async () => {
      const { context, page } = await newPage(browser, server.url, viewport);
      await logInAs(page, "management");
      const card = page.getByTestId("speed-to-lead-card");
      await card.waitFor();
      await card.getByTestId("speed-median").waitFor();
      await card.scrollIntoViewIfNeeded();
      await shotIfAsked(page, `speed-to-lead-dashboard-${size}`);
      await page.goto("/sales-analytics");
      await page.getByTestId("speed-to-lead-panel").getByTestId("speed-counts").waitFor();
      await page.getByTestId("speed-to-lead-panel").scrollIntoViewIfNeeded();
      await shotIfAsked(page, `speed-to-lead-analytics-${size}`);
      await expectAccessible(page, `sales rep analytics with speed to lead at ${size}`);
      await context.close();
    });
  }
});
