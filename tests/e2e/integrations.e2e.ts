import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logInAs } from "./helpers/auth";
import { expectAccessible } from "./helpers/axe";
import { DESKTOP, newPage, PHONE } from "./helpers/browser";
import { shotIfAsked, waitForToast } from "./helpers/page";
import { useServerAndBrowser } from "./helpers/suite";

// The admin panel's API & Webhooks tab in a real browser (issue 28): management creates a token (shown once) and
// calls the API with it, adds a webhook to a local endpoint (its secret shown once), sees the delivery, sends it again
// with the same webhook-id, and revokes the token: 401 at once. At 1280 and 375 px with long names, axe clean.

const suite = useServerAndBrowser({ startupTimeoutMs: 400_000, env: { WEBHOOKS_ALLOW_PRIVATE: "1" } });

const received: Array<{ id: string; body: string }> = [];
let receiver: http.Server;
let receiverUrl = "";

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ id: String(request.headers["webhook-id"]), body });
      response.end("thanks");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/integrations/dealer-management-system/showroom-events-receiver-with-a-long-path`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe("API & Webhooks tab", () => {
  it("creates a token and a webhook, delivers, sends again and revokes, at 1280 and 375 px", async () => {
    const { server, browser } = suite;
    const { context, page } = await newPage(browser, server.url, DESKTOP);
    await logInAs(page, "management");
    const dealershipId = await page.evaluate(async () => ((await (await fetch("/api/user")).json()) as { currentDealershipId: string }).currentDealershipId);
    await page.goto("/admin");
    await page.getByRole("tab", { name: "API & Webhooks" }).click();

    await page.getByLabel("New token name").fill("Northside Website Lead Form and Inventory Feed Synchronisation (production)");
    await page.getByLabel("Role").selectOption("frontDesk");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("shown-once").textContent()) ?? "";
    expect(token).toMatch(/^shr_/);
    await page.getByRole("button", { name: "Done" }).click();

    await page.getByLabel("Endpoint URL").fill(receiverUrl);
    await page.getByLabel("Events (* for all)").fill("lead.created");
    await page.getByRole("button", { name: "Add webhook" }).click();
    expect((await page.getByTestId("shown-once").textContent()) ?? "").toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Done" }).click();

    // The website posts a lead with the token: the webhook gets lead.created.
    const created = await fetch(`${server.url}/api/dealerships/${dealershipId}/leads`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ firstName: "Maximiliana", lastName: "Featherstonehaugh-Worthington", email: "maximiliana@example.com" }),
    });
    expect(created.status).toBe(201);
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: "lead.created" });

    await page.reload();
    await page.getByRole("tab", { name: "API & Webhooks" }).click();
    await page.getByText(/Last delivery: delivered \(200\)/).waitFor();
    for (const [label, viewport] of [["1280", DESKTOP], ["375", PHONE]] as const) {
      await page.setViewportSize(viewport);
      await shotIfAsked(page, `api-webhooks-${label}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
    await expectAccessible(page, "API & Webhooks tab");

    await page.getByRole("button", { name: `Deliveries of ${receiverUrl}` }).click();
    await page.getByText("Delivered").first().waitFor();
    await shotIfAsked(page, "api-webhooks-deliveries-375");
    await expectAccessible(page, "webhook deliveries");
    await page.getByRole("button", { name: "Send again" }).first().click();
    await waitForToast(page, "Sending again");
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
    expect(received[1]!.id).toBe(received[0]!.id);
    await page.keyboard.press("Escape");

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: /^Revoke Northside Website/ }).click();
    await waitForToast(page, "Token revoked");
    const refused = await fetch(`${server.url}/api/dealerships/${dealershipId}/leads`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
    await context.close();
  }, 180_000);
});
