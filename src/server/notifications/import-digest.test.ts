import { and, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMPORT_LEADS_LISTED } from "../../shared/events";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { domainEvents } from "../db/schema/events";
import { emailsLog } from "../db/schema/notifications";
import { startIntakeSmtp } from "../intake/smtp";

// The New Lead mail of an import (decision 174): the prospects of one ADF document, over HTTP or by mail, reach each
// subscriber as one mail listing them, not one mail per lead.

let t: TestApp;
let smtp: SmtpReceiver;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url, intake: { smtpHost: "127.0.0.1", domain: "intake.test" } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const prospect = (first: string) =>
  `<prospect><customer><contact><name part="first">${first}</name><name part="last">Digest</name><email>${first.toLowerCase()}@buyer.example</email><phone>905-555-01${first.slice(-2)}</phone></contact></customer></prospect>`;
const names = (n: number) => Array.from({ length: n }, (_, i) => `Buyer${String(i + 1).padStart(2, "0")}`);
const adf = (firsts: string[]) => `<?xml version="1.0"?><adf>${firsts.map(prospect).join("")}</adf>`;

/** A dealership with two New Lead subscribers (management and front desk) and an intake credential named "AutoTrader". */
async function dealershipWithSubscribers(name: string) {
  const dealershipId = (await makeDealership(t.db, { name })).id;
  const slug = name.toLowerCase().replace(/\W+/g, "");
  const boss = await makeUser(t.db, { email: `boss@${slug}.example`, memberships: [{ dealershipId, role: "management" }] });
  const desk = await makeUser(t.db, { email: `desk@${slug}.example`, memberships: [{ dealershipId, role: "frontDesk" }] });
  const agent: Agent = await signIn(t.app, boss);
  const triggers = (await agent.get(`/api/dealerships/${dealershipId}/email-notifications/triggers`)).json<Array<{ id: string; name: string }>>();
  const newLead = triggers.find((x) => x.name === "lead_created")!;
  for (const user of [boss, desk]) {
    const subscribed = await agent.post(`/api/dealerships/${dealershipId}/email-notifications/subscriptions`, { userId: user.id, triggerId: newLead.id, isSubscribed: true });
    expect(subscribed.statusCode).toBe(200);
  }
  const credential = await agent.post(`/api/dealerships/${dealershipId}/intake/credentials`, { name: "AutoTrader" });
  expect(credential.statusCode, credential.body).toBe(201);
  const { secret, credential: made } = credential.json<{ secret: string; credential: { mailAddress: string } }>();
  return { dealershipId, recipients: [boss.email, desk.email], secret, mailAddress: made.mailAddress };
}

function postAdf(xml: string, secret: string) {
  return anonymous(t.app).request({ method: "POST", url: "/api/intake/adf", headers: { "content-type": "application/xml", authorization: `Bearer ${secret}` }, payload: xml });
}

const loggedFor = (dealershipId: string) => t.db.select().from(emailsLog).where(eq(emailsLog.dealershipId, dealershipId));

describe("an import's New Lead mail", () => {
  it("is one mail per subscriber listing the leads of a 30-prospect ADF document, the rest counted, not 30 mails", async () => {
    const { dealershipId, recipients, secret } = await dealershipWithSubscribers("Digest Motors");
    const firsts = names(30);
    const response = await postAdf(adf(firsts), secret);
    expect(response.statusCode, response.body).toBe(201);
    const { leadIds } = response.json<{ leadIds: string[] }>();
    await deliverMail(t.app);

    for (const to of recipients) {
      const mails = smtp.mailsTo(to);
      expect(mails.map((m) => m.subject)).toEqual(["30 new leads from AutoTrader — Digest Motors"]);
      const [mail] = mails;
      const listed = firsts.slice(0, IMPORT_LEADS_LISTED);
      for (const first of listed) expect(mail!.text).toContain(`${first} Digest · ${first.toLowerCase()}@buyer.example`);
      for (const first of firsts.slice(IMPORT_LEADS_LISTED)) expect(mail!.text).not.toContain(`${first} Digest`);
      expect(mail!.text).toContain(`…and ${30 - IMPORT_LEADS_LISTED} more.`);
      // Each listed lead links to its page, and the mail to New Leads of that source (through /email-redirect).
      expect(mail!.text).toContain(`/email-redirect?to=${encodeURIComponent(`/leads/detail/${leadIds[0]}`)}`);
      expect(mail!.text).toContain(`/email-redirect?to=${encodeURIComponent("/leads/new?source=adf")}`);
      expect(mail!.html).toContain(`${encodeURIComponent(`/leads/detail/${leadIds[IMPORT_LEADS_LISTED - 1]}`)}`);
    }
    expect((await loggedFor(dealershipId)).map((row) => [row.to, row.emailType, row.status]).sort()).toEqual(
      recipients.map((to) => [to, "lead_created", "sent"]).sort(),
    );
    // Every lead still has its own lead.created (the bell, live lists), marked with the import.
    const created = await t.db
      .select({ payload: domainEvents.payload })
      .from(domainEvents)
      .where(and(eq(domainEvents.dealershipId, dealershipId), eq(domainEvents.type, "lead.created")));
    expect(created).toHaveLength(30);
    expect(new Set(created.map((e) => (e.payload as { importId?: string }).importId)).size).toBe(1);
  });

  it("is still the one lead's own New Lead mail, with its details, for a document of one prospect", async () => {
    const { recipients, secret } = await dealershipWithSubscribers("Single Motors");
    expect((await postAdf(adf(["Solo01"]), secret)).statusCode).toBe(201);
    await deliverMail(t.app);

    for (const to of recipients) {
      const mails = smtp.mailsTo(to);
      expect(mails.map((m) => m.subject)).toEqual(["New Lead: Solo01 Digest — Single Motors"]);
      expect(mails[0]!.text).toContain("Email: solo01@buyer.example");
    }
  });

  it("is one mail per subscriber for a document mailed to the intake address", async () => {
    const { recipients, mailAddress } = await dealershipWithSubscribers("Mailed Motors");
    const intake = await startIntakeSmtp({ db: t.db, logger: pino({ level: "silent" }), port: 0, host: "127.0.0.1", domain: "intake.test" });
    try {
      const transport = nodemailer.createTransport({ host: "127.0.0.1", port: intake.port, secure: false, ignoreTLS: true });
      await transport.sendMail({ from: "leads@provider.example", to: mailAddress, subject: "Leads", text: adf(names(3)) });
    } finally {
      await intake.close();
    }
    await deliverMail(t.app);

    for (const to of recipients) {
      const mails = smtp.mailsTo(to);
      expect(mails.map((m) => m.subject)).toEqual(["3 new leads from AutoTrader — Mailed Motors"]);
      expect(mails[0]!.text).not.toContain("more.");
    }
  });
});
