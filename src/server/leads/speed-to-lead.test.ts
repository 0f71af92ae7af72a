import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { viewerOf } from "../auth/tenancy";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { dealerships } from "../db/schema/dealerships";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { emailNotificationTriggers } from "../db/schema/notifications";
import { setSubscription } from "../notifications/email-triggers";
import { speedToLead } from "./speed-to-lead";
import { reportUnattendedLeads, startUnattendedLeadsJob, UNATTENDED_CHUNK } from "./unattended-leads";
import pino from "pino";

// Speed-to-lead (issue 14; decisions 140-142): what counts as the first answer, the figures against hand counts on
// fixed timestamps and the dealership's clock, and the unattended-leads e-mail, sent once, through a real SMTP server.

let t: TestApp;
let smtp: SmtpReceiver;
let ours: string;
let people: Record<"sales" | "sales2" | "frontDesk" | "management", MadeUser>;
let as: Record<"sales" | "sales2" | "frontDesk" | "management", Agent>;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url });
  ours = (await makeDealership(t.db, { name: "Northside Motors", timezone: "America/Toronto" })).id;
  const member = (role: "sales" | "frontDesk" | "management", firstName: string) => ({ firstName, lastName: "Tester", memberships: [{ dealershipId: ours, role }] });
  people = {
    sales: await makeUser(t.db, member("sales", "Sam")),
    sales2: await makeUser(t.db, member("sales", "Riley")),
    frontDesk: await makeUser(t.db, member("frontDesk", "Fran")),
    management: await makeUser(t.db, member("management", "Morgan")),
  };
  as = {
    sales: await signIn(t.app, people.sales),
    sales2: await signIn(t.app, people.sales2),
    frontDesk: await signIn(t.app, people.frontDesk),
    management: await signIn(t.app, people.management),
  };
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const answerOf = async (id: string) => {
  const [row] = await t.db
    .select({ at: leads.firstResponseAt, kind: leads.firstResponseKind, by: leads.firstResponseBy })
    .from(leads)
    .where(eq(leads.id, id));
  return row!;
};

async function poolLead(): Promise<string> {
  const response = await as.frontDesk.post(`/api/dealerships/${ours}/leads`, { firstName: "Walt", lastName: "Inn" });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string }>().id;
}

describe("the first answer to a lead", () => {
  it("is the claim when the claim comes first, and a later status change does not move it", async () => {
    const id = await poolLead();
    expect(await answerOf(id)).toEqual({ at: null, kind: null, by: null });
    expect((await as.sales.post(`/api/leads/${id}/claim`)).statusCode).toBe(200);
    const claimed = await answerOf(id);
    expect(claimed).toMatchObject({ kind: "claim", by: people.sales.id });
    expect(claimed.at).toBeInstanceOf(Date);
    expect((await as.sales.patch(`/api/leads/${id}/status`, { status: "contacted" })).statusCode).toBe(200);
    expect(await answerOf(id)).toEqual(claimed);
  });

  it("is a call from the lead's page (POST /api/leads/{id}/call), which only the first time records", async () => {
    const id = await poolLead();
    const first = await as.sales2.post(`/api/leads/${id}/call`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ firstResponseKind: "call" });
    const again = await as.management.post(`/api/leads/${id}/call`);
    expect(again.json()).toEqual(first.json());
    expect(await answerOf(id)).toMatchObject({ kind: "call", by: people.sales2.id });
  });

  it("is a status change, but not an edit that saves the same status", async () => {
    const id = await poolLead();
    expect((await as.frontDesk.patch(`/api/leads/${id}`, { description: "Asked about leasing", status: "new" })).statusCode).toBe(200);
    expect((await answerOf(id)).at).toBeNull();
    expect((await as.frontDesk.patch(`/api/leads/${id}`, { status: "contacted" })).statusCode).toBe(200);
    expect(await answerOf(id)).toMatchObject({ kind: "status", by: people.frontDesk.id });
  });

  it("is immediate for a walk-in a rep typed in for themselves, and an assignment by front desk is no answer", async () => {
    const own = (await as.sales.post(`/api/dealerships/${ours}/leads`, { firstName: "Here", lastName: "Now" })).json<{ id: string }>().id;
    expect(await answerOf(own)).toMatchObject({ kind: "created", by: people.sales.id });
    const assigned = (await as.frontDesk.post(`/api/dealerships/${ours}/leads`, { firstName: "For", lastName: "Sam", assignedTo: people.sales.id })).json<{ id: string }>().id;
    expect((await answerOf(assigned)).at).toBeNull();
  });

  it("cannot be recorded by a rep on another rep's client (404)", async () => {
    const theirs = (await as.sales.post(`/api/dealerships/${ours}/leads`, { firstName: "Only", lastName: "Sams" })).json<{ id: string }>().id;
    expect((await as.sales2.post(`/api/leads/${theirs}/call`)).statusCode).toBe(404);
  });
});

