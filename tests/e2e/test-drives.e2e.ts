import { format } from "date-fns";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localToday } from "../../src/shared/dealership-clock";
import { logInAs } from "./helpers/auth";
import { DESKTOP, launchBrowser, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked, waitForHeading, waitForPath, waitForToast } from "./helpers/page";
import { startServer, type RunningServer } from "./helpers/server";

// Test drives in a real browser against the real server (spec part 2 §2 Test drive inventory, Book a Test Drive,
// Test Drive Details, both analytics screens; §5 take-out rules; §8 toasts), at 1280 and at 375 px: a manager adds a
// vehicle, takes it out for a new client (who becomes a lead), returns it, books a drive for that client, edits, moves
// and deletes it on its detail page; then both analytics screens with each period, and what a sales rep may not see.
// SHOTS_DIR=/some/dir also saves a screenshot of each screen.

const TZ = "America/Toronto"; // the demo dealerships' zone
let server: RunningServer;
let browser: Browser;
let dealershipId: string;

/** A day cell of the date picker, by its accessible label ("Sunday, November 22, 2026"). */
function dayLabel(date: string): RegExp {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new RegExp(format(new Date(y, m - 1, d), "EEEE, MMMM d, yyyy"));
}

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const { context, page } = await newPage(browser, server.url);
  await logInAs(page, "management");
  const dealerships = (await (await page.request.get("/api/dealerships")).json()) as Array<{ id: string; name: string }>;
  dealershipId = dealerships.find((d) => d.name === "Northside Motors")!.id;
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.remove();
});

