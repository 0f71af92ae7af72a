import { createServer } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { raceRounds } from "../../../tests/helpers/races";
import { closedPort, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { makeDealershipWorld, type DealershipWorld } from "../../../tests/helpers/dealership-world";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { activityEntrySchema, type ActivityEntry } from "../../shared/activity";
import { leadEmailSchema } from "../../shared/schemas/responses/customer-email";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leadEmails, leadReplyAddresses } from "../db/schema/customer-mail";
import { domainEvents } from "../db/schema/events";

// Sending an e-mail to the customer from the lead page (issue 26, decision 228): through a real SMTP server, with the
// lead's unguessable Reply-To on the intake listener and a Message-ID; the timeline's entry follows its delivery;
// visibility by role and dealership; hostile input; many sends at once each make exactly one mail.

const DOMAIN = "reply.test";
let smtp: SmtpReceiver;
let t: TestApp;
let ours: string;
let people: DealershipWorld["people"];
let as: DealershipWorld["as"];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function timeline(who: Agent, leadId: string, filter = "all"): Promise<ActivityEntry[]> {
  const response = await who.get(`/api/leads/${leadId}/activity?filter=${filter}`);
  expect(response.statusCode, response.body).toBe(200);
  return activityEntrySchema.array().parse(response.json());
}

const customer = () => `customer.${Math.random().toString(36).slice(2)}@example.com`;
const eventsOf = async (type: string, leadId: string) =>
  t.db.select().from(domainEvents).where(and(eq(domainEvents.type, type), sql`${domainEvents.payload}->'lead'->>'id' = ${leadId}`));