describe("the figures of a period", () => {
  it("match a hand count: median over the answered leads, shares of all that arrived, on the dealership's clock", async () => {
    const dealership = (await makeDealership(t.db, { name: "Counted Motors", timezone: "America/Toronto" })).id;
    const rep = await makeUser(t.db, { firstName: "Hand", lastName: "Count", memberships: [{ dealershipId: dealership, role: "sales" }] });
    const rep2 = await makeUser(t.db, { firstName: "Second", lastName: "Rep", memberships: [{ dealershipId: dealership, role: "sales" }] });
    // Now: 2026-03-10 12:00 in Toronto (16:00 UTC, EDT). "7 days" starts 2026-03-04 00:00 Toronto = 05:00 UTC (EST).
    const now = new Date("2026-03-10T16:00:00Z");
    const at = (iso: string) => new Date(iso);
    const lead = async (created: string, answeredAfterSeconds: number | null, by = rep.id, kind: "claim" | "call" | "status" | "created" = "claim") => {
      const row = await makeLead(t.db, { dealershipId: dealership, createdAt: at(created) });
      if (answeredAfterSeconds !== null) {
        await t.db
          .update(leads)
          .set({ firstResponseAt: new Date(at(created).getTime() + answeredAfterSeconds * 1000), firstResponseKind: kind, firstResponseBy: by })
          .where(eq(leads.id, row.id));
      }
    };
    await lead("2026-03-10T15:00:00Z", 60); // 1 min
    await lead("2026-03-09T15:00:00Z", 240); // 4 min
    await lead("2026-03-08T15:00:00Z", 300); // exactly 5 min: within 5
    await lead("2026-03-07T15:00:00Z", 600, rep2.id, "call"); // 10 min
    await lead("2026-03-06T15:00:00Z", 1200, rep2.id, "status"); // 20 min
    await lead("2026-03-05T15:00:00Z", null); // never answered
    await lead("2026-03-04T05:30:00Z", 120); // 00:30 Toronto on the first day: in (2 min)
    await lead("2026-03-04T04:30:00Z", 30); // 23:30 Toronto the day before: out
    await lead("2026-03-09T10:00:00Z", 0, rep.id, "created"); // a rep's own walk-in: left out
    const viewer = viewerOf(people.management.id, dealership, "management");
    const figures = await speedToLead(t.db, viewer, 7, now, true);
    // Arrived: 7 (1, 4, 5, 10, 20 min, unanswered, 2 min). Answered seconds sorted: 60 120 240 300 600 1200 -> median 270.
    expect(figures).toMatchObject({
      days: 7,
      from: "2026-03-04",
      dealership: { arrived: 7, answered: 6, medianSeconds: 270, within5: 4, within15: 5, within5Share: 4 / 7, within15Share: 5 / 7 },
      unattendedLeadMinutes: 15,
    });
    // Per rep: Hand Count answered 60, 120, 240, 300 (median 180); Second Rep 600, 1200 (median 900).
    expect(figures.reps).toEqual([
      { userId: rep.id, name: "Hand Count", answered: 4, medianSeconds: 180, within5: 4, within15: 4 },
      { userId: rep2.id, name: "Second Rep", answered: 2, medianSeconds: 900, within5: 0, within15: 1 },
    ]);
    // Today only: the one lead of 1 minute.
    expect((await speedToLead(t.db, viewer, 1, now, false)).dealership).toMatchObject({ arrived: 1, answered: 1, medianSeconds: 60, within5Share: 1 });
  });

  it("answers the dealership's figures to everyone, the per-rep lines to management only", async () => {
    const rep = await as.sales.get(`/api/dealerships/${ours}/speed-to-lead?days=30`);
    expect(rep.statusCode, rep.body).toBe(200);
    expect(rep.json()).toMatchObject({ days: 30, reps: [] });
    const manager = await as.management.get(`/api/dealerships/${ours}/speed-to-lead?days=30`);
    expect(manager.json().reps.length).toBeGreaterThan(0);
  });

  it("refuses a period that is not offered (400, naming the field)", async () => {
    const response = await as.management.get(`/api/dealerships/${ours}/speed-to-lead?days=12`);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty("days");
  });
});