for (const [size, viewport] of [["1280", DESKTOP], ["375", PHONE]] as const) {
  describe(`a test drive from start to finish at ${size} px`, () => {
    const stock = `E2E-${size}`;
    const client = { name: `Ada Lovelace${size}`, email: `ada.${size}@example.com`, phone: "4165550199" };
    const tomorrow = addDays(localToday(TZ), 1);
    let page: Page;
    let bookedId: string;

    beforeAll(async () => {
      ({ page } = await newPage(browser, server.url, viewport));
      await logInAs(page, "management");
    });

    it("adds a vehicle: the form names what is missing, then the card shows it available", async () => {
      await page.goto("/test-drives");
      await waitForHeading(page, "Test Drives");
      await page.getByText("Vehicle Search & Filters").waitFor();
      await page.getByRole("button", { name: "Add Vehicle" }).first().click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Add Vehicle" }).click();
      for (const message of ["Year is required", "Make is required", "Model is required", "Stock number is required"]) await dialog.getByText(message).waitFor();

      await dialog.getByLabel("Year").fill("2025");
      await dialog.getByLabel("Make").fill("Honda");
      await dialog.getByLabel("Model").fill("Civic");
      await dialog.getByLabel("Trim").fill("EX-L");
      await dialog.getByLabel("Stock number").fill(stock);
      await dialog.getByLabel("Exterior colour").fill("Crystal Black");
      await dialog.getByLabel("Price ($)").fill("24,500");
      await dialog.getByLabel("Mileage").fill("12");
      // A VIN whose check digit is wrong is refused on the form, with the shared schema's message.
      await dialog.getByLabel("VIN").fill("1HGCM82633A004353");
      await dialog.getByRole("button", { name: "Add Vehicle" }).click();
      await dialog.getByText(/check digit/).waitFor();
      await dialog.getByLabel("VIN").fill("");
      await shotIfAsked(page, `add-vehicle-${size}`);
      await dialog.getByRole("button", { name: "Add Vehicle" }).click();
      await waitForToast(page, "Vehicle Added");

      const card = page.getByTestId("vehicle-card").filter({ hasText: stock });
      await card.waitFor();
      const text = await card.textContent();
      expect(text).toContain("2025 Honda Civic");
      expect(text).toContain("EX-L");
      expect(text).toContain("$24,500");
      expect(await card.getByTestId("vehicle-status").getAttribute("data-status")).toBe("available");
      const vehicles = (await (await page.request.get(`/api/dealerships/${dealershipId}/vehicles?q=${stock}`)).json()) as Array<{ price: number }>;
      expect(vehicles).toEqual([expect.objectContaining({ price: 2_450_000, mileage: 12 })]);
      await noSidewaysScroll(page);
      await shotIfAsked(page, `inventory-${size}`);
    });

    it("takes it out for a new client: disabled until the rules hold, then out with the client, who is a lead now", async () => {
      const card = page.getByTestId("vehicle-card").filter({ hasText: stock });
      await card.getByRole("button", { name: "Take Out Demo" }).click();
      const dialog = page.getByRole("dialog");
      const takeOut = dialog.getByRole("button", { name: "Take Out Demo" });
      await dialog.getByTestId("chosen-vehicle").filter({ hasText: stock }).waitFor();
      expect(await takeOut.isDisabled()).toBe(true);
      expect(await dialog.getByTestId("take-out-problem").textContent()).toBe("Please fill in all client information");
      await dialog.getByLabel("Full name").fill(client.name);
      await dialog.getByLabel("Email").fill(client.email);
      expect(await takeOut.isDisabled()).toBe(true);
      await dialog.getByLabel("Phone").pressSequentially(client.phone);
      expect(await dialog.getByLabel("Phone").inputValue()).toBe("416-555-0199");
      // An existing client must be chosen before the button wakes up.
      await dialog.getByRole("radio", { name: "Existing client" }).click();
      expect(await dialog.getByTestId("take-out-problem").textContent()).toBe("Please select an existing client");
      expect(await takeOut.isDisabled()).toBe(true);
      // Back to the new client: what was typed is still there.
      await dialog.getByRole("radio", { name: "New client" }).click();
      expect(await dialog.getByLabel("Full name").inputValue()).toBe(client.name);
      expect(await takeOut.isDisabled()).toBe(false);
      await shotIfAsked(page, `take-out-${size}`);
      await takeOut.click();
      await waitForToast(page, "Demo Taken Out");

      await card.getByTestId("vehicle-out").filter({ hasText: `Out with ${client.name}` }).waitFor();
      expect(await card.getByTestId("vehicle-status").getAttribute("data-status")).toBe("out");
      // Out: no second take-out from this card, Mark Returned instead.
      expect(await card.getByRole("button", { name: "Take Out Demo" }).count()).toBe(0);
      await shotIfAsked(page, `inventory-out-${size}`);

      // The new client is a lead of the dealership (a manager's goes to New Leads).
      await page.goto("/leads/new");
      await page.getByRole("link", { name: client.name }).first().waitFor();
    });

    it("returns it with Mark Returned: available again, and the drive has a duration", async () => {
      await page.goto("/test-drives");
      const card = page.getByTestId("vehicle-card").filter({ hasText: stock });
      await card.getByRole("button", { name: "Mark Returned" }).click();
      await waitForToast(page, "Demo Returned");
      await card.locator('[data-testid="vehicle-status"][data-status="available"]').waitFor();
      expect(await card.getByTestId("vehicle-out").count()).toBe(0);
      const leads = (await (await page.request.get(`/api/dealerships/${dealershipId}/leads?q=${encodeURIComponent(client.email)}`)).json()) as Array<{ id: string }>;
      const drives = (await (await page.request.get(`/api/test-drives?leadId=${leads[0]!.id}`)).json()) as Array<Record<string, unknown>>;
      expect(drives).toEqual([expect.objectContaining({ status: "completed", stockNumber: stock, duration: expect.any(Number), returnedAt: expect.any(String) })]);
    });

    it("books a drive for that client on the booking screen, with the clock ticking on Toronto time", async () => {
      await page.goto("/book-test-drive");
      await waitForHeading(page, "Book a Test Drive");
      const clock = page.getByTestId("live-clock-time");
      const first = await clock.textContent();
      expect(first).toMatch(/^\d{1,2}:\d{2}:\d{2} (AM|PM) E[SD]T$/);
      await page.waitForFunction((before) => document.querySelector('[data-testid="live-clock-time"]')?.textContent !== before, first, { timeout: 3000 });

      await page.getByRole("radio", { name: "Existing client" }).click();
      await page.getByLabel("Search clients").fill(client.email);
      await page.getByRole("option", { name: new RegExp(client.name) }).click();
      await page.getByTestId("chosen-client").filter({ hasText: client.email }).waitFor();
      await page.getByRole("combobox", { name: "Inventory vehicle" }).click();
      await page.getByRole("option", { name: new RegExp(stock) }).click();
      expect(await page.getByRole("button", { name: "Book Test Drive" }).isDisabled()).toBe(false);
      await page.getByRole("button", { name: /^Date:/ }).click();
      await page.getByRole("button", { name: dayLabel(tomorrow) }).click();
      await page.getByRole("combobox", { name: "Time" }).click();
      await page.getByRole("option", { name: "2:00 PM", exact: true }).click();
      await page.getByLabel("Notes").fill("Wants to try the highway on-ramp.");
      await noSidewaysScroll(page);
      await shotIfAsked(page, `book-${size}`);
      await page.getByRole("button", { name: "Book Test Drive" }).click();
      await waitForToast(page, "Test Drive Booked");
      await page.waitForURL((url) => /^\/test-drives\/[\w-]{21}$/.test(url.pathname));
      bookedId = new URL(page.url()).pathname.split("/").pop()!;

      await waitForHeading(page, "Test Drive Details");
      expect(await page.getByTestId("test-drive-status").first().textContent()).toBe("Scheduled");
      const info = await page.getByTestId("test-drive-information").textContent();
      expect(info).toContain("2025 Honda Civic EX-L");
      expect(info).toContain("2:00 PM");
      expect(info).toContain("Wants to try the highway on-ramp.");
      const drive = (await (await page.request.get(`/api/test-drives/${bookedId}`)).json()) as Record<string, unknown>;
      expect(drive).toMatchObject({ status: "scheduled", testDriveDate: tomorrow, testDriveTime: "14:00", clientType: "existing" });
      await noSidewaysScroll(page);
      await shotIfAsked(page, `detail-${size}`);
    });

    it("edits it, changes its status with the dropdown, and deletes it", async () => {
      await page.getByRole("button", { name: "Edit", exact: true }).click();
      await page.getByLabel("Vehicle driven").fill("2025 Honda Civic EX-L (demo)");
      await page.getByLabel("Notes").fill("Moved to the afternoon.");
      await shotIfAsked(page, `detail-edit-${size}`);
      await page.getByRole("button", { name: "Save" }).click();
      await waitForToast(page, "Test drive updated successfully");
      await page.getByTestId("test-drive-information").filter({ hasText: "Moved to the afternoon." }).waitFor();

      await page.getByRole("combobox", { name: "Test drive status" }).click();
      const offered = await page.getByRole("option").allTextContents();
      expect(offered).toEqual(["Scheduled", "In Progress", "Completed", "Cancelled", "No Show"]);
      await page.getByRole("option", { name: "No Show" }).click();
      await waitForToast(page, "Test drive status updated successfully");
      await page.getByTestId("test-drive-status").filter({ hasText: "No Show" }).first().waitFor();

      await page.getByRole("button", { name: "Delete", exact: true }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete Test Drive" }).click();
      await waitForToast(page, "Test drive deleted successfully");
      await waitForPath(page, "/test-drives");
      expect((await page.request.get(`/api/test-drives/${bookedId}`)).status()).toBe(404);

      await page.goto(`/test-drives/${bookedId}`);
      await waitForHeading(page, "Test Drive Not Found");
      await shotIfAsked(page, `not-found-${size}`);
      // "book" is never taken for an id.
      await page.goto("/test-drives/book");
      await waitForHeading(page, "Book a Test Drive");
    });

    it("lists the returned drive on the client's lead page", async () => {
      const leads = (await (await page.request.get(`/api/dealerships/${dealershipId}/leads?q=${encodeURIComponent(client.email)}`)).json()) as Array<{ id: string }>;
      expect(leads).toHaveLength(1);
      await page.goto(`/leads/detail/${leads[0]!.id}`);
      const item = page.getByTestId("lead-test-drive").filter({ hasText: "2025 Honda Civic EX-L" });
      await item.waitFor();
      expect(await item.getAttribute("data-status")).toBe("completed");
      expect(await item.textContent()).toContain("Completed");
      await page.getByTestId("lead-test-drives").scrollIntoViewIfNeeded();
      await shotIfAsked(page, `lead-test-drives-${size}`);
    });

    it("shows Test Drive Analytics for each period, the figures the server counts", async () => {
      await page.goto("/tdus");
      await waitForHeading(page, "Test Drive Analytics");
      for (const [days, label] of [[1, "1 Day"], [7, "7 Days"], [30, "30 Days"], [90, "90 Days"]] as const) {
        await page.getByRole("radio", { name: label }).click();
        const expected = (await (await page.request.get(`/api/dealerships/${dealershipId}/test-drives/analytics/${days}`)).json()) as { totalTestDrives: number; vehiclesUsed: number };
        await page.waitForFunction(
          ([total]) => document.querySelector('[data-testid="total-test-drives"] [data-testid="stat-value"]')?.textContent === String(total),
          [expected.totalTestDrives],
        );
        expect(await page.getByTestId("vehicles-used").getByTestId("stat-value").textContent()).toBe(String(expected.vehiclesUsed));
        expect(expected.totalTestDrives).toBeGreaterThanOrEqual(1); // today's drive at least
        if (days > 1) await page.getByTestId("daily-chart").locator("svg").first().waitFor();
        await noSidewaysScroll(page);
        await shotIfAsked(page, `tdus-${days}-${size}`);
      }
      expect(new URL(page.url()).searchParams.get("days")).toBe("90");
    });

    it("shows Sales Rep Analytics for each period to management", async () => {
      await page.goto("/sales-analytics");
      await waitForHeading(page, "Sales Rep Analytics");
      for (const [days, label] of [[7, "Last 7 Days"], [30, "Last 30 Days"], [90, "Last 90 Days"], [365, "Last Year"]] as const) {
        await page.getByRole("combobox", { name: "Period" }).click();
        await page.getByRole("option", { name: label }).click();
        const expected = (await (await page.request.get(`/api/dealerships/${dealershipId}/sales-rep-analytics/${days}`)).json()) as {
          summary: { totalReps: number; totalTestDrivesTaken: number };
          salesReps: unknown[];
        };
        await page.waitForFunction(
          ([total]) => document.querySelector('[data-testid="test-drives"] [data-testid="stat-value"]')?.textContent === String(total),
          [expected.summary.totalTestDrivesTaken],
        );
        expect(await page.getByTestId("sales-reps").getByTestId("stat-value").textContent()).toBe(String(expected.summary.totalReps));
        expect(await page.getByTestId("rep-row").count()).toBe(expected.salesReps.length);
        await page.getByTestId("rep-chart").locator("svg").first().waitFor();
        await noSidewaysScroll(page);
        await shotIfAsked(page, `sales-analytics-${days}-${size}`);
      }
    });

    it("removes the vehicle after the spec's confirmation", async () => {
      await page.goto("/test-drives");
      const card = page.getByTestId("vehicle-card").filter({ hasText: stock });
      await card.getByRole("button", { name: "Remove 2025 Honda Civic" }).click();
      const confirm = page.getByRole("alertdialog");
      await confirm.getByRole("heading", { name: "Remove 2025 Honda Civic from inventory?" }).waitFor();
      await shotIfAsked(page, `remove-${size}`);
      await confirm.getByRole("button", { name: "Remove Vehicle" }).click();
      await waitForToast(page, "Vehicle Removed");
      await card.waitFor({ state: "detached" });
      expect(await (await page.request.get(`/api/dealerships/${dealershipId}/vehicles?q=${stock}`)).json()).toEqual([]);
      await page.context().close();
    });
  });
}

describe("what a sales rep sees", () => {
  it("has Test Drives in the phone's bottom bar but no analytics links, no Add Vehicle, and Access Denied on both analytics pages", async () => {
    const { context, page } = await newPage(browser, server.url, PHONE);
    await logInAs(page, "sales");
    await page.goto("/test-drives");
    await waitForHeading(page, "Test Drives");
    await page.getByRole("navigation", { name: "Quick" }).getByRole("link", { name: "Test Drives" }).waitFor();
    expect(await page.getByRole("button", { name: "Add Vehicle" }).count()).toBe(0);
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("dialog").getByRole("link", { name: "Test Drives" }).waitFor();
    expect(await page.getByRole("link", { name: "Sales Rep Analytics" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Test Drive Analytics" }).count()).toBe(0);
    await page.keyboard.press("Escape");

    await page.goto("/sales-analytics");
    await waitForHeading(page, "Access Denied");
    await page.getByText("You need management access to view sales rep analytics").waitFor();
    await shotIfAsked(page, "sales-analytics-denied-375");
    await page.getByRole("button", { name: "Go Back" }).click();
    await waitForPath(page, "/test-drives");

    // Test drive analytics are management's too (decision 177): the page says so and the server answers 403.
    await page.goto("/tdus");
    await waitForHeading(page, "Access Denied");
    await page.getByText("You need management access to view test drive analytics").waitFor();
    await context.close();
  });
});
