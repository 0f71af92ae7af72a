import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { emailNotificationTriggers, emailsLog } from "../db/schema/notifications";
import { EMAIL_TRIGGERS, notifyByEmail } from "./email-triggers";
import { deliverMail } from "../../../tests/helpers/deliver-mail";

// E-mail notifications (spec part 2 §2 Email Notifications, §3, §4; decision 034), delivered through a real SMTP
// server on 127.0.0.1.

let t: TestApp;
let smtp: SmtpReceiver;
let northId: string;
let southId: string;
let boss: MadeUser & { agent: Agent };
let rep: MadeUser & { agent: Agent };
let unsubscribed: MadeUser;
let southBoss: MadeUser & { agent: Agent };

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url });
  northId = (await makeDealership(t.db, { name: "North Cars" })).id;
  southId = (await makeDealership(t.db, { name: "South Cars" })).id;
  const b = await makeUser(t.db, { email: "boss@north.example", memberships: [{ dealershipId: northId, role: "management" }] });
  boss = { ...b, agent: await signIn(t.app, b) };
  const r = await makeUser(t.db, { email: "rep@north.example", memberships: [{ dealershipId: northId, role: "sales" }] });
  rep = { ...r, agent: await signIn(t.app, r) };
  unsubscribed = await makeUser(t.db, { email: "quiet@north.example", memberships: [{ dealershipId: northId, role: "sales" }] });
  const s = await makeUser(t.db, {
    email: "boss@south.example",
    // Also a member up north, where they are not subscribed.
    memberships: [
      { dealershipId: southId, role: "management" },
      { dealershipId: northId, role: "sales" },
    ],
  });
  southBoss = { ...s, agent: await signIn(t.app, s) };
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function triggersOf(agent: Agent, dealershipId: string) {
  const response = await agent.get(`/api/dealerships/${dealershipId}/email-notifications/triggers`);
  expect(response.statusCode).toBe(200);
  return response.json() as Array<{ id: string; name: string; displayName: string; description: string; isActive: boolean }>;
}

async function subscribe(agent: Agent, dealershipId: string, userId: string, triggerId: string, isSubscribed = true) {
  return agent.post(`/api/dealerships/${dealershipId}/email-notifications/subscriptions`, { userId, triggerId, isSubscribed });
}

describe("a dealership's e-mail triggers", () => {
  it("are created with the dealership, active, named and described", async () => {
    const rows = await t.db.select().from(emailNotificationTriggers).where(eq(emailNotificationTriggers.dealershipId, northId));
    expect(rows.map((r) => r.name).sort()).toEqual(EMAIL_TRIGGERS.map((x) => x.name).sort());
    const listed = await triggersOf(boss.agent, northId);
    expect(listed.map((x) => x.displayName)).toEqual([
      "New Lead",
      "Lead Claimed",
      "Lead Status Changed",
      "New Appointment",
      "Appointment Status Changed",
      "Unattended Leads Reminder",
    ]);
    expect(listed.every((x) => x.isActive && x.description.length > 10)).toBe(true);
  });

  it("are switched on and off by management only", async () => {
    const [trigger] = await triggersOf(boss.agent, northId);
    const off = await boss.agent.patch(`/api/dealerships/${northId}/email-notifications/triggers/${trigger!.id}`, { isActive: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().isActive).toBe(false);
    expect((await rep.agent.patch(`/api/dealerships/${northId}/email-notifications/triggers/${trigger!.id}`, { isActive: true })).statusCode).toBe(403);
    // Another dealership's manager cannot reach it through their own dealership either.
    expect((await southBoss.agent.patch(`/api/dealerships/${southId}/email-notifications/triggers/${trigger!.id}`, { isActive: true })).statusCode).toBe(404);
    expect((await triggersOf(boss.agent, northId)).find((x) => x.id === trigger!.id)?.isActive).toBe(false);
    expect((await boss.agent.patch(`/api/dealerships/${northId}/email-notifications/triggers/${trigger!.id}`, { isActive: "yes" })).statusCode).toBe(400);
    await boss.agent.patch(`/api/dealerships/${northId}/email-notifications/triggers/${trigger!.id}`, { isActive: true });
  });
});

describe("subscriptions", () => {
  it("are set per member and trigger, and listed", async () => {
    const [trigger] = await triggersOf(boss.agent, northId);
    const on = await subscribe(boss.agent, northId, rep.id, trigger!.id);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ userId: rep.id, triggerId: trigger!.id, isSubscribed: true });
    const off = await subscribe(boss.agent, northId, rep.id, trigger!.id, false);
    expect(off.json()).toMatchObject({ id: on.json().id, isSubscribed: false });
    const list = (await boss.agent.get(`/api/dealerships/${northId}/email-notifications/subscriptions`)).json();
    expect(list).toContainEqual({ id: on.json().id, userId: rep.id, triggerId: trigger!.id, isSubscribed: false });
  });

  it("refuse a non-member, another dealership's trigger, and non-management callers", async () => {
    const [northTrigger] = await triggersOf(boss.agent, northId);
    const [southTrigger] = await triggersOf(southBoss.agent, southId);
    const outsider = await makeUser(t.db, { memberships: [{ dealershipId: southId, role: "sales" }] });
    expect((await subscribe(boss.agent, northId, outsider.id, northTrigger!.id)).statusCode).toBe(400);
    expect((await subscribe(boss.agent, northId, rep.id, southTrigger!.id)).statusCode).toBe(400);
    expect((await subscribe(rep.agent, northId, rep.id, northTrigger!.id)).statusCode).toBe(403);
    expect((await rep.agent.get(`/api/dealerships/${northId}/email-notifications/subscriptions`)).statusCode).toBe(403);
    expect((await southBoss.agent.get(`/api/dealerships/${northId}/email-notifications/subscriptions`)).statusCode).toBe(403);
  });
});

