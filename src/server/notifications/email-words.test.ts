import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";

// Words in the mail (issue 29): a status as people read it ("In Progress", not "inProgress"), and the line breaks of a
// lead's notes kept in the HTML part.

let t: TestApp;
let smtp: SmtpReceiver;
let dealershipId: string;
let manager: Agent;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url });
  dealershipId = (await makeDealership(t.db, { name: "Words Motors" })).id;
  const boss = await makeUser(t.db, { email: "boss@words.example", memberships: [{ dealershipId, role: "management" }] });
  manager = await signIn(t.app, boss);
  const triggers = (await manager.get(`/api/dealerships/${dealershipId}/email-notifications/triggers`)).json<Array<{ id: string; name: string }>>();
  for (const name of ["lead_created", "lead_status_changed"]) {
    const trigger = triggers.find((x) => x.name === name)!;
    await manager.post(`/api/dealerships/${dealershipId}/email-notifications/subscriptions`, { userId: boss.id, triggerId: trigger.id, isSubscribed: true });
  }
}, 60_000);
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe("notification e-mails", () => {
  it("keep the line breaks of a lead's notes in HTML, and name a status as people read it", async () => {
    const desk = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "frontDesk" }] }));
    const created = await desk.post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Wendy", lastName: "Words", description: "Line one\nLine <two>" });
    expect(created.statusCode, created.body).toBe(201);
    await deliverMail(t.app);
    const newLead = await smtp.waitFor("boss@words.example", { subject: /New Lead: Wendy Words/ });
    expect(newLead.html).toContain("Line one<br>Line &lt;two&gt;");
    expect(newLead.text).toContain("Status: New");

    const changed = await desk.patch(`/api/leads/${created.json().id}`, { status: "inProgress" });
    expect(changed.statusCode, changed.body).toBe(200);
    await deliverMail(t.app);
    const mail = await smtp.waitFor("boss@words.example", { subject: /Lead Status Changed: Wendy Words/ });
    expect(mail.text).toContain("is now In Progress.");
    expect(mail.text).toContain("Status: In Progress");
    expect(mail.text).not.toContain("inProgress");
  });
});
