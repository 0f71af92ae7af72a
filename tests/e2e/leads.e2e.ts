import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logInAs, register, uniqueEmail } from "./helpers/auth";
import { DESKTOP, launchBrowser, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked, waitForHeading, waitForPath, waitForToast } from "./helpers/page";
import { startServer, type RunningServer } from "./helpers/server";

// Leads in a real browser against the real server (spec part 1 §2.3-2.6, part 2 lead detail): front desk creates and
// assigns a lead; a rep claims another from New Leads and finds it in My Clients; the lead detail is edited, an edit
// is cancelled, and the lead is deleted. SHOTS_DIR=/some/dir also saves every screen at 1280 and 375 px.

let server: RunningServer;
let browser: Browser;

/** Screenshots a path at 375 px in a second context of the same user. */
async function phoneShot(who: "sales" | "frontDesk", route: string, name: string, ready: string): Promise<void> {
  if (!process.env.SHOTS_DIR) return;
  const { context, page } = await newPage(browser, server.url, PHONE);
  await logInAs(page, who);
  await page.goto(route);
  await page.getByText(ready, { exact: false }).filter({ visible: true }).first().waitFor();
  await shotIfAsked(page, name);
  await context.close();
}

const row = (p: Page, text: string) => p.getByTestId("lead-row").filter({ hasText: text });

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.remove();
});

