import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { logInAs } from "./helpers/auth";
import { expectAccessible } from "./helpers/axe";
import { DESKTOP, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked, waitForHeading } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// The dashboard's first screen (issue 30, decision 234): on a phone a rep sees today's agenda and the leads to claim
// before the day's numbers, both starting on the first screen; front desk the leads first; management keeps the
// numbers first; wider screens keep the spec's order.
// With a customer as real ones come (long hyphenated names, a long note), at 1280 and 375 px, with axe.

const suite = useServerAndBrowser();

const LONG = {
  firstName: "Maximiliana-Josefina",
  lastName: "Featherstonehaugh-Worthington",
  email: "maximiliana.featherstonehaugh-worthington@example-dealership-group.com",
  note: "Call back about the 2025 Hyundai Tucson Preferred AWD Trend and the trade-in appraisal of her 2016 Mazda3 GS",
};

/** A lead with those strings, entered by the signed-in person, with a follow-up overdue for a week (the oldest first). */
async function longLeadWithOverdueCall(page: Page): Promise<{ leadId: string; note: string }> {
  const dealerships = (await (await page.request.get("/api/dealerships")).json()) as Array<{ id: string; name: string }>;
  const dealershipId = dealerships.find((d) => d.name === "Northside Motors")!.id;
  const created = await page.request.post(`/api/dealerships/${dealershipId}/leads`, {
    data: { firstName: LONG.firstName, lastName: LONG.lastName, email: LONG.email, phone: "+44 20 7946 0958" },
  });
  expect(created.status()).toBe(201);
  const leadId = ((await created.json()) as { id: string }).id;
  const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
  const note = `${LONG.note} (${Math.random().toString(36).slice(2, 7)})`;
  const task = await page.request.post(`/api/leads/${leadId}/tasks`, { data: { type: "call", dueAt: `${weekAgo}T08:00`, note } });
  expect(task.status(), await task.text()).toBe(201);
  return { leadId, note };
}

/** The dashboard's sections top to bottom, as drawn (each one's top edge, so CSS could not reorder them unseen). */
async function sectionsAsSeen(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>("[data-testid='dashboard-sections'] > section"))
      .map((s) => ({ key: s.dataset.section!, top: s.getBoundingClientRect().top, left: s.getBoundingClientRect().left }))
      .sort((a, b) => a.top - b.top || a.left - b.left)
      .map((s) => s.key),
  );
}

async function openDashboard(page: Page): Promise<void> {
  await page.goto("/");
  await waitForHeading(page, "Dashboard");
  await page.getByTestId("metric-card").first().waitFor();
  await page.getByTestId("today-agenda").waitFor();
  await page.waitForFunction(() => !document.querySelector("[data-testid='today-agenda'] [aria-busy='true']"));
  await page.waitForLoadState("networkidle");
}

describe("the dashboard's first screen", () => {
  it("on a 375 px phone, a rep sees Today and Recent Leads, both on the first screen, before the metric cards", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await logInAs(page, "sales");
    const { leadId, note } = await longLeadWithOverdueCall(page);
    await openDashboard(page);
    expect((await sectionsAsSeen(page)).slice(0, 3)).toEqual(["today", "recent-leads", "metrics"]);
    // The DOM has the same order: the keyboard and a screen reader meet them as seen.
    expect(await page.locator("[data-testid='dashboard-sections'] > section").evaluateAll((s) => s.map((e) => (e as HTMLElement).dataset.section))).toEqual(
      await sectionsAsSeen(page),
    );
    // The first screen has both: Today's three lines at most, then the leads' heading, not three cards.
    expect(await page.getByTestId("today-item").count()).toBeLessThanOrEqual(3);
    const recent = await page.getByRole("heading", { name: "Recent Leads" }).boundingBox();
    expect(recent!.y + recent!.height).toBeLessThan(PHONE.height);
    // Today: the overdue call on the new client, said in full and opening the lead.
    const item = page.getByTestId("today-item").filter({ hasText: note });
    expect(await item.getAttribute("data-overdue")).toBe("true");
    expect(await item.getAttribute("href")).toBe(`/leads/detail/${leadId}`);
    expect(await item.textContent()).toContain(`${LONG.firstName} ${LONG.lastName}`);
    expect(await item.textContent()).toContain("Overdue");
    // Overdue from another day, it says which day ("Nov 20, 8:00 AM"), not only an hour that looks like today's.
    expect(await item.locator("time").textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, 8:00\sAM$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    const widths = await page.getByTestId("today-item").evaluateAll((links) => links.map((l) => l.scrollWidth <= l.clientWidth));
    expect(widths.every(Boolean)).toBe(true);
    await shotIfAsked(page, "dashboard-sales-375");
    await expectAccessible(page, "the dashboard of a rep at 375 px");
    await item.click();
    await page.waitForURL(`**/leads/detail/${leadId}`);
    await context.close();
  });

  it("on a 375 px phone, front desk gets the leads first and management keeps its numbers first", async () => {
    for (const [who, first] of [
      ["frontDesk", ["recent-leads", "today", "metrics"]],
      ["management", ["metrics", "recent-leads", "today"]],
    ] as const) {
      const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
      await logInAs(page, who);
      await openDashboard(page);
      expect({ who, order: (await sectionsAsSeen(page)).slice(0, 3) }).toEqual({ who, order: first });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      await shotIfAsked(page, `dashboard-${who}-375`);
      await expectAccessible(page, `the dashboard of ${who} at 375 px`);
      await context.close();
    }
  });

  it("at 1280 px keeps the spec's order for everyone: the metric cards, Recent Leads and the appointments, then Today", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, DESKTOP);
    await logInAs(page, "sales");
    const { note } = await longLeadWithOverdueCall(page);
    await openDashboard(page);
    expect(await sectionsAsSeen(page)).toEqual(["metrics", "recent-leads", "upcoming", "today", "speed-to-lead"]);
    expect(await page.getByTestId("today-item").filter({ hasText: note }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await shotIfAsked(page, "dashboard-sales-1280");
    await expectAccessible(page, "the dashboard of a rep at 1280 px");
    // Turned into a phone (a narrowed window), the same page redraws in the phone's order.
    await page.setViewportSize(PHONE);
    await page.waitForFunction(() => document.querySelector("[data-testid='dashboard-sections'] > section")?.getAttribute("data-section") === "today");
    await context.close();
  });
});
