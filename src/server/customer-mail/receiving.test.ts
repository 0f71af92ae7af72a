import { createServer } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { activityEntrySchema, type ActivityEntry } from "../../shared/activity";
import { leadEmailSchema, type LeadEmail } from "../../shared/schemas/responses/customer-email";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { domainEvents } from "../db/schema/events";
import { notifications } from "../db/schema/notifications";
import { NOTIFIED_EVENT_TYPES } from "../notifications/notification-plan";
import { withoutQuotedHistory } from "./reply-text";

// A customer's reply (issue 26, decision 229): sent by a real SMTP client (nodemailer) to the lead's Reply-To on the
// app's own intake listener, as plain text, as HTML and as multipart with an attachment; threaded onto the right lead
// by its address and by In-Reply-To alone; a guessed address refused at RCPT; the lead's rep told once.

const DOMAIN = "reply.test";
let smtp: SmtpReceiver;
let t: TestApp;
let port: number;
let ours: string;
let sales: MadeUser;
let colleague: MadeUser;
let as: Agent;
let manager: Agent;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: free } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return free;
}

const customer = () => `customer.${Math.random().toString(36).slice(2)}@example.com`;
const client = () => nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });

async function emails(who: Agent, leadId: string): Promise<ActivityEntry[]> {
  const response = await who.get(`/api/leads/${leadId}/activity?filter=emails`);
  expect(response.statusCode, response.body).toBe(200);
  return activityEntrySchema.array().parse(response.json());
}