describe("leads", () => {
  it("front desk creates a lead assigned to a rep, who then has it among their clients", async () => {
    const { context, page } = await newPage(browser, server.url, DESKTOP);
    await logInAs(page, "frontDesk");
    await shotIfAsked(page, "dashboard-frontdesk-1280");
    await page.goto("/leads/new");
    await waitForHeading(page, "New Leads");
    await page.getByRole("button", { name: "Send Reminder" }).waitFor();
    await shotIfAsked(page, "new-leads-frontdesk-1280");

    await page.getByRole("link", { name: "Create New Lead" }).click();
    await waitForPath(page, "/leads/create");
    await page.getByLabel("First Name").fill("Wanda");
    await page.getByLabel("Last Name").fill("Assigned-E2E");
    await page.getByLabel("Email").fill("wanda.e2e@example.com");
    // Only digits are taken, formatted 3-3-4 as they are typed.
    await page.getByLabel("Phone").pressSequentially("416abc5550177");
    expect(await page.getByLabel("Phone").inputValue()).toBe("416-555-0177");
    await page.getByLabel("Description").fill("Wants a hybrid SUV under $45k.");
    await page.getByLabel("Assign to Sales Rep").click();
    await page.getByRole("option", { name: "Riley Chen" }).click();
    await shotIfAsked(page, "create-lead-frontdesk-1280");
    await page.getByRole("button", { name: "Create Lead" }).click();
    await waitForToast(page, "Lead created successfully");
    await waitForPath(page, "/leads/new");
    // Assigned, so it is not waiting in New Leads…
    expect(await row(page, "Assigned-E2E").count()).toBe(0);

    // …but it is among All Clients, claimed by the rep.
    await page.goto("/leads/my");
    await waitForHeading(page, "All Clients");
    await page.getByPlaceholder("Search by name, email, or phone...").fill("assigned-e2e");
    await row(page, "Wanda Assigned-E2E").waitFor();
    expect(await row(page, "Wanda Assigned-E2E").textContent()).toContain("by Riley Chen");
    await shotIfAsked(page, "all-clients-search-frontdesk-1280");

    // Send Reminder answers with the server's message.
    await page.goto("/leads/new");
    await page.getByRole("button", { name: "Send Reminder" }).click();
    const reminder = await waitForToast(page, "Reminder Sent");
    expect(reminder).toMatch(/Reminder sent to 2 sales reps about \d+ new leads\./);
    await context.close();
    await phoneShot("frontDesk", "/leads/create", "create-lead-frontdesk-375", "Assign to Sales Rep");
    await phoneShot("frontDesk", "/leads/my", "all-clients-frontdesk-375", "All Clients");
  });

  it("a sales rep claims a lead from New Leads and finds it in My Clients", async () => {
    const { context, page } = await newPage(browser, server.url, DESKTOP);
    await logInAs(page, "sales");
    await page.getByTestId("recent-leads").waitFor();
    await page.getByTestId("metric-card").first().waitFor();
    await shotIfAsked(page, "dashboard-sales-1280");
    const badgeBefore = Number(await page.getByTestId("new-leads-badge").first().textContent());

    await page.getByRole("link", { name: /New Leads/ }).first().click();
    await waitForHeading(page, "New Leads");
    await row(page, "Olivia Bennett").waitFor();
    expect(await page.getByRole("button", { name: "Send Reminder" }).count()).toBe(0); // sales: not theirs to send
    await row(page, "Olivia Bennett").getByRole("button", { name: "Claim" }).click();
    // The row leaves the list at once; the server confirms.
    await waitForToast(page, "Lead Claimed Successfully");
    expect(await row(page, "Olivia Bennett").count()).toBe(0);
    await page.getByTestId("new-leads-badge").first().filter({ hasText: String(badgeBefore - 1) }).waitFor();
    await shotIfAsked(page, "new-leads-after-claim-sales-1280");

    await page.getByRole("link", { name: "My Clients" }).first().click();
    await waitForHeading(page, "My Clients");
    await row(page, "Olivia Bennett").waitFor();
    expect(await row(page, "Olivia Bennett").textContent()).toContain("Claimed");
    await shotIfAsked(page, "my-clients-sales-1280");

    // Search and status filter combine (server-side); an unmatched search says so.
    await page.getByPlaceholder("Search by name, email, or phone...").fill("zzz-nobody");
    await page.getByText("No clients found").waitFor();
    await shotIfAsked(page, "my-clients-no-match-sales-1280");
    await context.close();
    await phoneShot("sales", "/", "dashboard-sales-375", "Recent Leads");
    await phoneShot("sales", "/leads/my", "my-clients-sales-375", "Olivia Bennett");
    await phoneShot("sales", "/leads/new", "new-leads-sales-375", "New Leads");
  });

  it("shows the empty states of a dealership without leads", async () => {
    for (const [label, viewport] of [["1280", DESKTOP], ["375", PHONE]] as const) {
      const { context, page } = await newPage(browser, server.url, viewport);
      await register(page, { firstName: "Erin", lastName: "Empty", email: uniqueEmail("leads-empty"), dealershipName: "Empty Motors", password: "secret123" });
      await page.getByText("No leads yet").waitFor();
      await page.getByRole("link", { name: "Create First Lead" }).waitFor();
      await shotIfAsked(page, `dashboard-empty-${label}`);
      await page.goto("/leads/new");
      await page.getByText("No new leads available").waitFor();
      expect(await page.getByRole("button", { name: "Send Reminder" }).count()).toBe(0); // only while new leads exist
      await shotIfAsked(page, `new-leads-empty-${label}`);
      await page.goto("/leads/my");
      await page.getByText("No clients assigned").waitFor();
      await shotIfAsked(page, `all-clients-empty-${label}`);
      await context.close();
    }
  });

  it("edits a lead on its detail page, cancels an edit, and deletes it", async () => {
    const { context, page } = await newPage(browser, server.url, DESKTOP);
    await logInAs(page, "sales");
    await page.goto("/leads/my");
    await row(page, "Aisha Rahman").getByRole("link", { name: /View details/i }).click();
    await page.waitForURL(/\/leads\/detail\//);
    const leadId = page.url().split("/").pop()!;
    await waitForHeading(page, "Lead Information");
    expect(await page.getByTestId("lead-side").textContent()).toContain("Sam Sales");
    await shotIfAsked(page, "lead-detail-sales-1280");

    await page.getByRole("button", { name: "Edit Lead" }).click();
    await page.getByLabel("Phone").fill("");
    await page.getByLabel("Phone").pressSequentially("6475550100");
    await page.getByLabel("Description").fill("Test drive booked for Saturday.");
    await page.getByLabel("Status", { exact: true }).click();
    await page.getByRole("option", { name: "In Progress" }).click();
    await shotIfAsked(page, "lead-edit-sales-1280");
    await page.getByRole("button", { name: "Save" }).click();
    await waitForToast(page, "Lead Updated");
    const info = page.getByTestId("lead-information");
    await info.getByText("647-555-0100").waitFor();
    expect(await info.textContent()).toContain("Test drive booked for Saturday.");
    expect(await info.textContent()).toContain("In Progress");

    // Cancel restores the original values.
    await page.getByRole("button", { name: "Edit Lead" }).click();
    await page.getByLabel("First Name").fill("Changed");
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(await info.textContent()).toContain("Aisha");
    expect(await info.textContent()).not.toContain("Changed");
    const saved = (await (await page.request.get(`/api/leads/${leadId}`)).json()) as { firstName: string; status: string; phone: string };
    expect(saved).toMatchObject({ firstName: "Aisha", status: "inProgress", phone: "+16475550100" }); // E.164 (decision 205)

    // A quick status change from the side column.
    await page.getByLabel("Change status").click();
    await page.getByRole("option", { name: "Qualified" }).click();
    await waitForToast(page, "Lead status updated successfully");
    await info.getByText("Qualified").waitFor();

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete Lead" }).click();
    await waitForToast(page, "Lead Deleted");
    await waitForPath(page, "/leads/new");
    expect((await page.request.get(`/api/leads/${leadId}`)).status()).toBe(404);

    await page.goto(`/leads/detail/${leadId}`);
    await waitForHeading(page, "Lead Not Found");
    await page.getByText("The lead you're looking for doesn't exist or has been deleted.").waitFor();
    await shotIfAsked(page, "lead-not-found-1280");
    await page.getByRole("link", { name: "Back to Leads" }).click();
    await waitForPath(page, "/leads/new");
    await context.close();

    if (process.env.SHOTS_DIR) {
      const phone = await newPage(browser, server.url, PHONE);
      await logInAs(phone.page, "sales");
      await phone.page.goto("/leads/my");
      await phone.page.getByTestId("lead-card").filter({ hasText: "Lucas Ferreira" }).getByRole("link", { name: /View details/i }).click();
      await waitForHeading(phone.page, "Lead Information");
      await shotIfAsked(phone.page, "lead-detail-sales-375");
      await phone.page.getByRole("button", { name: "Edit Lead" }).click();
      await shotIfAsked(phone.page, "lead-edit-sales-375");
      await phone.page.goto(`/leads/detail/${leadId}`);
      await waitForHeading(phone.page, "Lead Not Found");
      await shotIfAsked(phone.page, "lead-not-found-375");
      await phone.context.close();
    }
  });
});
