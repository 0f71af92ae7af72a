import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publishedTypes } from "../../../tests/helpers/published";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { viewerOf, type Viewer } from "../auth/tenancy";
import type { Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leadEmails } from "../db/schema/customer-mail";
import { domainEvents } from "../db/schema/events";
import type { OutgoingMail } from "../mail/mailer";
import { addEmailTemplate, editEmailTemplate, removeEmailTemplate, sendCustomerEmail } from "./commands";
import type { SendingSetup } from "./sending";

// Customer mail's commands without HTTP (issue 25): each change publishes exactly one event in its transaction, with
// its mail queued in the same transaction; a refused change publishes, writes and queues nothing.

let database: Database & { drop(): Promise<void> };
let rep: Viewer;
let manager: Viewer;
let outsider: Viewer;
let queued: OutgoingMail[];

/** The app's part of a send: a queue that only records, and mail settings without an intake listener. */
const setup: SendingSetup = {
  mailer: { queue: async (mail) => void queued.push(mail) },
  config: { appUrl: "https://crm.example.com", mailFrom: "Showroom <crm@example.com>", intake: undefined },
};
const TEMPLATE = { name: "First contact", subject: "Hello {{firstName}}", body: "Hi {{firstName}}" };

const eventTypes = () => publishedTypes(database.db, "email.", "email_template.");

beforeAll(async () => {
  database = await createTestDatabase();
  const dealershipId = (await makeDealership(database.db, { name: "Mail Motors" })).id;
  const otherId = (await makeDealership(database.db, { name: "Other Motors" })).id;
  const sales = await makeUser(database.db, { memberships: [{ dealershipId, role: "sales" }] });
  const boss = await makeUser(database.db, { memberships: [{ dealershipId, role: "management" }] });
  const other = await makeUser(database.db, { memberships: [{ dealershipId: otherId, role: "management" }] });
  rep = viewerOf(sales.id, dealershipId, "sales");
  manager = viewerOf(boss.id, dealershipId, "management");
  outsider = viewerOf(other.id, otherId, "management");
});
afterAll(() => database.drop());
beforeEach(async () => {
  queued = [];
  await database.db.delete(domainEvents);
});

describe("customer mail's commands", () => {
  it("a send writes its row, queues its mail and publishes one email.sent; a lead without an address none of them", async () => {
    const lead = await makeLead(database.db, { dealershipId: rep.dealershipId, email: "ada@example.com", claimedBy: rep.userId });
    const sent = await sendCustomerEmail(database.db, rep, lead.id, { subject: "Your quote", body: "Attached." }, setup);
    expect(sent).toMatchObject({ leadId: lead.id, status: "queued", to: "ada@example.com" });
    expect(queued).toEqual([expect.objectContaining({ to: "ada@example.com", leadEmailId: sent.id })]);
    expect(await eventTypes()).toEqual(["email.sent"]);

    const silent = await makeLead(database.db, { dealershipId: rep.dealershipId, email: null, claimedBy: rep.userId });
    await expect(sendCustomerEmail(database.db, rep, silent.id, { subject: "Hi", body: "Hi" }, setup)).rejects.toMatchObject({ statusCode: 400 });
    await expect(sendCustomerEmail(database.db, outsider, lead.id, { subject: "Hi", body: "Hi" }, setup)).rejects.toMatchObject({ statusCode: 404 });
    expect(queued).toHaveLength(1);
    expect(await database.db.select().from(leadEmails)).toHaveLength(1);
    expect(await eventTypes()).toEqual(["email.sent"]);
  });

  it("a template's creation, edit and deletion publish one event each; another dealership's viewer gets 404 and none", async () => {
    const template = await addEmailTemplate(database.db, manager, TEMPLATE);
    await expect(editEmailTemplate(database.db, outsider, template.id, { ...TEMPLATE, name: "Theirs" })).rejects.toMatchObject({ statusCode: 404 });
    await expect(removeEmailTemplate(database.db, outsider, template.id)).rejects.toMatchObject({ statusCode: 404 });
    await editEmailTemplate(database.db, manager, template.id, { ...TEMPLATE, name: "First contact (web)" });
    await removeEmailTemplate(database.db, manager, template.id);
    await expect(removeEmailTemplate(database.db, manager, template.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await eventTypes()).toEqual(["email_template.created", "email_template.updated", "email_template.deleted"]);
  });
});
