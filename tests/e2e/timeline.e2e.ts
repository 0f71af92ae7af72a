import { mkdirSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Browser, Page, WebSocket } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, startSmtpReceiver, type SmtpReceiver } from "../helpers/smtp-receiver";
import { logInAs } from "./helpers/auth";
import { expectAccessible } from "./helpers/axe";
import { DESKTOP, launchBrowser, newPage, PHONE } from "./helpers/browser";
import { waitForToast } from "./helpers/page";
import { startServer, type RunningServer } from "./helpers/server";

// The lead's timeline (issue 26), two people in two browsers: front desk writes a note mentioning the manager, by
// keyboard, and logs a call; the manager, on the same lead's page, sees both appear without a reload. At 1280 and
// 375 px, with long real-world names; axe finds nothing serious. SHOTS_DIR saves whole-page screenshots.
// E-mail with the customer (decisions 228-229): management writes a template in the admin panel, the lead page's
// composer sends from it through a real SMTP server, and the customer's reply (nodemailer to the app's own intake
// listener, at the mail's Reply-To) appears on the open page without a reload.

const REPLY_DOMAIN = "reply.e2e.test";
const suite = {} as { server: RunningServer; browser: Browser; smtp: SmtpReceiver; intakePort: number };
beforeAll(async () => {
  suite.smtp = await startSmtpReceiver();
  suite.intakePort = await closedPort();
  suite.server = await startServer({
    startupTimeoutMs: 240_000,
    env: { SMTP_URL: suite.smtp.url, INTAKE_SMTP_PORT: String(suite.intakePort), INTAKE_SMTP_HOST: "127.0.0.1", REPLY_DOMAIN },
  });
  suite.browser = await launchBrowser();
});
afterAll(async () => {
  await suite.browser?.close();
  await suite.server?.remove();
  await suite.smtp?.close();
});

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
  await page.getByTestId("lead-timeline").screenshot({ path: path.join(dir, `${name}-panel.png`) });
}

/** Opens `path` and resolves once that document's socket has been accepted for its dealership. */
async function openLive(page: Page, where: string): Promise<WebSocket> {
  await page.goto("about:blank");
  const opened = page.waitForEvent("websocket", { predicate: (ws) => new URL(ws.url()).pathname === "/ws", timeout: 30_000 });
  await page.goto(where);
  const socket = await opened;
  await socket.waitForEvent("framereceived", { predicate: ({ payload }) => String(payload).includes('"authenticated"'), timeout: 30_000 });
  return socket;
}

let sequence = 0;