describe("the unattended-lead time", () => {
  it("is management's to set, within 1 to 1440 minutes", async () => {
    expect((await as.frontDesk.put(`/api/dealerships/${ours}/speed-to-lead/settings`, { unattendedLeadMinutes: 30 })).statusCode).toBe(403);
    const bad = await as.management.put(`/api/dealerships/${ours}/speed-to-lead/settings`, { unattendedLeadMinutes: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty("unattendedLeadMinutes");
    const ok = await as.management.put(`/api/dealerships/${ours}/speed-to-lead/settings`, { unattendedLeadMinutes: 20 });
    expect(ok.json()).toEqual({ unattendedLeadMinutes: 20 });
    expect((await as.management.get(`/api/dealerships/${ours}/speed-to-lead`)).json().unattendedLeadMinutes).toBe(20);
  });
});

describe("the unattended-leads e-mail", () => {
  it("goes once per lead to management subscribed to the trigger, only after the dealership's minutes", async () => {
    const dealership = (await makeDealership(t.db, { name: "Quiet Motors" })).id;
    await t.db.update(dealerships).set({ unattendedLeadMinutes: 10 }).where(eq(dealerships.id, dealership));
    const manager = await makeUser(t.db, { firstName: "Mona", lastName: "Ger", memberships: [{ dealershipId: dealership, role: "management" }] });
    // Triggers are made with the dealership (decision 034).
    const [trigger] = await t.db
      .select({ id: emailNotificationTriggers.id })
      .from(emailNotificationTriggers)
      .where(and(eq(emailNotificationTriggers.dealershipId, dealership), eq(emailNotificationTriggers.name, "unattended_leads_reminder")));
    await setSubscription(t.db, dealership, { userId: manager.id, triggerId: trigger!.id, isSubscribed: true });

    // A fixed clock in the past, so leads other tests made just now are not in its window.
    const now = new Date("2020-06-01T15:00:00Z");
    const waiting = await makeLead(t.db, { dealershipId: dealership, firstName: "Wendy", lastName: "Waiting", createdAt: new Date(now.getTime() - 11 * 60_000) });
    const recent = await makeLead(t.db, { dealershipId: dealership, firstName: "Rita", lastName: "Recent", createdAt: new Date(now.getTime() - 9 * 60_000) });
    const answered = await makeLead(t.db, { dealershipId: dealership, firstName: "Andy", lastName: "Answered", createdAt: new Date(now.getTime() - 30 * 60_000) });
    await t.db.update(leads).set({ firstResponseAt: new Date(now.getTime() - 29 * 60_000), firstResponseKind: "call" }).where(eq(leads.id, answered.id));

    const before = smtp.mailsTo(manager.email).length;
    expect(await reportUnattendedLeads(t.db, now)).toBe(1);
    // Again at once, and from a second "process" at the same moment: nothing more.
    expect(await Promise.all([reportUnattendedLeads(t.db, now), reportUnattendedLeads(t.db, now)])).toEqual([0, 0]);
    await deliverMail(t.app);
    const mail = await smtp.waitFor(manager.email, { subject: /waited over 10 minutes/, since: before });
    expect(mail.subject).toBe("1 new lead has waited over 10 minutes — Quiet Motors");
    expect(mail.text).toContain("Wendy Waiting");
    expect(mail.text).toContain(encodeURIComponent(`/leads/detail/${waiting.id}`));
    expect(mail.text).not.toContain("Rita Recent");
    expect(mail.text).not.toContain("Andy Answered");

    // Two minutes later the other lead is past its time too: one more mail, about it alone.
    expect(await reportUnattendedLeads(t.db, new Date(now.getTime() + 2 * 60_000))).toBe(1);
    await deliverMail(t.app);
    const second = await smtp.waitFor(manager.email, { subject: /waited over 10 minutes/, since: before + 1 });
    expect(second.text).toContain("Rita Recent");
    expect(second.text).not.toContain("Wendy Waiting");
    expect(smtp.mailsTo(manager.email).length - before).toBe(2);
    expect((await t.db.select({ at: leads.unattendedAlertedAt }).from(leads).where(eq(leads.id, recent.id)))[0]?.at).toBeInstanceOf(Date);
  });

  it("marks a mass import's thousand unanswered leads in chunks, each lead once, even from two processes at once", async () => {
    const dealership = (await makeDealership(t.db, { name: "Import Motors" })).id;
    const now = new Date("2019-03-01T12:00:00Z");
    const total = UNATTENDED_CHUNK * 2 + 100;
    // An import's leads, a second apart, all past the default 15 minutes.
    await t.db.execute(sql`insert into ${leads} (id, dealership_id, first_name, last_name, created_at)
      select 'mass-' || g, ${dealership}, 'Mass', 'Import ' || g, ${now.toISOString()}::timestamptz - interval '1 hour' + g * interval '1 second'
      from generate_series(1, ${total}) g`);
    const [first, second] = await Promise.all([reportUnattendedLeads(t.db, now), reportUnattendedLeads(t.db, now)]);
    expect(first! + second!).toBe(total);
    expect(await reportUnattendedLeads(t.db, now)).toBe(0);
    const events = await t.db
      .select({ payload: domainEvents.payload })
      .from(domainEvents)
      .where(and(eq(domainEvents.type, "lead.unattended"), eq(domainEvents.dealershipId, dealership)));
    const reported = events.flatMap((e) => (e.payload as { leads: Array<{ id: string }> }).leads.map((l) => l.id));
    // No event over a chunk; every lead in exactly one.
    expect(Math.max(...events.map((e) => (e.payload as { leads: unknown[] }).leads.length))).toBeLessThanOrEqual(UNATTENDED_CHUNK);
    expect(reported).toHaveLength(total);
    expect(new Set(reported).size).toBe(total);
  });

  it("is checked every minute by a pg-boss schedule the server starts", async () => {
    const job = await startUnattendedLeadsJob(t.database, pino({ level: "silent" }));
    try {
      expect((await job.schedules()).map((s) => s.cron)).toEqual(["* * * * *"]);
    } finally {
      await job.stop(0);
    }
  });
});
