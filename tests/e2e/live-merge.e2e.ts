import type { Page, WebSocket } from "playwright-core";
import { describe, expect, it } from "vitest";
import { logInAs } from "./helpers/auth";
import { expectAccessible } from "./helpers/axe";
import { DESKTOP, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked, waitForPath, waitForToast, settle } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// Decision 157: two people, two browsers. Front desk merges two leads of one customer from the kept lead's page; the
// manager, looking at the merged-away lead, lands on the kept lead without a reload, told why. SHOTS_DIR saves screens.

const suite = useServerAndBrowser({ startupTimeoutMs: 240_000 });

let sequence = 0;

/** Two leads of one customer (the phone written two ways), made by whoever is signed in on `page`. */
async function twinLeads(page: Page): Promise<{ first: string; second: string; surname: string }> {
  const base = suite.server.url;
  const dealerships = (await (await page.request.get(`${base}/api/dealerships`)).json()) as Array<{ id: string; name: string }>;
  const dealershipId = dealerships.find((d) => d.name === "Northside Motors")!.id;
  const n = ++sequence;
  const surname = `LiveTwin${n}${Date.now().toString(36)}`;
  const make = async (firstName: string, phone: string) => {
    const response = await page.request.post(`${base}/api/dealerships/${dealershipId}/leads`, { data: { firstName, lastName: surname, phone } });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const first = await make("Morgan", `+1 (905) 555-${3300 + n}`);
  const second = await make("Morgana", `905-555-${3300 + n}`);
  return { first, second, surname };
}

/** Opens `path` and resolves once that document's socket has been accepted for its dealership. */
async function openLive(page: Page, path: string): Promise<WebSocket> {
  // Leave the previous document first: a socket it opened late would otherwise be taken for the new one's.
  await page.goto("about:blank");
  const opened = page.waitForEvent("websocket", { predicate: (ws) => new URL(ws.url()).pathname === "/ws", timeout: 30_000 });
  await page.goto(path);
  const socket = await opened;
  await socket.waitForEvent("framereceived", { predicate: ({ payload }) => String(payload).includes('"authenticated"'), timeout: 30_000 });
  return socket;
}

describe("a merge seen from another browser", () => {
  for (const [size, viewport] of [
    ["1280", DESKTOP],
    ["375", PHONE],
  ] as const) {
    it(`moves the manager on the merged-away lead to the kept lead, without a reload, at ${size} px`, async () => {
      const desk = await newPage(suite.browser, suite.server.url, DESKTOP);
      const boss = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(desk.page, "frontDesk");
      await logInAs(boss.page, "management");
      const { first, second, surname } = await twinLeads(desk.page);

      // The manager is looking at the lead that will be merged away.
      await openLive(boss.page, `/leads/detail/${first}`);
      await boss.page.getByTestId("lead-information").getByText("Morgan", { exact: true }).waitFor();
      await boss.page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

      // Front desk merges it into the other one, from that one's page.
      await desk.page.goto(`/leads/detail/${second}`);
      const banner = desk.page.getByTestId("duplicate-banner");
      await banner.waitFor();
      await banner.getByRole("button", { name: "Merge" }).click();
      const dialog = desk.page.getByTestId("merge-dialog");
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Merge leads" }).click();
      await waitForToast(desk.page, "Leads merged");

      // The manager's tab follows: the kept lead's page, the same document, and a toast saying why.
      await waitForPath(boss.page, `/leads/detail/${second}`);
      expect(await waitForToast(boss.page, "This lead was merged into")).toContain(`Morgana ${surname}`);
      expect(await boss.page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      const info = boss.page.getByTestId("lead-information");
      await info.getByText("Morgana", { exact: true }).waitFor();
      expect(await boss.page.getByText("Lead Not Found").count()).toBe(0);
      await shotIfAsked(boss.page, `live-merge-landed-${size}`);
      await expectAccessible(boss.page, `the kept lead after a live merge at ${size}`);

      // Back does not return to the dead page: the move replaced it.
      await boss.page.goBack();
      expect(new URL(boss.page.url()).pathname).not.toBe(`/leads/detail/${first}`);

      await desk.context.close();
      await boss.context.close();
    });
  }

  it("reaches a hidden tab only when it is shown again: nothing is asked of the server meanwhile (decision 156)", async () => {
    const desk = await newPage(suite.browser, suite.server.url, DESKTOP);
    const boss = await newPage(suite.browser, suite.server.url, DESKTOP);
    await logInAs(desk.page, "frontDesk");
    await logInAs(boss.page, "management");
    const { first, second } = await twinLeads(desk.page);
    const socket = await openLive(boss.page, `/leads/detail/${first}`);
    await boss.page.getByTestId("lead-information").getByText("Morgan", { exact: true }).waitFor();
    await boss.page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    // The manager's tab goes to the background (another tab in front, a minimised window).
    const setVisibility = (state: "hidden" | "visible") =>
      boss.page.evaluate((value) => {
        Object.defineProperty(document, "visibilityState", { configurable: true, get: () => value });
        Object.defineProperty(document, "hidden", { configurable: true, get: () => value === "hidden" });
        document.dispatchEvent(new Event("visibilitychange"));
      }, state);
    await setVisibility("hidden");
    const asked: string[] = [];
    boss.page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/")) asked.push(request.url());
    });
    const heard = socket.waitForEvent("framereceived", { predicate: ({ payload }) => String(payload).includes('"lead_merged"'), timeout: 15_000 });
    const merged = await desk.page.request.post(`${suite.server.url}/api/leads/${second}/merge`, { data: { mergeLeadId: first } });
    expect(merged.status()).toBe(200);
    // The event reached the tab, which asked nothing and stayed where it was.
    await heard;
    await settle(boss.page, 10); // a fetch it were going to make would be on its way by now
    expect(asked).toEqual([]);
    expect(new URL(boss.page.url()).pathname).toBe(`/leads/detail/${first}`);

    // Shown again: the page follows the merge then.
    await setVisibility("visible");
    await waitForPath(boss.page, `/leads/detail/${second}`);
    await waitForToast(boss.page, "This lead was merged into");
    expect(await boss.page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(asked.length).toBeGreaterThan(0);
    await desk.context.close();
    await boss.context.close();
  });
});