describe("the lead's timeline seen from another browser", () => {
  for (const [size, viewport] of [
    ["1280", DESKTOP],
    ["375", PHONE],
  ] as const) {
    it(`shows a colleague's note and call live, mentions by keyboard, at ${size} px`, async () => {
      const desk = await newPage(suite.browser, suite.server.url, viewport);
      const boss = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(desk.page, "frontDesk");
      await logInAs(boss.page, "management");
      const base = suite.server.url;
      const dealerships = (await (await desk.page.request.get(`${base}/api/dealerships`)).json()) as Array<{ id: string; name: string }>;
      const dealershipId = dealerships.find((d) => d.name === "Northside Motors")!.id;
      const members = (await (await desk.page.request.get(`${base}/api/dealerships/${dealershipId}/users`)).json()) as Array<{ role: string; user: { id: string; firstName: string; lastName: string } }>;
      const manager = members.find((m) => m.role === "management")!.user;
      const created = await desk.page.request.post(`${base}/api/dealerships/${dealershipId}/leads`, {
        data: { firstName: "Maximiliano Alejandro", lastName: `Fernández-Castellanos de la Vega ${++sequence}`, email: `max${Date.now()}@example.com` },
      });
      expect(created.status()).toBe(201);
      const leadId = ((await created.json()) as { id: string }).id;
      await desk.page.request.patch(`${base}/api/leads/${leadId}`, { data: { description: "Trading in a 2014 Volkswagen Golf Sportwagen TDI Highline; wants the Outback Wilderness in Geyser Blue." } });

      // The manager is looking at the lead.
      await openLive(boss.page, `/leads/detail/${leadId}`);
      const bossTimeline = boss.page.getByTestId("lead-timeline");
      await bossTimeline.getByText("Lead created").first().waitFor();

      // Front desk writes a note by keyboard, picking the manager from the suggestions.
      await desk.page.goto(`/leads/detail/${leadId}`);
      const timeline = desk.page.getByTestId("lead-timeline");
      await timeline.getByText("Lead created").first().waitFor();
      const note = timeline.getByLabel("Note", { exact: true });
      await note.focus();
      await desk.page.keyboard.type(`Customer prefers e-mail after 6 pm. Please call back, @${manager.firstName.slice(0, 3)}`);
      await desk.page.getByRole("listbox", { name: "Mention a colleague" }).waitFor();
      await desk.page.keyboard.press("Enter");
      expect(await note.inputValue()).toContain(`@${manager.firstName} ${manager.lastName}`);
      await desk.page.keyboard.type("thanks!");
      expect(await note.inputValue()).toMatch(new RegExp(`@${manager.firstName} ${manager.lastName} thanks!$`));
      await desk.page.keyboard.press("Tab");
      await desk.page.keyboard.press("Enter");
      await waitForToast(desk.page, "Note added");

      // It appears on the manager's open page, without a reload.
      await bossTimeline.getByText("Customer prefers e-mail after 6 pm.").waitFor({ timeout: 15_000 });

      // A logged call, by keyboard too: the composer's mode, the outcome, the button.
      await timeline.getByRole("radio", { name: "Log call", exact: true }).click();
      await timeline.getByLabel("Call notes (optional)").fill("Left a message with his daughter; calling back Thursday.");
      await timeline.getByRole("button", { name: "Log call" }).click();
      await waitForToast(desk.page, "Call logged");
      await bossTimeline.getByText("Call: Reached").waitFor({ timeout: 15_000 });

      // The manager filters to calls.
      await bossTimeline.getByRole("radio", { name: "Calls", exact: true }).click();
      await expect.poll(() => bossTimeline.getByTestId("activity-entry").count()).toBe(1);
      await bossTimeline.getByRole("radio", { name: "All", exact: true }).click();
      await expect.poll(() => bossTimeline.getByTestId("activity-entry").count()).toBeGreaterThanOrEqual(4);

      await bossTimeline.scrollIntoViewIfNeeded();
      await shot(boss.page, `timeline-${size}`);
      await timeline.getByRole("radio", { name: "Note", exact: true }).click();
      await timeline.getByLabel("Note", { exact: true }).fill("@");
      await desk.page.getByRole("listbox", { name: "Mention a colleague" }).waitFor();
      await shot(desk.page, `timeline-mention-${size}`);
      await expectAccessible(desk.page, `the lead's timeline with the mention list at ${size}`);
      await desk.page.keyboard.press("Escape");
      await expectAccessible(boss.page, `the lead's timeline at ${size}`);
      // Nothing wider than the screen at 375 px.
      const overflow = await boss.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      await desk.context.close();
      await boss.context.close();
    });
  }
});

