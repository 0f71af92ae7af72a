import { format } from "date-fns";
import nodeIcal, { type VEvent } from "node-ical";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localToday } from "../../src/shared/dealership-clock";
import { logInAs } from "./helpers/auth";
import { expectAccessible } from "./helpers/axe";
import { launchBrowser, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked, waitForHeading, waitForPath, waitForToast } from "./helpers/page";
import { startServer, type RunningServer } from "./helpers/server";

// Appointments in a real browser against the real server (spec part 1 §2.7, §2.8, §2.3): schedule from a lead,
// find it on the calendar, mark it arrived then completed and see the duration, cancel another, subscribe.
// SHOTS_DIR=/some/dir also saves a screenshot of each screen.

const TZ = "America/Toronto"; // the demo dealerships' zone
let server: RunningServer;
let browser: Browser;
let page: Page;
let dealershipId: string;
let leadId: string;
const tomorrow = addDays(localToday(TZ), 1);
const customer = { firstName: "Quinn", lastName: "Appointment-E2E", email: "quinn.e2e@example.com", phone: "4165550177" };

/** A day cell of the date picker, by react-day-picker's accessible label ("Sunday, November 22nd, 2026"). */
function dayLabel(date: string): RegExp {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new RegExp(format(new Date(y, m - 1, d), "EEEE, MMMM d, yyyy"));
}

function card(p: Page, name: string) {
  return p.getByTestId("appointment-card").filter({ hasText: name });
}

function driveCard(p: Page, name: string) {
  return p.getByTestId("test-drive-card").filter({ hasText: name });
}

/** Two drives the rep booked for tomorrow, on leads with long real-world names (issue 27: the calendar shows them). */
const DRIVES = [
  { firstName: "Oluwaseun", lastName: "Adeyemi-Okonkwo", vehicle: "2024 Ford F-150 Lariat SuperCrew 4x4 with the Max Trailer Tow Package", time: "11:00" },
  { firstName: "Maria Guadalupe", lastName: "Wojciechowski-Hernández", vehicle: "2025 Toyota RAV4 Hybrid XSE", time: "15:00" },
] as const;

/** The names on the day's cards, top to bottom (those this file made: the demo data may book the day too). */
async function dayOrder(p: Page): Promise<string[]> {
  const ours = ["Quinn", "Robin", "Oluwaseun", "Maria Guadalupe", "Nguyễn"];
  return (await p.locator('[data-testid="appointment-card"] h3, [data-testid="test-drive-card"] h3').allTextContents()).filter((name) => ours.some((first) => name.startsWith(first)));
}

/** How many appointments the rep has on the day, as the appointments call says. */
async function appointmentsOn(p: Page, date: string): Promise<number> {
  return ((await (await p.request.get(`/api/dealerships/${dealershipId}/appointments?date=${date}`)).json()) as unknown[]).length;
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ page } = await newPage(browser, server.url));
  await logInAs(page, "sales");
  const dealerships = (await (await page.request.get("/api/dealerships")).json()) as Array<{ id: string; name: string }>;
  dealershipId = dealerships.find((d) => d.name === "Northside Motors")!.id;
  // The customer is a lead of the dealership (the leads area's API); the rep starts from it.
  const created = await page.request.post(`/api/dealerships/${dealershipId}/leads`, {
    data: { ...customer, phone: "416-555-0177", description: "Wants a weekend test drive" },
  });
  expect(created.status()).toBe(201);
  leadId = ((await created.json()) as { id: string }).id;
});
afterAll(async () => {
  await browser?.close();
  await server?.remove();
});

