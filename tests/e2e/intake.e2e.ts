import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { logInAs } from "./helpers/auth";
import { DESKTOP, newPage } from "./helpers/browser";
import { waitForHeading, waitForToast } from "./helpers/page";
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
    const secret = (await page.getByTestId("intake-secret").textContent()) ?? "";
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
    await page.getByText("Line 3:").waitFor();
    expect(await page.getByRole("button", { name: /^Import 2 leads$/ }).isDisabled()).toBe(true);
    await page.getByLabel("CSV file").setInputFiles(good);
    await page.getByText("all ready to import").waitFor();
    await page.getByRole("button", { name: /^Import 2 leads$/ }).click();
    await waitForToast(page, "2 leads imported");
    await page.getByTestId("lead-row").filter({ hasText: "Import-E2E" }).first().waitFor();
    await context.close();
  }, 120_000);
});
