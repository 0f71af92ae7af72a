import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { logInAs } from "./helpers/auth";
import { DESKTOP, newPage, PHONE } from "./helpers/browser";
import { expectAccessible } from "./helpers/axe";
import { shotIfAsked, waitForHeading, waitForToast } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// Lead intake in a real browser (issue 14): management creates a credential in the admin panel, a provider posts ADF
// with it, the lead shows on New Leads with its provider's badge and a rep claims it; front desk imports a CSV
// through the dialog (preview, an error row fixed by the file, then the import).

const suite = useServerAndBrowser({ startupTimeoutMs: 400_000 });

describe("lead intake", () => {
  it("a lead posted as ADF appears on New Leads with its provider and is claimed", async () => {
    const { server, browser } = suite;
    const { context, page } = await newPage(browser, server.url, DESKTOP);
    await logInAs(page, "management");
    await page.goto("/admin");
    await page.getByRole("tab", { name: "Lead Intake" }).click();
    await page.getByLabel("New credential name").fill("E2E Website");
    await page.getByRole("button", { name: "Create credential" }).click();
    const secret = (await page.getByTestId("shown-once").textContent()) ?? "";
    expect(secret).toMatch(/^shri_/);
    await page.getByRole("button", { name: "Done" }).click();
    await context.close();

    const xml = `<?xml version="1.0"?><adf><prospect><requestdate>2026-03-02T10:15:00-05:00</requestdate>
      <vehicle><year>2021</year><make>Honda</make><model>Civic</model></vehicle>
      <customer><contact><name part="first">Adele</name><name part="last">Adf-E2E</name><email>adele.e2e@example.com</email></contact>
      <comments>Call after 5</comments></customer><provider><name>AutoTrader</name></provider></prospect></adf>`;
    const response = await fetch(`${server.url}/api/intake/adf`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/xml" },
      body: xml,
    });
    expect(response.status).toBe(201);

    const rep = await newPage(browser, server.url, DESKTOP);
    await logInAs(rep.page, "sales");
    await rep.page.goto("/leads/new");
    await waitForHeading(rep.page, "New Leads");
    const row = rep.page.getByTestId("lead-row").filter({ hasText: "Adf-E2E" });
    await row.waitFor();
    expect(await row.getByTestId("lead-source").textContent()).toContain("AutoTrader");
    await row.getByRole("button", { name: "Claim" }).click();
    await waitForToast(rep.page, "Claimed");
    await rep.context.close();
  }, 120_000);

  it("a prospect's bad phone reads as a note on the received document; the phones kept read as numbers (issue 29)", async () => {
    const { server, browser } = suite;
    const { context, page } = await newPage(browser, server.url, DESKTOP);
    await logInAs(page, "management");
    await page.goto("/admin");
    await page.getByRole("tab", { name: "Lead Intake" }).click();
    await page.getByLabel("New credential name").fill("E2E Phones");
    await page.getByRole("button", { name: "Create credential" }).click();
    const secret = (await page.getByTestId("shown-once").textContent()) ?? "";
    await page.getByRole("button", { name: "Done" }).click();
    const prospect = (last: string, phone: string) =>
      `<prospect><customer><contact><name part="first">Phoebe</name><name part="last">${last}</name><phone>${phone}</phone></contact></customer><provider><name>Cars.com</name></provider></prospect>`;
    const xml = `<?xml version="1.0"?><adf>${prospect("Abroad-E2E", "+44 20 7946 0958")}${prospect("Extension-E2E", "+1 905 555 1212 x123")}${prospect("Nophone-E2E", "call me maybe, any time after five o'clock")}</adf>`;
    const response = await fetch(`${server.url}/api/intake/adf`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/xml" }, body: xml });
    expect(response.status).toBe(201);

    await page.reload();
    await page.getByRole("tab", { name: "Lead Intake" }).click();
    const note = page.getByTestId("intake-note").first();
    await note.waitFor();
    expect(await note.textContent()).toContain('prospect 3: phone "call me maybe');
    // A note, not an error: not in the destructive colour.
    expect(await note.evaluate((el) => el.className)).not.toContain("destructive");
    await note.scrollIntoViewIfNeeded();
    await shotIfAsked(page, "intake-phone-note-1280");

    for (const [label, viewport] of [["1280", DESKTOP], ["375", PHONE]] as const) {
      await page.setViewportSize(viewport);
      await page.goto("/leads/new");
      await waitForHeading(page, "New Leads");
      // The list is a table at 1280 px and cards at 375 px: the one on screen.
      await page.getByText("+44 20 7946 0958").filter({ visible: true }).first().waitFor();
      await page.getByText("905-555-1212 x123").filter({ visible: true }).first().waitFor();
      expect(await page.locator('a[href="tel:+442079460958"]').count()).toBeGreaterThan(0);
      await shotIfAsked(page, `new-leads-phones-${label}`);
    }
    await expectAccessible(page, "new leads with international phones");
    await context.close();
  }, 120_000);

  it("an ADF lead asking for a vehicle of the inventory shows it on its page, books it, and a merged-away bookmark leads there (issues 29, 30)", async () => {
    const { server, browser } = suite;
    const { context, page } = await newPage(browser, server.url, DESKTOP);
    await logInAs(page, "management");
    const dealerships = (await (await page.request.get("/api/dealerships")).json()) as Array<{ id: string; name: string }>;
    const dealershipId = dealerships.find((d) => d.name === "Northside Motors")!.id;
    // A real-world long title and a Hyundai VIN built in Alabama (5NM), model year 2025 (S).
    const vin = "5NMJFCDE2SH123456";
    const added = await page.request.post(`/api/dealerships/${dealershipId}/vehicles`, {
      data: { year: "2025", make: "Hyundai", model: "Tucson Hybrid", trim: "Preferred AWD with Trend Package", stockNumber: "E2E-TUCSON-2025-0001", condition: "new", vin, price: 4_299_900 },
    });
    expect(added.status(), await added.text()).toBe(201);
    const credential = await page.request.post(`/api/dealerships/${dealershipId}/intake/credentials`, { data: { name: "E2E Inventory" } });
    expect(credential.status(), await credential.text()).toBe(201);
    const { secret } = (await credential.json()) as { secret: string };
    const prospect = (last: string) =>
      `<prospect><vehicle interest="test-drive" status="new"><year>2025</year><make>Hyundai</make><model>Tucson</model><vin>${vin}</vin></vehicle>` +
      `<customer><contact><name part="first">Maximiliana</name><name part="last">${last}</name><email>maximiliana.vehicle@example.com</email></contact></customer><provider><name>AutoTrader</name></provider></prospect>`;
    const response = await fetch(`${server.url}/api/intake/adf`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/xml" },
      body: `<?xml version="1.0"?><adf>${prospect("Vehicle-Of-Interest-E2E")}${prospect("Bookmarked-E2E")}</adf>`,
    });
    expect(response.status).toBe(201);
    const [leadId, bookmarkedId] = ((await response.json()) as { leadIds: string[] }).leadIds;

    for (const [label, viewport] of [["1280", DESKTOP], ["375", PHONE]] as const) {
      await page.setViewportSize(viewport);
      await page.goto(`/leads/detail/${leadId}`);
      const card = page.getByTestId("lead-vehicle");
      await card.waitFor();
      expect(await card.textContent()).toContain("2025 Hyundai Tucson Hybrid Preferred AWD with Trend Package");
      expect(await card.textContent()).toContain("Asked for a test drive · matched by VIN");
      expect(await card.getByTestId("vin-facts").textContent()).toBe(`VIN ${vin}Hyundai · built in the United States · model year 2025`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await card.scrollIntoViewIfNeeded();
      await shotIfAsked(page, `lead-vehicle-of-interest-${label}`);
      await expectAccessible(page, `lead page with its vehicle of interest at ${label}`);
    }

    // Book Test Drive from the lead: this client and this vehicle are already chosen.
    await page.setViewportSize(DESKTOP);
    await page.getByRole("link", { name: /Book Test Drive of the 2025 Hyundai Tucson Hybrid/ }).click();
    await waitForHeading(page, "Book a Test Drive");
    await page.getByRole("combobox", { name: "Inventory vehicle" }).filter({ hasText: "E2E-TUCSON-2025-0001" }).waitFor();
    await page.getByText("Vehicle-Of-Interest-E2E").first().waitFor();

    // The inventory card shows the VIN and what it decodes to.
    for (const [label, viewport] of [["1280", DESKTOP], ["375", PHONE]] as const) {
      await page.setViewportSize(viewport);
      await page.goto("/test-drives?q=E2E-TUCSON");
      const vehicleCard = page.getByTestId("vehicle-card").filter({ hasText: "E2E-TUCSON-2025-0001" });
      await vehicleCard.waitFor();
      expect(await vehicleCard.getByTestId("vin-facts").textContent()).toContain("Hyundai · built in the United States · model year 2025");
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await shotIfAsked(page, `vehicle-card-vin-${label}`);
      await expectAccessible(page, `vehicle card with its VIN at ${label}`);
    }

    // The second lead is merged into the first; its bookmark opens the first and says so.
    const merged = await page.request.post(`/api/leads/${leadId}/merge`, { data: { mergeLeadId: bookmarkedId } });
    expect(merged.status(), await merged.text()).toBe(200);
    await page.setViewportSize(DESKTOP);
    await page.goto(`/leads/detail/${bookmarkedId}`);
    await page.getByTestId("merged-notice").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/leads/detail/${leadId}`);
    await expectAccessible(page, "the kept lead reached from a merged-away bookmark");
    await context.close();
  }, 240_000);

  it("front desk imports a CSV through the dialog: preview, errors, then every row", async () => {
    const { server, browser } = suite;
    const dir = mkdtempSync(path.join(tmpdir(), "intake-e2e-"));
    const bad = path.join(dir, "bad.csv");
    const good = path.join(dir, "good.csv");
    writeFileSync(bad, "First Name,Last Name,Email\nIvy,Import-E2E,ivy@example.com\nJon,,jon@example.com\n");
    writeFileSync(good, "First Name,Last Name,Email\nIvy,Import-E2E,ivy@example.com\nJon,Import-E2E,jon@example.com\n");
    const { context, page } = await newPage(browser, server.url, DESKTOP);
    await logInAs(page, "frontDesk");
    await page.goto("/leads/new");
    await waitForHeading(page, "New Leads");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByLabel("CSV file").setInputFiles(bad);
    await page.getByText("Row 3:").waitFor();
    expect(await page.getByRole("button", { name: /^Import 2 leads$/ }).isDisabled()).toBe(true);
    await page.getByLabel("CSV file").setInputFiles(good);
    await page.getByText("all ready to import").waitFor();
    await page.getByRole("button", { name: /^Import 2 leads$/ }).click();
    await waitForToast(page, "2 leads imported");
    await page.getByTestId("lead-row").filter({ hasText: "Import-E2E" }).first().waitFor();
    await context.close();
  }, 120_000);
});
