import { count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { addMember } from "../dealerships/queries";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { makeLead } from "../db/factories-leads";
import { dealershipUsers } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { emailNotificationTriggers, emailsLog } from "../db/schema/notifications";
import { setSubscription } from "../notifications/email-triggers";
import { testDrives } from "../db/schema/test-drives";
import { deliverMail } from "../../../tests/helpers/deliver-mail";

let t: TestApp;
let dealershipId: string;
let otherDealershipId: string;
let people: Record<"sales" | "sales2" | "frontDesk" | "management" | "outsider", MadeUser>;
let as: Record<"sales" | "sales2" | "frontDesk" | "management", Agent>;

beforeAll(async () => {
  t = await createTestApp();
  const ours = await makeDealership(t.db, { name: "Northside Motors", timezone: "America/Toronto" });
  const theirs = await makeDealership(t.db, { name: "Elsewhere" });
  dealershipId = ours.id;
  otherDealershipId = theirs.id;
  const member = (role: "sales" | "frontDesk" | "management", firstName: string, lastName: string) => ({
    firstName,
    lastName,
    memberships: [{ dealershipId: ours.id, role }],
  });
  people = {
    sales: await makeUser(t.db, member("sales", "Sam", "Sales")),
    sales2: await makeUser(t.db, member("sales", "Riley", "Chen")),
    frontDesk: await makeUser(t.db, member("frontDesk", "Fran", "Desk")),
    management: await makeUser(t.db, member("management", "Morgan", "Manager")),
    outsider: await makeUser(t.db, { memberships: [{ dealershipId: theirs.id, role: "sales" }] }),
  };
  as = {
    sales: await signIn(t.app, people.sales),
    sales2: await signIn(t.app, people.sales2),
    frontDesk: await signIn(t.app, people.frontDesk),
    management: await signIn(t.app, people.management),
  };
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const leadsUrl = (query = "") => `/api/dealerships/${dealershipId}/leads${query}`;
const leadCount = async () => (await t.db.select({ n: count() }).from(leads))[0]?.n ?? 0;
const ids = (body: Array<{ id: string }>) => body.map((l) => l.id);


/** The dealership's Unattended Leads Reminder trigger, made with the dealership. */
async function unattendedLeadsTrigger(dealershipId: string) {
  const rows = await t.db.select().from(emailNotificationTriggers).where(eq(emailNotificationTriggers.dealershipId, dealershipId));
  return rows.find((r) => r.name === "unattended_leads_reminder");
}
describe("creating a lead", () => {
  it("claims a lead created by a sales user for them at once", async () => {
    const response = await as.sales.post(leadsUrl(), { firstName: " Dana ", lastName: "Doe", email: "Dana@Example.com", phone: "4165550123" });
    expect(response.statusCode).toBe(201);
    const lead = response.json();
    expect(lead).toMatchObject({
      firstName: "Dana",
      lastName: "Doe",
      email: "dana@example.com",
      phone: "+14165550123",
      status: "claimed",
      claimedBy: people.sales.id,
      claimedByName: "Sam Sales",
      dealershipId,
    });
    expect(lead.id).toHaveLength(21);
    expect(lead.claimedAt).not.toBeNull();
  });

  it("leaves a front desk lead without an assignee unclaimed", async () => {
    const lead = (await as.frontDesk.post(leadsUrl(), { firstName: "Una", lastName: "Signed", assignedTo: "" })).json();
    expect(lead).toMatchObject({ status: "new", claimedBy: null, claimedAt: null, claimedByName: null });
  });

  it("claims an assigned lead for the rep front desk or management chose", async () => {
    for (const who of ["frontDesk", "management"] as const) {
      const response = await as[who].post(leadsUrl(), { firstName: "Assigned", lastName: who, assignedTo: people.sales2.id });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ status: "claimed", claimedBy: people.sales2.id, claimedByName: "Riley Chen" });
    }
  });

  it("refuses an assignee who is not an active member of the dealership, and saves nothing", async () => {
    const before = await leadCount();
    const inactive = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
    await t.db.update(dealershipUsers).set({ active: false }).where(eq(dealershipUsers.userId, inactive.id));
    for (const assignedTo of [people.outsider.id, inactive.id, "no-such-user"]) {
      const response = await as.frontDesk.post(leadsUrl(), { firstName: "A", lastName: "B", assignedTo });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ assignedTo: "Choose an active member of this dealership" });
    }
    expect(await leadCount()).toBe(before);
  });

  it("names every invalid field with the spec's messages and saves nothing", async () => {
    const before = await leadCount();
    const response = await as.sales.post(leadsUrl(), { firstName: "  ", lastName: "", email: "not-an-email", phone: "12ab" });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      firstName: "First name is required",
      lastName: "Last name is required",
      email: "Please enter a valid email",
      phone: "Please enter a valid phone number",
    });
    const missing = await as.sales.post(leadsUrl(), {});
    expect(missing.json().fields).toMatchObject({ firstName: "First name is required", lastName: "Last name is required" });
    const tooLong = await as.sales.post(leadsUrl(), { firstName: "x".repeat(101), lastName: "y", description: "d".repeat(5001) });
    expect(Object.keys(tooLong.json().fields).sort()).toEqual(["description", "firstName"]);
    expect(await leadCount()).toBe(before);
  });

  it("accepts an empty e-mail and phone as not given", async () => {
    const response = await as.sales.post(leadsUrl(), { firstName: "No", lastName: "Contact", email: "", phone: "", description: "" });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ email: null, phone: null, description: null });
  });
});