describe("scheduling and working an appointment in the browser", () => {
  it("schedules from a lead: the customer is prefilled, past days are disabled, then Scheduled! and the calendar", async () => {
    // The lead's page lists its appointments (none yet) and offers to schedule one.
    await page.goto(`/leads/detail/${leadId}`);
    const panel = page.getByTestId("lead-appointments");
    await panel.getByText("No appointments for this lead yet.").waitFor();
    await shotIfAsked(page, "lead-detail-before-1280");
    await panel.getByRole("link", { name: "Schedule" }).click();
    await waitForPath(page, "/appointments/new");
    expect(new URL(page.url()).searchParams.get("leadId")).toBe(leadId);
    await waitForHeading(page, "Schedule Appointment");
    await page.getByTestId("lead-prefill").filter({ hasText: `${customer.firstName} ${customer.lastName}` }).waitFor();
    expect(await page.getByLabel("First name").inputValue()).toBe(customer.firstName);
    expect(await page.getByLabel("Last name").inputValue()).toBe(customer.lastName);
    expect(await page.getByLabel(/^Email/).inputValue()).toBe(customer.email);
    expect(await page.getByLabel("Phone").inputValue()).toBe("416-555-0177");

    // Submitting empty required fields shows the schema's messages and sends nothing.
    await page.getByRole("button", { name: "Schedule Appointment" }).click();
    await page.getByText("Title is required").waitFor();
    await page.getByText("Time is required").waitFor();

    await page.getByLabel("Title").fill("Weekend test drive");
    await page.getByRole("button", { name: /^Date:/ }).click();
    const yesterday = page.getByRole("button", { name: dayLabel(addDays(localToday(TZ), -1)) });
    if (await yesterday.count()) expect(await yesterday.isDisabled()).toBe(true);
    await shotIfAsked(page, "schedule-datepicker-1280");
    await page.getByRole("button", { name: dayLabel(tomorrow) }).click();
    await page.getByRole("combobox", { name: "Time" }).click();
    const slots = await page.getByRole("option").allTextContents();
    expect(slots).toHaveLength(18);
    expect(slots[0]).toBe("9:00 AM");
    expect(slots[17]).toBe("5:30 PM");
    await shotIfAsked(page, "schedule-time-slots-1280");
    await page.getByRole("option", { name: "2:00 PM", exact: true }).click();
    await page.getByLabel("Description").fill("Bring the trade-in papers.");
    await shotIfAsked(page, "schedule-filled-1280");

    await page.getByRole("button", { name: "Schedule Appointment" }).click();
    await page.getByRole("button", { name: "Scheduled!" }).waitFor();
    const scheduledAt = Date.now();
    await waitForToast(page, "Appointment created successfully");
    await waitForPath(page, "/calendar");
    // "Scheduled!" stays on screen before the redirect (1200 ms, part 1 §9; allow for polling).
    expect(Date.now() - scheduledAt).toBeGreaterThanOrEqual(700);
    expect(new URL(page.url()).searchParams.get("date")).toBe(tomorrow);

    const appointments = (await (await page.request.get(`/api/appointments?leadId=${leadId}`)).json()) as Array<{ title: string; date: string; time: string }>;
    expect(appointments).toEqual([expect.objectContaining({ title: "Weekend test drive", date: tomorrow, time: "14:00" })]);
  });

  it("finds it on the calendar on that day, with the Sales Associate, and by searching", async () => {
    const mine = card(page, "Quinn Appointment-E2E");
    await mine.waitFor();
    const text = await mine.textContent();
    expect(text).toContain("Scheduled: 2:00 PM");
    expect(text).toContain("Sales Associate: Sam Sales");
    expect(text).toContain("quinn.e2e@example.com");
    expect(await mine.getByTestId("appointment-status").textContent()).toBe("Scheduled");
    // Stored in E.164, dialled as such (decision 205).
    expect(await mine.getByRole("link", { name: /Call/ }).getAttribute("href")).toBe("tel:+14165550177");
    await shotIfAsked(page, "calendar-day-1280");

    await page.getByLabel("Search appointments").fill("555-0177");
    await mine.waitFor();
    await page.getByLabel("Search appointments").fill("nobody-here");
    await page.getByText("No appointments found").waitFor();
    await page.getByText("No appointments match your search criteria.", { exact: false }).waitFor();
    await shotIfAsked(page, "calendar-no-match-1280");
    await page.getByRole("button", { name: "Clear search" }).click();
    await mine.waitFor();
  });

  it("marks it arrived (Arrived badge), then completed (Duration badge), and the day summary follows", async () => {
    const mine = card(page, "Quinn Appointment-E2E");
    await mine.getByRole("combobox", { name: /Status of/ }).click();
    await page.getByRole("option", { name: "Arrived", exact: true }).click();
    await waitForToast(page, "Status Updated");
    await mine.getByTestId("appointment-arrived").waitFor();
    expect(await mine.getByTestId("appointment-arrived").textContent()).toMatch(/^Arrived: \d{1,2}:\d{2} (AM|PM)$/);
    expect(await mine.getByTestId("appointment-status").textContent()).toBe("Arrived");

    await mine.getByRole("combobox", { name: /Status of/ }).click();
    await page.getByRole("option", { name: "Completed", exact: true }).click();
    await mine.getByTestId("appointment-duration").waitFor();
    expect(await mine.getByTestId("appointment-duration").textContent()).toMatch(/^Duration: \d+ min$/);
    expect(await mine.getByTestId("appointment-status").textContent()).toBe("Completed");
    // Completed: no cancel button any more.
    expect(await mine.getByRole("button", { name: /^Cancel/ }).count()).toBe(0);
    expect(await page.getByTestId("summary-completed").textContent()).toContain("1");
    await shotIfAsked(page, "calendar-completed-1280");
  });

  it("cancels another appointment with the cancel button, once confirmed (issue 12)", async () => {
    const other = await page.request.post(`/api/dealerships/${dealershipId}/appointments`, {
      data: { title: "Financing chat", firstName: "Robin", lastName: "Cancel-E2E", date: tomorrow, time: "16:30" },
    });
    expect(other.status()).toBe(201);
    await page.reload();
    const robin = card(page, "Robin Cancel-E2E");
    await robin.waitFor();
    expect(await robin.getByRole("link", { name: /Call/ }).count()).toBe(0); // no phone, no call button
    await robin.getByRole("button", { name: /^Cancel/ }).click();
    await page.getByRole("alertdialog", { name: "Cancel Robin Cancel-E2E's appointment?" }).waitFor();
    await page.getByRole("button", { name: "Cancel appointment", exact: true }).click();
    await waitForToast(page, "Appointment Cancelled");
    await page.locator('[data-testid="appointment-card"][data-status="cancelled"]', { hasText: "Robin Cancel-E2E" }).waitFor();
    expect(await robin.getByTestId("appointment-status").textContent()).toBe("Cancelled");
    expect(await robin.getByRole("button", { name: /^Cancel/ }).count()).toBe(0);
    expect(await page.getByTestId("summary-cancelled").textContent()).toContain("1");

    await page.getByRole("combobox", { name: "Filter by status" }).click();
    await page.getByRole("option", { name: "Cancelled", exact: true }).click();
    expect(await page.getByTestId("appointment-card").count()).toBe(1);
    await page.getByRole("combobox", { name: "Filter by status" }).click();
    await page.getByRole("option", { name: "All Appointments" }).click();
  });

  it("shows the day's test drives beside its appointments, with their own badge, and counts both (issue 27)", async () => {
    for (const drive of DRIVES) {
      const lead = await page.request.post(`/api/dealerships/${dealershipId}/leads`, { data: { firstName: drive.firstName, lastName: drive.lastName, phone: "416-555-0190" } });
      expect(lead.status()).toBe(201);
      const booked = await page.request.post("/api/test-drives", {
        data: { dealershipId, clientType: "existing", leadId: ((await lead.json()) as { id: string }).id, vehicleType: "manual", vehicleDriven: drive.vehicle, stockNumber: "HT25-004411-B", status: "scheduled", testDriveDate: tomorrow, testDriveTime: drive.time },
      });
      expect(booked.status()).toBe(201);
    }
    // The day is read from the agenda, the call My Day reads.
    const agendaCall = page.waitForRequest((r) => r.url().includes(`/agenda?date=${tomorrow}&scope=mine`));
    await page.goto(`/calendar?date=${tomorrow}`);
    await agendaCall;
    const oluwaseun = driveCard(page, "Oluwaseun Adeyemi-Okonkwo");
    await oluwaseun.waitFor();
    // The day's appointments (Quinn's, completed, Robin's, cancelled, and any the demo data booked), and the two drives.
    const booked = await appointmentsOn(page, tomorrow);
    expect(booked).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId("day-count").textContent()).toBe(`${booked} appointments · 2 test drives`);
    expect(await oluwaseun.getByTestId("test-drive-badge").textContent()).toBe("Test drive");
    const text = await oluwaseun.textContent();
    expect(text).toContain(DRIVES[0].vehicle);
    expect(text).toContain("Booked: 11:00 AM");
    expect(text).toContain("Sales Associate: Sam Sales");
    expect(await oluwaseun.getByTestId("test-drive-status").textContent()).toBe("Scheduled");
    // In time order with the appointments: 11:00 drive, 14:00 Quinn, 15:00 drive, 16:30 Robin.
    expect(await dayOrder(page)).toEqual(["Oluwaseun Adeyemi-Okonkwo", "Quinn Appointment-E2E", "Maria Guadalupe Wojciechowski-Hernández", "Robin Cancel-E2E"]);
    await expectAccessible(page, "/calendar with test drives at 1280 px");
    await shotIfAsked(page, "calendar-drives-1280");

    // The status filter and the search narrow the drives too.
    await page.getByRole("combobox", { name: "Filter by status" }).click();
    await page.getByRole("option", { name: "Scheduled", exact: true }).click();
    expect(await dayOrder(page)).toEqual(["Oluwaseun Adeyemi-Okonkwo", "Maria Guadalupe Wojciechowski-Hernández"]);
    await page.getByRole("combobox", { name: "Filter by status" }).click();
    await page.getByRole("option", { name: "All Appointments" }).click();
    await page.getByLabel("Search appointments").fill("RAV4");
    await driveCard(page, "Wojciechowski").waitFor();
    expect(await dayOrder(page)).toEqual(["Maria Guadalupe Wojciechowski-Hernández"]);
    await page.getByLabel("Search appointments").fill("");

    await oluwaseun.getByRole("link", { name: "Open test drive: Oluwaseun Adeyemi-Okonkwo" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/test-drives/"));
  });

  it("warns when the rep books a slot they already hold, and books it all the same (issue 27)", async () => {
    const before = await appointmentsOn(page, tomorrow);
    await page.goto(`/appointments/new?date=${tomorrow}`);
    await waitForHeading(page, "Schedule Appointment");
    const note = page.getByTestId("slot-clash");
    const pick = async (slot: string) => {
      await page.getByRole("combobox", { name: "Time" }).click();
      await page.getByRole("option", { name: slot, exact: true }).click();
    };
    await pick("12:30 PM");
    await page.waitForLoadState("networkidle");
    expect(await note.textContent()).toBe("");
    // A 60-minute visit at 10:30 runs into the 11:00 drive.
    await pick("10:30 AM");
    await note.getByText("You already have Oluwaseun Adeyemi-Okonkwo's test drive at 11:00 AM").waitFor();
    await pick("11:00 AM");
    await note.getByText(`You already have Oluwaseun Adeyemi-Okonkwo's test drive at 11:00 AM (${DRIVES[0].vehicle}) in this slot. You can still book it.`).waitFor();
    await page.getByLabel("Title").fill("Second opinion on the trade-in");
    await page.getByLabel("First name").fill("Nguyễn Thị");
    await page.getByLabel("Last name").fill("Minh Khai");
    await expectAccessible(page, "/appointments/new with the double-booking warning at 1280 px");
    await shotIfAsked(page, "schedule-clash-1280");
    // Allowed, only said.
    await page.getByRole("button", { name: "Schedule Appointment" }).click();
    await page.getByRole("button", { name: "Scheduled!" }).waitFor();
    await waitForPath(page, "/calendar");
    await card(page, "Nguyễn Thị Minh Khai").waitFor();
    expect(await appointmentsOn(page, tomorrow)).toBe(before + 1);
    await page.getByTestId("day-count").filter({ hasText: `${before + 1} appointments · 2 test drives` }).waitFor();

    // The test drive form says the same of a drive booked into the appointment's slot.
    await page.goto("/test-drives/book");
    await page.getByRole("button", { name: /^Date:/ }).click();
    await page.getByRole("button", { name: dayLabel(tomorrow) }).click();
    await page.getByRole("combobox", { name: "Time" }).click();
    await page.getByRole("option", { name: "11:30 AM", exact: true }).click();
    await page.getByTestId("slot-clash").getByText("You already have Nguyễn Thị Minh Khai's appointment at 11:00 AM (Second opinion on the trade-in) in this slot.", { exact: false }).waitFor();
  });

  it("shows the empty state on a day without appointments", async () => {
    const later = addDays(localToday(TZ), 200);
    await page.goto(`/calendar?date=${later}`);
    await page.getByText("No appointments scheduled for this day").waitFor();
    expect(await page.getByRole("heading", { name: "No appointments", exact: true }).isVisible()).toBe(true);
    // Scheduling from here preselects that day.
    await page.getByRole("main").getByRole("link", { name: "Schedule Appointment" }).first().click();
    await waitForPath(page, "/appointments/new");
    expect(await page.getByRole("button", { name: /^Date:/ }).textContent()).toContain(format(new Date(Number(later.slice(0, 4)), Number(later.slice(5, 7)) - 1, Number(later.slice(8, 10))), "MMMM d, yyyy"));
    await page.goBack();
    await page.getByText("No appointments scheduled for this day").waitFor();
    await shotIfAsked(page, "calendar-empty-1280");
  });

  it("lists the appointment on the dashboard's upcoming panel", async () => {
    await page.goto("/");
    await waitForHeading(page, "Dashboard");
    const panel = page.getByTestId("upcoming-appointments");
    await panel.getByTestId("upcoming-appointment").first().waitFor();
    expect(await panel.getByTestId("upcoming-appointment").count()).toBeLessThanOrEqual(5);
    expect(await panel.textContent()).toContain("Sales Associate: Sam Sales");
    await shotIfAsked(page, "dashboard-1280");
  });

  it("gives a private calendar link whose feed has the appointment, and regenerating retires the old link", async () => {
    await page.goto(`/calendar?date=${tomorrow}`);
    await page.getByRole("button", { name: "Subscribe in your calendar" }).click();
    await page.getByRole("button", { name: "Create link" }).click();
    const url = await page.locator("#calendar-feed-url").inputValue();
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    await shotIfAsked(page, "subscribe-dialog-1280");

    const feed = await page.request.get(url);
    expect(feed.status()).toBe(200);
    expect(feed.headers()["content-type"]).toContain("text/calendar");
    const events = Object.values(nodeIcal.sync.parseICS(await feed.text())).filter((c): c is VEvent => c?.type === "VEVENT");
    const quinn = events.find((e) => String(e.summary).includes("Quinn Appointment-E2E"))!;
    expect(quinn).toBeDefined();
    expect(quinn.start.tz).toBe(TZ);
    // Cancelled appointments are left out of the feed (decision 023).
    expect(events.some((e) => String(e.summary).includes("Robin Cancel-E2E"))).toBe(false);

    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Subscribe in your calendar" }).click();
    await page.getByTestId("calendar-feed-exists").waitFor();
    await page.getByRole("button", { name: "Regenerate link" }).click();
    const fresh = await page.locator("#calendar-feed-url").inputValue();
    expect(fresh).not.toBe(url);
    expect((await page.request.get(url)).status()).toBe(404);
    expect((await page.request.get(fresh)).status()).toBe(200);
    await page.getByRole("button", { name: "Done" }).click();
  });

  it("lists the appointment on the lead's page with its title, status, date, time and description", async () => {
    await page.goto(`/leads/detail/${leadId}`);
    const item = page.getByTestId("lead-appointment").filter({ hasText: "Weekend test drive" });
    await item.waitFor();
    const text = await item.textContent();
    expect(text).toContain("Completed");
    expect(text).toContain("2:00 PM");
    expect(text).toContain(format(new Date(Number(tomorrow.slice(0, 4)), Number(tomorrow.slice(5, 7)) - 1, Number(tomorrow.slice(8, 10))), "MMM d, yyyy"));
    expect(text).toContain("Bring the trade-in papers.");
    await shotIfAsked(page, "lead-detail-after-1280");
  });

  it("reads well on a phone: the day's cards fit the 375 px screen", async () => {
    const phone = await newPage(browser, server.url, PHONE);
    await logInAs(phone.page, "sales");
    await phone.page.goto(`/calendar?date=${tomorrow}`);
    await card(phone.page, "Quinn Appointment-E2E").waitFor();
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await card(phone.page, "Quinn Appointment-E2E").scrollIntoViewIfNeeded();
    await shotIfAsked(phone.page, "calendar-day-375");
    // The drives beside the appointments fit too, long names and vehicles included, and pass axe.
    const drive = driveCard(phone.page, "Oluwaseun Adeyemi-Okonkwo");
    await drive.scrollIntoViewIfNeeded();
    expect((await drive.boundingBox())!.width).toBeLessThanOrEqual(375);
    expect((await drive.getByRole("link", { name: /^Open test drive/ }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectAccessible(phone.page, "/calendar with test drives at 375 px");
    await shotIfAsked(phone.page, "calendar-drives-375");
    await phone.page.goto("/appointments/new");
    await waitForHeading(phone.page, "Schedule Appointment");
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shotIfAsked(phone.page, "schedule-375");
    await phone.page.goto(`/appointments/new?date=${tomorrow}`);
    await phone.page.getByRole("combobox", { name: "Time" }).click();
    await phone.page.getByRole("option", { name: "11:00 AM", exact: true }).click();
    await phone.page.getByTestId("slot-clash").getByText(/You already have Nguyễn Thị Minh Khai's appointment at 11:00 AM/).waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectAccessible(phone.page, "/appointments/new with the double-booking warning at 375 px");
    await phone.page.getByTestId("slot-clash").scrollIntoViewIfNeeded();
    await shotIfAsked(phone.page, "schedule-clash-375");
    await phone.page.goto("/");
    await phone.page.getByTestId("upcoming-appointments").waitFor();
    await phone.page.getByTestId("upcoming-appointments").scrollIntoViewIfNeeded();
    await shotIfAsked(phone.page, "dashboard-375");
    await phone.context.close();
  });
});