describe("an e-mail conversation with the customer", () => {
  for (const [size, viewport] of [
    ["1280", DESKTOP],
    ["375", PHONE],
  ] as const) {
    it(`sends from a template made in the admin panel and shows the customer's reply live, at ${size} px`, async () => {
      const boss = await newPage(suite.browser, suite.server.url, viewport);
      await logInAs(boss.page, "management");
      const base = suite.server.url;
      const dealerships = (await (await boss.page.request.get(`${base}/api/dealerships`)).json()) as Array<{ id: string; name: string }>;
      const dealershipId = dealerships.find((d) => d.name === "Northside Motors")!.id;
      const customer = `maximiliano.fernandez.castellanos.${++sequence}.${Date.now()}@example.com`;
      const created = await boss.page.request.post(`${base}/api/dealerships/${dealershipId}/leads`, {
        data: { firstName: "Maximiliano Alejandro", lastName: `Fernández-Castellanos de la Vega ${sequence}`, email: customer },
      });
      expect(created.status()).toBe(201);
      const leadId = ((await created.json()) as { id: string }).id;
      await boss.page.request.patch(`${base}/api/leads/${leadId}`, { data: { description: "Vehicle of interest: new 2026 Subaru Outback Wilderness in Geyser Blue (stock N4521)" } });

      // Management writes a template in the admin panel.
      const name = `First contact after a web inquiry about a specific vehicle ${size}`;
      await boss.page.goto("/admin");
      await boss.page.getByRole("tab", { name: "E-mail Templates" }).click();
      const form = boss.page.getByRole("form", { name: "New template" });
      await form.getByLabel("Name").fill(name);
      await form.getByLabel("Subject").fill("{{firstName}}, your {{vehicle}} at {{dealershipName}}");
      await form.getByLabel("Message").fill("Hi {{firstName}},\n\nThe {{vehicle}} you asked about is on the lot. When would you like to see it?\n\n{{repName}}\n{{dealershipName}}");
      await form.getByRole("button", { name: "Add template" }).click();
      await waitForToast(boss.page, "Template added");
      await boss.page.getByTestId("email-template").filter({ hasText: name }).waitFor();
      if (process.env.SHOTS_DIR) await boss.page.screenshot({ path: path.join(process.env.SHOTS_DIR, `email-templates-${size}.png`), fullPage: true });
      await expectAccessible(boss.page, `the admin panel's e-mail templates at ${size}`);
      expect(await boss.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

      // On the lead page: Write an e-mail, from the template, by keyboard.
      await openLive(boss.page, `/leads/detail/${leadId}`);
      const timeline = boss.page.getByTestId("lead-timeline");
      await timeline.getByText("Lead created").first().waitFor();
      await timeline.getByRole("radio", { name: "E-mail", exact: true }).click();
      const composer = timeline.getByRole("form", { name: "Write an e-mail" });
      await composer.getByRole("combobox", { name: "Start from" }).focus();
      await boss.page.keyboard.press("Enter");
      await boss.page.getByRole("option", { name }).click();
      await expect.poll(() => composer.getByLabel("Subject").inputValue()).toBe("Maximiliano Alejandro, your new 2026 Subaru Outback Wilderness in Geyser Blue at Northside Motors");
      expect(await composer.getByLabel("Message").inputValue()).toContain("The new 2026 Subaru Outback Wilderness in Geyser Blue you asked about is on the lot.");
      await composer.getByLabel("Message").focus();
      await boss.page.keyboard.press("End");
      await boss.page.keyboard.type("\nP.S. We can have it detailed for Saturday.");
      await boss.page.keyboard.press("Tab");
      expect(await boss.page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent ?? ""}`)).toBe("BUTTON Send e-mail");
      await boss.page.keyboard.press("Enter");
      await waitForToast(boss.page, "E-mail queued");

      // It goes out through SMTP with the lead's reply address; the entry turns from queued to sent by itself.
      const mail = await suite.smtp.waitFor(customer, { timeoutMs: 30_000 });
      expect(mail.text).toContain("P.S. We can have it detailed for Saturday.");
      expect(mail.replyTo).toMatch(new RegExp(`^reply\\+[a-z0-9]{20}@${REPLY_DOMAIN.replaceAll(".", "\\.")}$`));
      await timeline.getByTestId("email-message").filter({ hasText: "Sent" }).first().waitFor({ timeout: 30_000 });

      // The customer answers from their mail program: it appears on the open page without a reload.
      await nodemailer.createTransport({ host: "127.0.0.1", port: suite.intakePort, secure: false, ignoreTLS: true }).sendMail({
        from: customer,
        to: mail.replyTo!,
        subject: `Re: ${mail.subject}`,
        inReplyTo: mail.messageId,
        text: `Saturday at 10 works for me. Can you also appraise my 2014 Volkswagen Golf Sportwagen TDI Highline?\n\nOn Fri, Nov 27, 2026 at 9:00 AM Morgan wrote:\n> Hi Maximiliano Alejandro,`,
        attachments: [{ filename: "golf-sportwagen-service-history-2014-2026.pdf", content: Buffer.alloc(48_213, 0x25), contentType: "application/pdf" }],
      });
      const reply = timeline.getByTestId("email-message").filter({ hasText: "Saturday at 10 works for me." });
      await reply.waitFor({ timeout: 15_000 });
      expect(await reply.getAttribute("data-direction")).toBe("in");
      expect(await reply.textContent()).not.toContain("Hi Maximiliano Alejandro,");
      await reply.getByText("golf-sportwagen-service-history-2014-2026.pdf").waitFor();

      // The E-mails filter shows the conversation only.
      await timeline.getByRole("radio", { name: "E-mails", exact: true }).click();
      await expect.poll(() => timeline.getByTestId("activity-entry").count()).toBe(2);
      await timeline.scrollIntoViewIfNeeded();
      await shot(boss.page, `timeline-email-${size}`);
      await expectAccessible(boss.page, `the lead's e-mail conversation at ${size}`);
      expect(await boss.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await boss.context.close();
    });
  }
});