describe("reading leads", () => {
  it("gives a lead's detail with the claimer's name", async () => {
    const lead = await makeLead(t.db, { dealershipId, claimedBy: people.sales.id });
    const response = await as.frontDesk.get(`/api/leads/${lead.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: lead.id, claimedBy: people.sales.id, claimedByName: "Sam Sales", status: "claimed" });
  });

  it("shows a sales user only the pool and their own clients, front desk and management everything", async () => {
    const d = await makeDealership(t.db);
    const rep = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "sales" }] });
    const rep2 = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "sales" }] });
    const boss = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "frontDesk" }] });
    const pool = await makeLead(t.db, { dealershipId: d.id });
    const mine = await makeLead(t.db, { dealershipId: d.id, claimedBy: rep.id, status: "qualified" });
    const theirs = await makeLead(t.db, { dealershipId: d.id, claimedBy: rep2.id });
    const rep1 = await signIn(t.app, rep);
    const desk = await signIn(t.app, boss);
    const list = async (agent: Agent, query: string) => ids((await agent.get(`/api/dealerships/${d.id}/leads${query}`)).json()).sort();

    expect(await list(rep1, "?type=new")).toEqual([pool.id]);
    expect(await list(rep1, "?type=my")).toEqual([mine.id]);
    expect(await list(rep1, "")).toEqual([pool.id, mine.id].sort());
    expect(await list(desk, "?type=new")).toEqual([pool.id]);
    expect(await list(desk, "?type=my")).toEqual([mine.id, theirs.id].sort());
    expect(await list(desk, "")).toEqual([pool.id, mine.id, theirs.id].sort());
  });

  it("answers a lead of another dealership as not found", async () => {
    const foreign = await makeLead(t.db, { dealershipId: otherDealershipId });
    expect((await as.management.get(`/api/leads/${foreign.id}`)).statusCode).toBe(404);
    expect((await as.management.get(`/api/leads/nope`)).statusCode).toBe(404);
  });
});

describe("claiming", () => {
  it("claims a new lead for the caller and refuses a second claim with 409 'already claimed'", async () => {
    const lead = await makeLead(t.db, { dealershipId });
    const first = await as.sales.post(`/api/leads/${lead.id}/claim`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: "claimed", claimedBy: people.sales.id, claimedByName: "Sam Sales" });
    const second = await as.sales2.post(`/api/leads/${lead.id}/claim`);
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toContain("already claimed");
    const [row] = await t.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(row?.claimedBy).toBe(people.sales.id);
  });

  it("then lists the lead among the claimer's clients and no longer among new leads", async () => {
    const lead = await makeLead(t.db, { dealershipId });
    await as.sales2.post(`/api/leads/${lead.id}/claim`);
    expect(ids((await as.sales2.get(leadsUrl("?type=my"))).json())).toContain(lead.id);
    expect(ids((await as.sales2.get(leadsUrl("?type=new"))).json())).not.toContain(lead.id);
  });
});

describe("editing and status", () => {
  it("saves the edited fields and answers the lead", async () => {
    const lead = await makeLead(t.db, { dealershipId, claimedBy: people.sales.id });
    const response = await as.sales.patch(`/api/leads/${lead.id}`, {
      firstName: "Edited",
      lastName: "Name",
      email: "",
      phone: "647 555 0199",
      description: "Wants a red one",
      status: "contacted",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: "Edited",
      lastName: "Name",
      email: null,
      phone: "+16475550199",
      description: "Wants a red one",
      status: "contacted",
      claimedBy: people.sales.id,
    });
  });

  it("refuses an unknown status with 400 and keeps the old one", async () => {
    const lead = await makeLead(t.db, { dealershipId, claimedBy: people.sales.id });
    for (const body of [{ status: "won" }, { status: "" }, {}]) {
      const response = await as.sales.patch(`/api/leads/${lead.id}/status`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().fields.status).toMatch(/Status must be one of: new, claimed, contacted, qualified, inProgress, closed, lost|expected/i);
    }
    const edit = await as.sales.patch(`/api/leads/${lead.id}`, { status: "archived", firstName: "" });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().fields).toMatchObject({ firstName: "First name is required" });
    const [row] = await t.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(row).toMatchObject({ status: "claimed", firstName: lead.firstName });
  });

  it("accepts every status of part 2 §4, any to any", async () => {
    const lead = await makeLead(t.db, { dealershipId, claimedBy: people.sales.id });
    for (const status of ["contacted", "qualified", "inProgress", "closed", "lost", "claimed", "contacted"]) {
      // Lost takes a reason from the dealership's list (issue 27, decision 202).
      const response = await as.management.patch(`/api/leads/${lead.id}/status`, status === "lost" ? { status, lostReason: "Bought elsewhere" } : { status });
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe(status);
    }
  });

  it("returns a lead set back to new to the pool, and records who took a new lead out of it", async () => {
    const lead = await makeLead(t.db, { dealershipId, claimedBy: people.sales.id });
    const back = (await as.management.patch(`/api/leads/${lead.id}/status`, { status: "new" })).json();
    expect(back).toMatchObject({ status: "new", claimedBy: null, claimedAt: null });
    const moved = (await as.frontDesk.patch(`/api/leads/${lead.id}/status`, { status: "lost", lostReason: "Price too high" })).json();
    expect(moved).toMatchObject({ status: "lost", claimedBy: people.frontDesk.id, claimedByName: "Fran Desk" });
  });
});

describe("deleting", () => {
  it("removes the lead", async () => {
    const lead = await makeLead(t.db, { dealershipId, claimedBy: people.sales.id });
    const response = await as.sales.delete(`/api/leads/${lead.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: "Lead deleted successfully" });
    expect((await as.sales.get(`/api/leads/${lead.id}`)).statusCode).toBe(404);
  });
});