describe("notifyByEmail", () => {
  it("mails only the subscribed, active members of that dealership, and only while the trigger is active", async () => {
    const north = await triggersOf(boss.agent, northId);
    const south = await triggersOf(southBoss.agent, southId);
    const northNewLead = north.find((x) => x.name === "lead_created")!;
    const southNewLead = south.find((x) => x.name === "lead_created")!;
    await subscribe(boss.agent, northId, boss.id, northNewLead.id);
    await subscribe(boss.agent, northId, rep.id, northNewLead.id);
    await subscribe(boss.agent, northId, unsubscribed.id, northNewLead.id, false);
    await subscribe(southBoss.agent, southId, southBoss.id, southNewLead.id);
    // Subscribed to another trigger only.
    await subscribe(boss.agent, northId, southBoss.id, north.find((x) => x.name === "lead_claimed")!.id);

    const event = { dealershipId: northId, trigger: "lead_created" as const, subject: "New lead: Jo Buyer", text: "Jo Buyer wants a test drive." };
    const sentTo = await notifyByEmail(t.db, t.app.mailer, event);
    expect(sentTo.sort()).toEqual(["boss@north.example", "rep@north.example"]);
    await deliverMail(t.app);
    const mail = await smtp.waitFor("rep@north.example", { subject: /New lead: Jo Buyer/ });
    expect(mail.text).toContain("Jo Buyer wants a test drive.");
    await smtp.waitFor("boss@north.example", { subject: /New lead: Jo Buyer/ });
    await deliverMail(t.app);
    expect(smtp.mailsTo("quiet@north.example")).toEqual([]);
    expect(smtp.mailsTo("boss@south.example")).toEqual([]);
    const logged = await t.db.select().from(emailsLog).where(eq(emailsLog.subject, "New lead: Jo Buyer"));
    expect(logged.map((l) => [l.to, l.status, l.emailType, l.dealershipId]).sort()).toEqual([
      ["boss@north.example", "sent", "lead_created", northId],
      ["rep@north.example", "sent", "lead_created", northId],
    ]);

    // The person who caused the event is not told about it.
    expect(await notifyByEmail(t.db, t.app.mailer, { ...event, excludeUserIds: [boss.id] })).toEqual(["rep@north.example"]);

    // Switched off: nobody.
    await boss.agent.patch(`/api/dealerships/${northId}/email-notifications/triggers/${northNewLead.id}`, { isActive: false });
    expect(await notifyByEmail(t.db, t.app.mailer, event)).toEqual([]);
    await boss.agent.patch(`/api/dealerships/${northId}/email-notifications/triggers/${northNewLead.id}`, { isActive: true });

    // A removed member is no longer mailed.
    await boss.agent.delete(`/api/dealerships/${northId}/users/${rep.id}`);
    expect(await notifyByEmail(t.db, t.app.mailer, event)).toEqual(["boss@north.example"]);
    await deliverMail(t.app);
  });
});