const rowsOf = (leadId: string) => t.db.select().from(leadEmails).where(eq(leadEmails.leadId, leadId));

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url, intake: { smtpPort: await freePort(), smtpHost: "127.0.0.1", domain: "intake.test", replyDomain: DOMAIN } });
  ({ ours, people, as } = await makeDealershipWorld(t));
}, 240_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe("an e-mail to the customer", () => {
  it("goes out through SMTP from the dealership with the lead's Reply-To and a Message-ID; the entry follows its delivery", async () => {
    const to = customer();
    const lead = await makeLead(t.db, { dealershipId: ours, firstName: "Maximiliano", email: to, claimedBy: people.sales.id });
    const response = await as.sales.post(`/api/leads/${lead.id}/emails`, { subject: "Your 2026 RAV4 quote", body: "Hi Maximiliano,\n\nThe quote is attached below.\n\nSam" });
    expect(response.statusCode, response.body).toBe(201);
    const sent = leadEmailSchema.parse(response.json());
    expect(sent).toMatchObject({ status: "queued", direction: "out", to, subject: "Your 2026 RAV4 quote", sentBy: { id: people.sales.id } });
    expect(sent.replyTo).toMatch(new RegExp(`^reply\\+[a-z0-9]{20}@${DOMAIN.replace(".", "\\.")}$`));
    expect(sent.messageId).toMatch(new RegExp(`^[a-z0-9]{24}@${DOMAIN.replace(".", "\\.")}$`));

    const [queued] = await timeline(as.sales, lead.id, "emails");
    expect(queued).toMatchObject({ type: "email.sent", actor: { id: people.sales.id }, data: { status: "queued", subject: "Your 2026 RAV4 quote", emailId: sent.id } });

    await deliverMail(t.app);
    const mail = await smtp.waitFor(to, { subject: /RAV4 quote/ });
    expect(mail.text).toContain("The quote is attached below.");
    expect(mail.replyTo).toBe(sent.replyTo);
    expect(mail.messageId).toBe(`<${sent.messageId}>`);
    expect(mail.fromHeader).toContain("Sam Sales at Northside Motors");

    await deliverMail(t.app);
    const [delivered] = await timeline(as.sales, lead.id, "emails");
    expect(delivered).toMatchObject({ id: queued!.id, type: "email.sent", summary: "E-mail sent: Your 2026 RAV4 quote", data: { status: "sent", error: null } });
    expect(await eventsOf("email.sent", lead.id)).toHaveLength(1);
    const updates = await eventsOf("email.delivery_updated", lead.id);
    expect(updates.map((e) => e.payload)).toEqual([expect.objectContaining({ email: { id: sent.id, status: "sent", error: null } })]);
  });

  it("keeps one reply address per lead, and a new Message-ID per mail", async () => {
    const lead = await makeLead(t.db, { dealershipId: ours, email: customer(), claimedBy: people.sales.id });
    const first = leadEmailSchema.parse((await as.sales.post(`/api/leads/${lead.id}/emails`, { subject: "One", body: "First" })).json());
    const second = leadEmailSchema.parse((await as.management.post(`/api/leads/${lead.id}/emails`, { subject: "Two", body: "Second" })).json());
    expect(second.replyTo).toBe(first.replyTo);
    expect(second.messageId).not.toBe(first.messageId);
    const other = await makeLead(t.db, { dealershipId: ours, email: customer(), claimedBy: people.sales.id });
    const elsewhere = leadEmailSchema.parse((await as.sales.post(`/api/leads/${other.id}/emails`, { subject: "Three", body: "Third" })).json());
    expect(elsewhere.replyTo).not.toBe(first.replyTo);
  });

  it("is written by whoever may open the lead; anyone else gets 404 and nothing is sent", async () => {
    const lead = await makeLead(t.db, { dealershipId: ours, email: customer(), claimedBy: people.sales.id });
    for (const who of ["sales", "frontDesk", "management"] as const) {
      expect((await as[who].post(`/api/leads/${lead.id}/emails`, { subject: `From ${who}`, body: "Hello" })).statusCode).toBe(201);
    }
    for (const who of ["sales2", "outsider"] as const) {
      const response = await as[who].post(`/api/leads/${lead.id}/emails`, { subject: "Not mine", body: "Hello" });
      expect(response.statusCode, who).toBe(404);
      expect((await as[who].get(`/api/leads/${lead.id}/activity`)).statusCode).toBe(404);
    }
    // The pool is every rep's: a new lead may be written to by any of them.
    const pooled = await makeLead(t.db, { dealershipId: ours, email: customer() });
    expect((await as.sales2.post(`/api/leads/${pooled.id}/emails`, { subject: "Hello", body: "Welcome" })).statusCode).toBe(201);
    expect((await rowsOf(lead.id)).map((r) => r.subject).sort()).toEqual(["From frontDesk", "From management", "From sales"]);
    expect((await t.app.inject({ method: "POST", url: `/api/leads/${lead.id}/emails`, payload: { subject: "x", body: "y" } })).statusCode).toBe(401);
  });

  it("answers 400 naming the field for a lead without an e-mail and for hostile input, and saves nothing", async () => {
    const bare = await makeLead(t.db, { dealershipId: ours, email: null, claimedBy: people.sales.id });
    const noEmail = await as.sales.post(`/api/leads/${bare.id}/emails`, { subject: "Hello", body: "Hi" });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().fields).toHaveProperty("email");

    const lead = await makeLead(t.db, { dealershipId: ours, email: customer(), claimedBy: people.sales.id });
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ subject: "x".repeat(201), body: "Hi" }, "subject"],
      [{ subject: "x".repeat(1_000_000), body: "Hi" }, "subject"],
      [{ subject: "Hello\r\nBcc: everyone@example.com", body: "Hi" }, "subject"],
      [{ subject: "Hello\nBcc: everyone@example.com", body: "Hi" }, "subject"],
      [{ subject: "Hello\u0000", body: "Hi" }, "subject"],
      [{ subject: "Hello", body: "Hi\u0000there" }, "body"],
      [{ subject: "Hello", body: "x".repeat(20_001) }, "body"],
      [{ subject: "   ", body: "Hi" }, "subject"],
      [{ subject: "Hello", body: " \n " }, "body"],
      [{ subject: 42, body: "Hi" }, "subject"],
      [{ body: "Hi" }, "subject"],
      [{ subject: "Hello", body: "Hi", to: "attacker@example.com" }, "body"], // an unknown key: the body is refused as a whole
    ];
    for (const [payload, field] of refusals) {
      const response = await as.sales.post(`/api/leads/${lead.id}/emails`, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(Object.keys(response.json().fields ?? {}), JSON.stringify(payload).slice(0, 80)).toContain(field);
    }
    expect(await rowsOf(lead.id)).toEqual([]);
    expect(await rowsOf(bare.id)).toEqual([]);
    expect(await eventsOf("email.sent", lead.id)).toEqual([]);
    expect(await t.db.select().from(leadReplyAddresses).where(eq(leadReplyAddresses.leadId, bare.id))).toEqual([]);
    // A line break the customer's mail program would read as a header never reaches SMTP either: nothing was queued.
    await deliverMail(t.app);
    expect(smtp.inbox.filter((m) => m.to.includes("everyone@example.com"))).toEqual([]);
  });

  it(`makes exactly one mail per send when ${raceRounds(50) === 2 ? 10 : 50} are sent at once on one lead`, async () => {
    const to = customer();
    const lead = await makeLead(t.db, { dealershipId: ours, email: to, claimedBy: people.sales.id });
    const count = raceRounds(50) === 2 ? 10 : 50;
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) => (i % 2 ? as.sales : as.management).post(`/api/leads/${lead.id}/emails`, { subject: `Offer ${i}`, body: `Offer number ${i}` })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(count).fill(201));
    const replyTos = new Set(answers.map((a) => a.json().replyTo));
    expect(replyTos.size).toBe(1);
    await deliverMail(t.app);
    await smtp.waitFor(to, { subject: new RegExp(`Offer ${count - 1}$`) });
    for (let i = 0; i < count; i++) await smtp.waitFor(to, { subject: new RegExp(`^Offer ${i}$`) });
    const mails = smtp.mailsTo(to);
    expect(mails).toHaveLength(count);
    expect(new Set(mails.map((m) => m.subject)).size).toBe(count);
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(count);
    expect(await rowsOf(lead.id)).toHaveLength(count);
    expect(await eventsOf("email.sent", lead.id)).toHaveLength(count);
    expect(await t.db.select().from(leadReplyAddresses).where(eq(leadReplyAddresses.leadId, lead.id))).toHaveLength(1);
    await deliverMail(t.app);
    expect((await rowsOf(lead.id)).every((r) => r.status === "sent")).toBe(true);
    expect(await eventsOf("email.delivery_updated", lead.id)).toHaveLength(count);
  });
});

