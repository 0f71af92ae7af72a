import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./helpers/axe";
import { logInAs } from "./helpers/auth";
import { DESKTOP, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked, waitForToast } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// My Day (issue 27) in Chromium at 1280 and 375 px: a sales rep's overdue, today's and upcoming tasks with today's
// appointments, first in the sidebar; Done, snooze and Open lead one tap each; axe finds nothing serious.

const suite = useServerAndBrowser();

/** A write through the page's own fetch (same origin, the session cookie): the API answers or the test fails. */
async function callApi<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, url, body }) => {
      const response = await fetch(url, { method, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
      return { status: response.status, text: await response.text() };
    },
    { method, url, body },
  );
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${answer.text}`);
  return JSON.parse(answer.text) as T;
}

/** A client of the rep with a long real-world name, and three of its tasks: overdue, later today, and next week. */
async function seedDay(page: Page, suffix: string) {
  const user = await callApi<{ currentDealershipId: string }>(page, "GET", "/api/user");
  const dealershipId = user.currentDealershipId;
  const lead = await callApi<{ id: string }>(page, "POST", `/api/dealerships/${dealershipId}/leads`, {
    firstName: `Maximiliana-Guadalupe ${suffix}`,
    lastName: "Oppenheimer-Vasquez de la Cruz",
    email: `maximiliana.${suffix.toLowerCase()}@example.com`,
    phone: "416-555-0199",
    description: "Trading in a 2014 Mazda5; wants a hybrid minivan",
  });
  const now = Date.now();
  const post = (body: object) => callApi<{ id: string }>(page, "POST", `/api/leads/${lead.id}/tasks`, body);
  const overdue = await post({ type: "call", dueAt: new Date(now - 26 * 3600_000).toISOString(), note: "Call back about the trade-in appraisal for the Mazda5 and the extended warranty" });
  // Later today when there is room left in the day; otherwise it is tomorrow's and shows under Upcoming.
  const today = await post({ type: "email", dueAt: new Date(now + 60_000).toISOString(), note: "Send the Sienna XSE build sheet" });
  const nextWeek = await post({ type: "visit", dueAt: new Date(now + 7 * 86_400_000).toISOString(), note: "Walkaround with the whole family" });
  return { dealershipId, leadId: lead.id, overdue: overdue.id, today: today.id, nextWeek: nextWeek.id };
}

/** Each run has its own client (Desk or Phone): an item is found by its client and its words. */
let client = "";
const item = (page: Page, text: string) => page.getByTestId("agenda-item").filter({ hasText: client }).filter({ hasText: text });

describe("My Day", () => {
  for (const [size, viewport] of [["1280", DESKTOP], ["375", PHONE]] as const) {
    it(`at ${size} px: lists the day in order, first in the sales sidebar, and each action is one tap`, async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "sales");
      const suffix = size === "1280" ? "Desk" : "Phone";
      client = `Maximiliana-Guadalupe ${suffix}`;
      const seeded = await seedDay(page, suffix);

      if (viewport === DESKTOP) {
        const links = page.getByRole("navigation", { name: "Main" }).getByRole("link");
        await expect(links.first().textContent()).resolves.toContain("My Day");
        await links.first().click();
        await page.waitForURL((url) => url.pathname === "/my-day");
      } else {
        await page.goto("/my-day");
      }
      await page.getByRole("heading", { name: "My Day", level: 1 }).waitFor();
      await page.locator("[aria-busy='true']").first().waitFor({ state: "detached" }).catch(() => undefined);
      await page.waitForLoadState("networkidle");

      const overdue = page.getByRole("region", { name: /^Overdue/ });
      await overdue.getByTestId("agenda-item").filter({ hasText: client }).filter({ hasText: "Call back about the trade-in appraisal" }).waitFor();
      expect(await item(page, "Call back about the trade-in").getAttribute("data-overdue")).toBe("true");
      await item(page, "Walkaround with the whole family").waitFor();
      await shotIfAsked(page, `my-day-${size}`);
      await expectAccessible(page, `/my-day at ${size} px`);

      // One tap each, with room for a thumb on a phone.
      const actions = item(page, "Call back about the trade-in").getByRole("button");
      const names = await actions.evaluateAll((buttons) => buttons.map((b) => b.textContent?.trim()));
      expect(names).toEqual(["Done", "Later today", "Tomorrow"]);
      const open = item(page, "Call back about the trade-in").getByRole("link", { name: /^Open lead/ });
      for (const control of [...(await actions.all()), open]) {
        const box = (await control.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        if (viewport === PHONE) expect(box.height).toBeGreaterThanOrEqual(44);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      // Done: the overdue task leaves the list.
      await item(page, "Call back about the trade-in").getByRole("button", { name: /^Done/ }).click();
      await waitForToast(page, "Task done");
      await item(page, "Call back about the trade-in").waitFor({ state: "detached" });
      await overdue.getByText("Nothing overdue.").waitFor();

      // Tomorrow: the task due now moves to Upcoming (9:00 tomorrow on the dealership's clock).
      const todayItem = item(page, "Send the Sienna XSE build sheet");
      await todayItem.getByRole("button", { name: /^Tomorrow/ }).click();
      await waitForToast(page, "Snoozed until tomorrow");
      const upcoming = page.getByRole("region", { name: /^Upcoming/ }).getByTestId("agenda-item").filter({ hasText: client }).filter({ hasText: "Sienna" });
      await upcoming.waitFor();
      await expect(upcoming.locator("time").textContent()).resolves.toMatch(/9:00 AM/);
      await shotIfAsked(page, `my-day-${size}-after`);

      // Open lead: one tap to the client.
      await upcoming.getByRole("link", { name: /^Open lead/ }).click();
      await page.waitForURL((url) => url.pathname === `/leads/detail/${seeded.leadId}`);

      // The lead's Tasks: the two still open, and one added from the form on the dealership's clock.
      const card = page.getByTestId("lead-tasks");
      await card.getByText("Walkaround with the whole family").waitFor();
      expect(await card.getByTestId("lead-task").count()).toBe(3);
      await card.getByRole("button", { name: "Add task" }).click();
      await card.getByRole("radio", { name: "Visit" }).click();
      await card.getByLabel("Due").fill("2030-03-14T16:30");
      await card.getByLabel("Note (optional)").fill("Bring the second key fob and the winter tires");
      await expectAccessible(page, `lead tasks form at ${size} px`);
      await card.getByRole("button", { name: "Add task" }).click();
      await waitForToast(page, "Task added");
      const added = card.getByTestId("lead-task").filter({ hasText: "second key fob" });
      await expect(added.locator("time").textContent()).resolves.toBe("Mar 14, 2030, 4:30 PM");
      await shotIfAsked(page, `lead-tasks-${size}`);
      await context.close();
    });
  }

  it("is not first in the sidebar for management, who may look at everyone's day", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, DESKTOP);
    await logInAs(page, "management");
    const links = page.getByRole("navigation", { name: "Main" }).getByRole("link");
    await expect(links.first().textContent()).resolves.toContain("Dashboard");
    await page.goto("/my-day");
    await page.getByRole("radio", { name: "Everyone" }).click();
    await page.waitForLoadState("networkidle");
    await page.getByRole("region", { name: /^Today/ }).waitFor();
    await expectAccessible(page, "/my-day everyone");
    await context.close();
  });

  for (const [size, viewport] of [["1280", DESKTOP], ["375", PHONE]] as const) {
    it(`at ${size} px: management turns an automatic follow-up off and changes a time in the admin panel`, async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "management");
      await page.goto("/admin");
      await page.getByRole("tab", { name: "Follow-ups" }).click();
      const rules = page.getByTestId("follow-up-rule");
      await rules.first().waitFor();
      await expectAccessible(page, `/admin follow-ups at ${size} px`);
      await shotIfAsked(page, `admin-follow-ups-${size}`);
      const noShow = rules.filter({ hasText: "Call after a no-show" });
      await noShow.getByRole("switch").click();
      const claimed = rules.filter({ hasText: "Call a newly claimed lead" });
      await claimed.getByLabel("Minutes").fill(size === "1280" ? "20" : "25");
      await page.getByRole("button", { name: "Save rules" }).click();
      await waitForToast(page, "Follow-up rules saved");
      await page.reload();
      await page.getByRole("tab", { name: "Follow-ups" }).click();
      await rules.first().waitFor();
      expect(await rules.filter({ hasText: "Call after a no-show" }).getByRole("switch").getAttribute("aria-checked")).toBe("false");
      expect(await rules.filter({ hasText: "Call a newly claimed lead" }).getByLabel("Minutes").inputValue()).toBe(size === "1280" ? "20" : "25");
      // Put it back on for the next run.
      await rules.filter({ hasText: "Call after a no-show" }).getByRole("switch").click();
      await page.getByRole("button", { name: "Save rules" }).click();
      await waitForToast(page, "Follow-up rules saved");
      await context.close();
    });
  }
});

// The pipeline and lead distribution (issue 27, decisions 201, 202): My Clients as a board whose cards move from the
// keyboard (a move to Lost asks its reason), and a rep's on-the-floor toggle with management's distribution settings.
describe("The board and lead distribution", () => {
  for (const [size, viewport] of [["1280", DESKTOP], ["375", PHONE]] as const) {
    it(`at ${size} px: My Clients as a board, a card moved with the keyboard, Lost only with a reason, the view remembered`, async () => {
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(page, "sales");
      const suffix = size === "1280" ? "Board Desk" : "Board Phone";
      const user = await callApi<{ currentDealershipId: string }>(page, "GET", "/api/user");
      // A rep's own lead is theirs at once (Claimed).
      const lead = await callApi<{ id: string }>(page, "POST", `/api/dealerships/${user.currentDealershipId}/leads`, {
        firstName: `Bartholomew-Alexander ${suffix}`,
        lastName: "Featherstonehaugh-Montgomery",
        email: `bartholomew.${size}@example.com`,
        phone: "905-555-0142",
      });
      const name = `Bartholomew-Alexander ${suffix} Featherstonehaugh-Montgomery`;
      await page.goto("/leads/my");
      await page.getByRole("radio", { name: "Board" }).click();
      const board = page.getByTestId("clients-board");
      const column = (status: string) => board.getByRole("region", { name: new RegExp(`^${status}`) });
      const card = (status: string) => column(status).getByTestId("board-card").filter({ hasText: name });
      await card("Claimed").waitFor();
      await shotIfAsked(page, `board-${size}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page, `/leads/my board at ${size} px`);

      // Keyboard only: focus the card's Move to, open it, arrow to Contacted, Enter.
      await card("Claimed").getByRole("combobox", { name: `Move ${name} to` }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("option", { name: "Contacted" }).waitFor();
      // Radix focuses the chosen option a frame after the list opens, and again when a live refresh of the list redraws
      // it (the new lead's own event can arrive late on a busy machine): arrow down until Contacted has the focus.
      const focusedOption = () => page.evaluate(() => (document.activeElement?.getAttribute("role") === "option" ? document.activeElement.textContent : null));
      await expect.poll(focusedOption).toBe("Claimed");
      for (let tries = 0; tries < 5 && (await focusedOption()) !== "Contacted"; tries += 1) {
        if ((await focusedOption()) === "Claimed") await page.keyboard.press("ArrowDown");
        await page.waitForFunction(() => document.activeElement?.textContent === "Contacted", undefined, { timeout: 1000 }).catch(() => undefined);
      }
      expect(await focusedOption()).toBe("Contacted");
      await page.keyboard.press("Enter");
      await waitForToast(page, `${name} moved to Contacted`);
      await card("Contacted").waitFor();

      // Lost: the dialog asks why; without a choice it says so; with one the card moves with its reason.
      await card("Contacted").getByRole("combobox", { name: `Move ${name} to` }).click();
      await page.getByRole("option", { name: "Lost" }).click();
      const dialog = page.getByRole("dialog", { name: "Why was this lead lost?" });
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Mark as Lost" }).click();
      await dialog.getByText("Choose why the lead was lost.").waitFor();
      await expectAccessible(page, `lost reason dialog at ${size} px`);
      await shotIfAsked(page, `lost-reason-${size}`);
      await dialog.getByRole("radio", { name: "Financing declined" }).focus();
      await page.keyboard.press("Space");
      await page.keyboard.press("Enter");
      await waitForToast(page, `${name} moved to Lost`);
      await card("Lost").getByText("Lost: Financing declined").waitFor();
      const saved = await callApi<{ status: string; lostReason: string }>(page, "GET", `/api/leads/${lead.id}`);
      expect(saved).toMatchObject({ status: "lost", lostReason: "Financing declined" });

      // The board is remembered.
      await page.reload();
      await card("Lost").waitFor();
      expect(await page.getByRole("radio", { name: "Board" }).getAttribute("aria-checked")).toBe("true");
      await page.getByRole("radio", { name: "List" }).click();
      await context.close();
    });

    it(`at ${size} px: a rep goes on the floor from the header; management's round robin gives a new lead to them`, async () => {
      const rep = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(rep.page, "sales");
      const toggle = rep.page.getByTestId("floor-toggle");
      await toggle.waitFor();
      expect(await toggle.getAttribute("aria-pressed")).toBe("false");
      await toggle.click();
      await waitForToast(rep.page, "You are on the floor");
      expect(await toggle.getAttribute("aria-pressed")).toBe("true");
      // Its name stays "On the floor" (a phone shows the dot only); the header still fits.
      await rep.page.getByRole("button", { name: "On the floor", pressed: true }).waitFor();
      expect(await rep.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await shotIfAsked(rep.page, `floor-toggle-${size}`);
      await expectAccessible(rep.page, `header with the floor toggle at ${size} px`);

      const manager = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(manager.page, "management");
      await manager.page.goto("/admin");
      await manager.page.getByRole("tab", { name: "Leads" }).click();
      const form = manager.page.getByTestId("distribution-form");
      await form.waitFor();
      await form.getByRole("radio", { name: /^Round robin/ }).check();
      await form.getByRole("button", { name: "Save distribution" }).click();
      await waitForToast(manager.page, "Lead distribution saved");
      await manager.page.getByTestId("floor-list").getByText("On the floor").first().waitFor();
      expect(await manager.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await shotIfAsked(manager.page, `admin-distribution-${size}`);
      await expectAccessible(manager.page, `/admin leads at ${size} px`);

      const me = await callApi<{ id: string; currentDealershipId: string }>(rep.page, "GET", "/api/user");
      const lead = await callApi<{ claimedBy: string | null; status: string }>(manager.page, "POST", `/api/dealerships/${me.currentDealershipId}/leads`, {
        firstName: "Distributed",
        lastName: `Walk-in ${size}`,
      });
      expect(lead).toMatchObject({ status: "claimed", claimedBy: me.id });

      // Back as it was for the other runs.
      await form.getByRole("radio", { name: /^Off/ }).check();
      await form.getByRole("button", { name: "Save distribution" }).click();
      await waitForToast(manager.page, "Lead distribution saved");
      await toggle.click();
      await waitForToast(rep.page, "You are off the floor");
      await manager.context.close();
      await rep.context.close();
    });
  }
});