/** A lead of the rep's with one e-mail sent to its customer, as the customer received it. */
async function conversation(): Promise<{ leadId: string; to: string; sent: LeadEmail }> {
  const to = customer();
  const lead = await makeLead(t.db, { dealershipId: ours, firstName: "Maximiliano", email: to, claimedBy: sales.id });
  const response = await as.post(`/api/leads/${lead.id}/emails`, { subject: "Your RAV4 quote", body: "Hi Maximiliano,\nHere is the quote.\nSam" });
  expect(response.statusCode, response.body).toBe(201);
  const sent = leadEmailSchema.parse(response.json());
  await deliverMail(t.app);
  await smtp.waitFor(to, { subject: /RAV4 quote/ });
  return { leadId: lead.id, to, sent };
}

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  port = await freePort();
  t = await createTestApp({ smtpUrl: smtp.url, intake: { smtpPort: port, smtpHost: "127.0.0.1", domain: "intake.test", replyDomain: DOMAIN } });
  ours = (await makeDealership(t.db, { name: "Northside Motors" })).id;
  sales = await makeUser(t.db, { firstName: "Sam", lastName: "Sales", memberships: [{ dealershipId: ours, role: "sales" }] });
  colleague = await makeUser(t.db, { firstName: "Riley", lastName: "Chen", memberships: [{ dealershipId: ours, role: "sales" }] });
  const boss = await makeUser(t.db, { firstName: "Morgan", lastName: "Manager", memberships: [{ dealershipId: ours, role: "management" }] });
  as = await signIn(t.app, sales);
  manager = await signIn(t.app, boss);
}, 240_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe("a customer's reply", () => {
  it("as plain text becomes an email.received entry on the lead, its quoted history trimmed, answering the mail it names", async () => {
    const { leadId, to, sent } = await conversation();
    await client().sendMail({
      from: `Maximiliano <${to}>`,
      to: sent.replyTo!,
      subject: "Re: Your RAV4 quote",
      inReplyTo: `<${sent.messageId}>`,
      references: [`<${sent.messageId}>`],
      text: "Thanks Sam, Saturday at 10 works.\n\nOn Fri, Nov 27, 2026 at 9:00 AM Sam Sales <no-reply@showroom.local> wrote:\n> Hi Maximiliano,\n> Here is the quote.\n",
    });
    const [entry] = await emails(as, leadId);
    expect(entry).toMatchObject({
      type: "email.received",
      actor: null,
      summary: "E-mail received: Re: Your RAV4 quote",
      data: { subject: "Re: Your RAV4 quote", body: "Thanks Sam, Saturday at 10 works.", from: to, inReplyToId: sent.id, attachments: [] },
    });
    const received = await t.db.select().from(domainEvents).where(and(eq(domainEvents.type, "email.received"), sql`${domainEvents.payload}->'lead'->>'id' = ${leadId}`));
    expect(received).toHaveLength(1);
  });

  it("as HTML only is reduced to text, its quote left out", async () => {
    const { leadId, to, sent } = await conversation();
    await client().sendMail({
      from: to,
      to: sent.replyTo!,
      subject: "Re: Your RAV4 quote",
      inReplyTo: `<${sent.messageId}>`,
      html: `<div dir="ltr"><p>Can we do <b>$500 less</b>?</p><p>Thanks,<br>Max</p></div><div class="gmail_quote"><div>On Fri, Nov 27, 2026 at 9:00 AM Sam wrote:<br></div><blockquote>Hi Maximiliano,<br>Here is the quote.</blockquote></div>`,
    });
    const [entry] = await emails(as, leadId);
    expect(entry!.type).toBe("email.received");
    const body = String(entry!.data.body);
    expect(body).toContain("Can we do $500 less?");
    expect(body).toContain("Max");
    expect(body).not.toMatch(/<|Here is the quote/);
  });

  it("as multipart with an attachment lists the attachment by name and size in bytes", async () => {
    const { leadId, to, sent } = await conversation();
    const pdf = Buffer.alloc(12_345, 0x25);
    await client().sendMail({
      from: to,
      to: sent.replyTo!,
      subject: "Trade-in papers",
      inReplyTo: `<${sent.messageId}>`,
      text: "Papers attached.",
      html: "<p>Papers <i>attached</i>.</p>",
      attachments: [{ filename: "trade-in ownership.pdf", content: pdf, contentType: "application/pdf" }],
    });
    const [entry] = await emails(as, leadId);
    expect(entry).toMatchObject({ type: "email.received", data: { body: "Papers attached.", attachments: [{ name: "trade-in ownership.pdf", size: 12_345 }] } });
  });

  it("is threaded by In-Reply-To alone when it reaches the bare reply address, and refused when it answers nothing of ours", async () => {
    const { leadId, to, sent } = await conversation();
    const other = await conversation();
    await client().sendMail({ from: to, to: `reply@${DOMAIN}`, subject: "Forwarded without the tag", inReplyTo: `<${sent.messageId}>`, text: "Still interested." });
    const [entry] = await emails(as, leadId);
    expect(entry).toMatchObject({ type: "email.received", data: { body: "Still interested.", inReplyToId: sent.id } });
    expect((await emails(as, other.leadId)).map((e) => e.type)).toEqual(["email.sent"]);
    await expect(client().sendMail({ from: to, to: `reply@${DOMAIN}`, subject: "Lost", inReplyTo: "<nothing@elsewhere.example>", text: "Hello?" })).rejects.toThrow(
      /550.*No conversation/,
    );
  });

  it("to a guessed or unknown address is refused at RCPT, and another lead's conversation is never touched", async () => {
    const { leadId, to, sent } = await conversation();
    for (const address of [`reply+aaaaaaaaaaaaaaaaaaaa@${DOMAIN}`, `reply+${sent.replyTo!.slice(6, 25)}@${DOMAIN}`, `reply+x@${DOMAIN}`, `${sent.replyTo!.split("@")[0]}@elsewhere.example`]) {
      const error = await client()
        .sendMail({ from: to, to: address, subject: "Guess", text: "Guessing" })
        .then(() => null, (e: Error & { responseCode?: number; command?: string }) => e);
      expect(error, address).not.toBeNull();
      expect(error!.responseCode, address).toBe(550);
      expect(error!.command, address).toBe("RCPT TO");
    }
    expect((await emails(as, leadId)).map((e) => e.type)).toEqual(["email.sent"]);
  });

  it("tells the lead's rep once (bell and push), and the next e-mail answers it", async () => {
    expect(NOTIFIED_EVENT_TYPES).toContain("email.received");
    const { leadId, to, sent } = await conversation();
    const message = { from: to, to: sent.replyTo!, subject: "Re: Your RAV4 quote", messageId: `<${Math.random().toString(36).slice(2)}@mail.example.com>`, text: "Yes please." };
    await client().sendMail(message);
    // The customer's server did not hear our answer and delivers it again: still one entry, one notice.
    await client().sendMail(message);
    await t.app.events.flush();
    const told = await t.db.select().from(notifications).where(and(eq(notifications.leadId, leadId), eq(notifications.type, "email_received")));
    expect(told.map((n) => [n.userId, n.title, n.message])).toEqual([[sales.id, "E-mail from a Customer", expect.stringContaining("Re: Your RAV4 quote")]]);
    expect(told.some((n) => n.userId === colleague.id)).toBe(false);
    expect((await emails(as, leadId)).map((e) => e.type)).toEqual(["email.received", "email.sent"]);

    const next = await manager.post(`/api/leads/${leadId}/emails`, { subject: "Re: Your RAV4 quote", body: "Booked for Saturday." });
    expect(next.statusCode).toBe(201);
    await deliverMail(t.app);
    const mail = await smtp.waitFor(to, { subject: /^Re: Your RAV4 quote$/ });
    expect(mail.inReplyTo).toBe(message.messageId);
  });
});

describe("the quoted history of a reply", () => {
  it("is cut at the common mail programs' introductions and a trailing quote, never leaving nothing", () => {
    expect(withoutQuotedHistory("Yes.\n\n-----Original Message-----\nFrom: Sam\nHi")).toBe("Yes.");
    expect(withoutQuotedHistory("Yes.\n\nFrom: Sam Sales <sam@example.com>\nSent: Friday\nTo: Max\nSubject: Quote")).toBe("Yes.");
    expect(withoutQuotedHistory("Yes.\nOn Fri, Nov 27, 2026 at 9:00 AM Sam Sales <no-reply@example.com>\nwrote:\n> Hi")).toBe("Yes.");
    expect(withoutQuotedHistory("Le ven. 27 nov. 2026 à 09:00, Sam a écrit :\n> Bonjour")).toBe("Le ven. 27 nov. 2026 à 09:00, Sam a écrit :\n> Bonjour");
    expect(withoutQuotedHistory("Oui.\n\nLe ven. 27 nov. 2026 à 09:00, Sam a écrit :\n> Bonjour")).toBe("Oui.");
    expect(withoutQuotedHistory("See below\n> quoted\n> more\n")).toBe("See below");
    expect(withoutQuotedHistory("> a\nmy answer in between\n> b")).toBe("> a\nmy answer in between");
    expect(withoutQuotedHistory("Line one\nLine two")).toBe("Line one\nLine two");
  });
});