describe("an e-mail the SMTP server refuses", () => {
  let down: TestApp;
  beforeAll(async () => {
    down = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}` });
  }, 60_000);
  afterAll(() => down?.close());

  it("shows failed with the error after its last try, and the Reply-To falls back to the writer without an intake listener", async () => {
    const dealershipId = (await makeDealership(down.db)).id;
    const rep = await makeUser(down.db, { email: `rep.${Math.random().toString(36).slice(2)}@northside.example`, memberships: [{ dealershipId, role: "sales" }] });
    const agent = await signIn(down.app, rep);
    const lead = await makeLead(down.db, { dealershipId, email: customer(), claimedBy: rep.id });
    const sent = leadEmailSchema.parse((await agent.post(`/api/leads/${lead.id}/emails`, { subject: "Lost in the mail", body: "Hello" })).json());
    expect(sent.replyTo).toBe(rep.email);
    await deliverMail(down.app);
    await deliverMail(down.app);
    const response = await agent.get(`/api/leads/${lead.id}/activity?filter=emails`);
    const [entry] = activityEntrySchema.array().parse(response.json());
    expect(entry).toMatchObject({ summary: "E-mail failed: Lost in the mail", data: { status: "failed" } });
    expect(String(entry!.data.error)).toMatch(/ECONNREFUSED|connect/i);
  });
});