describe("events of the other areas", () => {
  it("mail the subscribers when a lead is created and an appointment scheduled through the API", async () => {
    const dealershipId = (await makeDealership(t.db, { name: "Event Motors" })).id;
    const manager = await makeUser(t.db, { email: "boss@event.example", memberships: [{ dealershipId, role: "management" }] });
    const deskUser = await makeUser(t.db, { email: "desk@event.example", memberships: [{ dealershipId, role: "frontDesk" }] });
    const managerAgent = await signIn(t.app, manager);
    const triggers = await triggersOf(managerAgent, dealershipId);
    for (const name of ["lead_created", "appointment_created"]) {
      await subscribe(managerAgent, dealershipId, manager.id, triggers.find((x) => x.name === name)!.id);
    }
    const desk = await signIn(t.app, deskUser);
    const lead = await desk.post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Jo", lastName: "Buyer", email: "jo@buyer.example", phone: "416-555-0101" });
    expect(lead.statusCode).toBe(201);
    await deliverMail(t.app);
    const leadMail = await smtp.waitFor("boss@event.example", { subject: /New Lead: Jo Buyer/ });
    expect(leadMail.text).toContain("Jo Buyer");
    expect(leadMail.html).toContain("Jo Buyer");

    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const appointment = await desk.post(`/api/dealerships/${dealershipId}/appointments`, {
      title: "Test drive",
      firstName: "Jo",
      lastName: "Buyer",
      date: tomorrow,
      time: "10:00",
    });
    expect(appointment.statusCode).toBe(201);
    await deliverMail(t.app);
    await smtp.waitFor("boss@event.example", { subject: /New Appointment/ });
    // The front desk user caused both events and is not subscribed: nothing for them.
    await deliverMail(t.app);
    expect(smtp.mailsTo("desk@event.example")).toEqual([]);
  });
});

describe("when the SMTP server fails", () => {
  it("still completes the request, and emails_log records the failure with its error", async () => {
    const down = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}` });
    try {
      const dealershipId = (await makeDealership(down.db, { name: "Down Motors" })).id;
      const manager = await makeUser(down.db, { email: "m@down.example", memberships: [{ dealershipId, role: "management" }] });
      const agent = await signIn(down.app, manager);
      const response = await agent.post(`/api/dealerships/${dealershipId}/invites`, {
        email: "new@down.example",
        firstName: "N",
        lastName: "Ew",
        role: "sales",
      });
      expect(response.statusCode).toBe(201);

      const trigger = (await agent.get(`/api/dealerships/${dealershipId}/email-notifications/triggers`)).json()[0];
      await agent.post(`/api/dealerships/${dealershipId}/email-notifications/subscriptions`, {
        userId: manager.id,
        triggerId: trigger.id,
        isSubscribed: true,
      });
      expect(await notifyByEmail(down.db, down.app.mailer, { dealershipId, trigger: trigger.name, subject: "Down?", text: "t" })).toEqual(["m@down.example"]);
      // A lead created by someone else still answers 201 at once; the notification is logged as failed.
      const desk = await makeUser(down.db, { memberships: [{ dealershipId, role: "frontDesk" }] });
      const lead = await (await signIn(down.app, desk)).post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Sam", lastName: "Smtpdown" });
      expect(lead.statusCode).toBe(201);

      await deliverMail(down.app);
      const log = await down.db.select().from(emailsLog);
      expect(log.map((l) => [l.to, l.status])).toEqual(
        expect.arrayContaining([
          ["new@down.example", "failed"],
          ["m@down.example", "failed"],
        ]),
      );
      expect(log.filter((l) => l.subject.startsWith("New Lead: Sam Smtpdown")).map((l) => [l.to, l.status])).toEqual([["m@down.example", "failed"]]);
      expect(log.every((l) => (l.errorMessage ?? "").length > 0)).toBe(true);
    } finally {
      await down.close();
    }
  });

  it("does not slow the request when the server accepts connections but never answers", async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const hung = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}` });
    try {
      const dealershipId = (await makeDealership(hung.db)).id;
      const agent = await signIn(hung.app, await makeUser(hung.db, { memberships: [{ dealershipId, role: "management" }] }));
      const response = await agent.post(`/api/dealerships/${dealershipId}/invites`, {
        email: "slow@example.com",
        firstName: "S",
        lastName: "Low",
        role: "sales",
      });
      expect(response.statusCode).toBe(201);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
      await hung.close();
    }
  });
});