describe("Send Reminder", () => {
  it("mails every active sales rep the leads still new and says how many", async () => {
    const d = await makeDealership(t.db, { name: "Reminder Motors" });
    const repA = await makeUser(t.db, { firstName: "Ann", memberships: [{ dealershipId: d.id, role: "sales" }] });
    const repB = await makeUser(t.db, { firstName: "Bo", memberships: [{ dealershipId: d.id, role: "sales" }] });
    const gone = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "sales" }] });
    await t.db.update(dealershipUsers).set({ active: false }).where(eq(dealershipUsers.userId, gone.id));
    const desk = await makeUser(t.db, { firstName: "Dee", lastName: "Desk", memberships: [{ dealershipId: d.id, role: "frontDesk" }] });
    await addMember(t.db, { userId: people.sales.id, dealershipId: otherDealershipId, role: "sales" });
    await makeLead(t.db, { dealershipId: d.id, firstName: "Waiting", lastName: "One" });
    await makeLead(t.db, { dealershipId: d.id, firstName: "Waiting", lastName: "Two" });
    await makeLead(t.db, { dealershipId: d.id, firstName: "Taken", lastName: "Three", claimedBy: repA.id });

    const response = await (await signIn(t.app, desk)).post(`/api/dealerships/${d.id}/leads/remind-unattended`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: "Reminder sent to 2 sales reps about 2 new leads." });

    await deliverMail(t.app);
    const mails = await t.db.select().from(emailsLog).where(eq(emailsLog.dealershipId, d.id));
    expect(mails.map((m) => m.to).sort()).toEqual([repA.email, repB.email].sort());
    for (const mail of mails) {
      expect(mail).toMatchObject({ emailType: "lead_reminder", status: "sent" });
      expect(mail.subject).toContain("2 new leads are waiting to be claimed");
      expect(mail.body).toContain("Waiting One");
      expect(mail.body).toContain("Waiting Two");
      expect(mail.body).not.toContain("Taken Three");
      expect(mail.body).toContain("Dee Desk sent a reminder");
      expect(mail.body).toContain("/email-redirect?to=%2Fleads%2Fnew");
    }
  });

  it("also tells members subscribed to the Unattended Leads Reminder trigger, once, and never the sender", async () => {
    const d = await makeDealership(t.db);
    const rep = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "sales" }] });
    const boss = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "management" }] });
    const desk = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "frontDesk" }] });
    const trigger = await unattendedLeadsTrigger(d.id);
    for (const u of [rep, boss, desk]) await setSubscription(t.db, d.id, { userId: u.id, triggerId: trigger!.id, isSubscribed: true });
    await makeLead(t.db, { dealershipId: d.id });
    await (await signIn(t.app, desk)).post(`/api/dealerships/${d.id}/leads/remind-unattended`);
    await deliverMail(t.app);
    const mails = await t.db.select().from(emailsLog).where(eq(emailsLog.dealershipId, d.id));
    expect(mails.map((m) => `${m.to} ${m.emailType}`).sort()).toEqual(
      [`${rep.email} lead_reminder`, `${boss.email} unattended_leads_reminder`].sort(),
    );
  });

  it("says so and sends nothing when no lead is new", async () => {
    const d = await makeDealership(t.db);
    await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "sales" }] });
    const boss = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "management" }] });
    const response = await (await signIn(t.app, boss)).post(`/api/dealerships/${d.id}/leads/remind-unattended`);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe("There are no new leads waiting, so no reminder was sent.");
    await deliverMail(t.app);
    expect(await t.db.select().from(emailsLog).where(eq(emailsLog.dealershipId, d.id))).toEqual([]);
  });

  it("says so and sends nothing when no sales rep is active, not even the trigger's notice", async () => {
    const d = await makeDealership(t.db);
    const gone = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "sales" }] });
    await t.db.update(dealershipUsers).set({ active: false }).where(eq(dealershipUsers.userId, gone.id));
    const boss = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "management" }] });
    const desk = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "frontDesk" }] });
    const trigger = await unattendedLeadsTrigger(d.id);
    await setSubscription(t.db, d.id, { userId: boss.id, triggerId: trigger!.id, isSubscribed: true });
    await makeLead(t.db, { dealershipId: d.id });
    const response = await (await signIn(t.app, desk)).post(`/api/dealerships/${d.id}/leads/remind-unattended`);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe("There are no active sales reps to remind, so no reminder was sent.");
    await deliverMail(t.app);
    expect(await t.db.select().from(emailsLog).where(eq(emailsLog.dealershipId, d.id))).toEqual([]);
  });
});

describe("metrics on the dealership's clock", () => {
  // Toronto is UTC-5 in January: 05:30 UTC on the 15th is 00:30 on the 15th in Toronto, while the server runs in UTC.
  it("counts today and yesterday in Toronto, not in UTC, with the percent change", async () => {
    const d = await makeDealership(t.db, { timezone: "America/Toronto" });
    const boss = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "management" }] });
    const me = await signIn(t.app, boss);
    const at = (iso: string) => new Date(iso);
    // Leads: one today (00:10 Toronto); two yesterday (23:50 and 01:00 Toronto, although the first is the 15th in UTC).
    await makeLead(t.db, { dealershipId: d.id, createdAt: at("2026-01-15T05:10:00Z") });
    await makeLead(t.db, { dealershipId: d.id, createdAt: at("2026-01-15T04:50:00Z") });
    await makeLead(t.db, { dealershipId: d.id, createdAt: at("2026-01-14T06:00:00Z") });
    await makeLead(t.db, { dealershipId: d.id, createdAt: at("2026-01-14T04:59:00Z") }); // the 13th in Toronto
    // Appointments created: three today, none yesterday.
    for (const iso of ["2026-01-15T05:00:00Z", "2026-01-15T05:01:00Z", "2026-01-15T05:29:00Z"]) {
      await makeAppointment(t.db, { dealershipId: d.id, userId: boss.id, date: "2026-01-20", createdAt: at(iso) });
    }
    // Test drives returned: one today, two yesterday; one still out today.
    const drive = (returnedAt: string | null) =>
      t.db.insert(testDrives).values({
        dealershipId: d.id,
        clientType: "new",
        firstName: "T",
        lastName: "D",
        takenOutAt: at("2026-01-14T15:00:00Z"),
        returnedAt: returnedAt ? at(returnedAt) : null,
        status: returnedAt ? "completed" : "out",
      });
    await drive("2026-01-15T05:20:00Z");
    await drive("2026-01-15T04:40:00Z");
    await drive("2026-01-14T18:00:00Z");
    await drive(null);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at("2026-01-15T05:30:00Z"));
    const response = await me.get(`/api/dealerships/${d.id}/metrics`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      newLeadsToday: 1,
      newLeadsTodayChange: -50,
      appointmentsScheduledToday: 3,
      appointmentsScheduledTodayChange: 100,
      testDrivesCompletedToday: 1,
      testDrivesCompletedTodayChange: -50,
    });

    // Just before midnight in Toronto (04:59 UTC on the 15th) it is still the 14th there.
    vi.setSystemTime(at("2026-01-15T04:59:00Z"));
    expect((await me.get(`/api/dealerships/${d.id}/metrics`)).json()).toMatchObject({
      newLeadsToday: 2,
      newLeadsTodayChange: 100,
      appointmentsScheduledToday: 0,
      appointmentsScheduledTodayChange: 0,
      testDrivesCompletedToday: 2,
    });
  });

  it("keeps whole local days across the spring daylight-saving change", async () => {
    const d = await makeDealership(t.db, { timezone: "America/Toronto" });
    const boss = await makeUser(t.db, { memberships: [{ dealershipId: d.id, role: "management" }] });
    // 8 March 2026 has 23 hours in Toronto: it runs from 05:00 UTC to 04:00 UTC on the 9th.
    await makeLead(t.db, { dealershipId: d.id, createdAt: new Date("2026-03-09T04:10:00Z") }); // 00:10 on the 9th
    await makeLead(t.db, { dealershipId: d.id, createdAt: new Date("2026-03-09T03:50:00Z") }); // 23:50 on the 8th
    await makeLead(t.db, { dealershipId: d.id, createdAt: new Date("2026-03-08T04:30:00Z") }); // 23:30 on the 7th
    const me = await signIn(t.app, boss);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-09T04:30:00Z"));
    const metrics = (await me.get(`/api/dealerships/${d.id}/metrics`)).json();
    expect(metrics).toMatchObject({ newLeadsToday: 1, newLeadsTodayChange: 0 });
  });
});
