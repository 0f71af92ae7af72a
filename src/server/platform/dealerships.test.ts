import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeAppointment } from "../db/factories-appointments";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { dealershipInvites } from "../db/schema/dealerships";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { grantPlatformAdminByEmail } from "./admins";

// Dealerships from the platform screens (part 2 §2 Dealerships, §5, §7; decision 090), against a real SMTP receiver.

const PASSWORD = "Showroom-dealers-2026";

let smtp: SmtpReceiver;
let t: TestApp;
let admin: Agent;
let adminUser: MadeUser;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url, appUrl: "https://showroom.example" });
  adminUser = await makeUser(t.db, { firstName: "Pat", lastName: "Platform" });
  await grantPlatformAdminByEmail(t.db, adminUser.email);
  admin = await signIn(t.app, adminUser);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function eventsOf(dealershipId: string): Promise<string[]> {
  const rows = await t.db.select({ type: domainEvents.type }).from(domainEvents).where(eq(domainEvents.dealershipId, dealershipId)).orderBy(domainEvents.id);
  return rows.map((r) => r.type);
}

async function activity(): Promise<Array<{ action: string; actorName: string; summary: string }>> {
  return (await admin.get("/api/platform/activity")).json();
}

describe("creating a dealership", () => {
  it("invites its first manager over SMTP, and the invitee joins it as Management", async () => {
    const created = await admin.post("/api/platform/dealerships", {
      name: "Harbour Cars",
      address: "1 Quay St",
      phone: "4165550111",
      email: "Sales@Harbour.example",
      website: "harbour.example",
      adminEmail: "Hana@Harbour.example",
      adminFirstName: "Hana",
      adminLastName: "Harbour",
    });
    expect(created.statusCode).toBe(201);
    const { dealership, invitation } = created.json();
    expect(dealership).toMatchObject({ name: "Harbour Cars", address: "1 Quay St", phone: "+14165550111", email: "sales@harbour.example", website: "harbour.example", active: true });
    expect(invitation).toMatchObject({ email: "hana@harbour.example", role: "management", status: "pending", firstName: "Hana", lastName: "Harbour" });

    await deliverMail(t.app);
    const mail = await smtp.waitFor("hana@harbour.example", { subject: /invited to join Harbour Cars/ });
    expect(mail.text).toContain("Pat Platform has invited you to join Harbour Cars on Showroom as Management");
    expect(mail.text).toContain("https://showroom.example/auth?action=register&email=hana%40harbour.example");

    const before = smtp.mailsTo("hana@harbour.example").length;
    expect((await anonymous(t.app).post("/api/auth/email-verification/request", { email: "hana@harbour.example" })).statusCode).toBe(200);
    const code = codeIn(await smtp.waitFor("hana@harbour.example", { subject: /verification code/, since: before }));
    const joined = await anonymous(t.app).post("/api/auth/email-verification/verify", {
      email: "hana@harbour.example",
      code,
      firstName: "Hana",
      lastName: "Harbour",
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const hana = await signIn(t.app, { email: "hana@harbour.example", password: PASSWORD });
    expect((await hana.get("/api/dealerships")).json()).toEqual([expect.objectContaining({ id: dealership.id, name: "Harbour Cars", role: "management" })]);
    // The new manager runs the dealership's own admin panel: its e-mail triggers exist.
    expect((await hana.get(`/api/dealerships/${dealership.id}/email-notifications/triggers`)).json()).toHaveLength(6);

    expect(await eventsOf(dealership.id)).toEqual(["team.invitation_sent", "dealership.created"]);
    expect((await activity())[0]).toMatchObject({
      action: "dealership_created",
      actorName: "Pat Platform",
      summary: "Created dealership Harbour Cars and invited hana@harbour.example as Management",
    });
  });

  it("requires a name and the admin's e-mail, first and last name, and keeps nothing of a refused one", async () => {
    const response = await admin.post("/api/platform/dealerships", { name: " ", adminEmail: "not-an-email", website: "no spaces allowed" });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      name: "Dealership name is required",
      adminEmail: "Please enter a valid email",
      adminFirstName: "Admin first name is required",
      adminLastName: "Admin last name is required",
      website: "Please enter a valid website",
    });
    const list = (await admin.get("/api/platform/dealerships?search=no%20spaces")).json();
    expect(list.total).toBe(0);
  });
});

describe("the dealerships list", () => {
  it("pages the dealerships in service by name and searches name, address, e-mail and phone", async () => {
    for (const name of ["Zephyr Autos", "Alpine Autos", "Meadow Autos"]) await makeDealership(t.db, { name, address: `${name} Road`, phone: "905-555-0100" });
    const first = (await admin.get("/api/platform/dealerships?search=autos&pageSize=2")).json();
    expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(first.items.map((d: { name: string }) => d.name)).toEqual(["Alpine Autos", "Meadow Autos"]);
    const second = (await admin.get("/api/platform/dealerships?search=autos&pageSize=2&page=2")).json();
    expect(second.items.map((d: { name: string }) => d.name)).toEqual(["Zephyr Autos"]);
    expect((await admin.get("/api/platform/dealerships?search=MEADOW%20AUTOS%20road")).json().items).toHaveLength(1);
    expect((await admin.get("/api/platform/dealerships?search=905-555")).json().total).toBe(3);
    // A percent sign is a character to find, not a wildcard.
    expect((await admin.get("/api/platform/dealerships?search=%25")).json().total).toBe(0);
  });

  it("refuses a page size over 100 with a 400 naming the field", async () => {
    const response = await admin.get("/api/platform/dealerships?pageSize=500");
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ pageSize: "Must be a number from 1 to 100" });
  });
});

describe("updating a dealership", () => {
  it("saves the details, records what changed, and requires a name", async () => {
    const dealership = await makeDealership(t.db, { name: "Old Name Motors" });
    const saved = await admin.put(`/api/platform/dealerships/${dealership.id}`, { name: "New Name Motors", phone: "", website: "https://new.example" });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ id: dealership.id, name: "New Name Motors", phone: null, website: "https://new.example" });
    expect((await activity())[0]).toMatchObject({ action: "dealership_updated", summary: "Updated dealership New Name Motors (name, website)" });
    expect(await eventsOf(dealership.id)).toContain("dealership.updated");

    const nameless = await admin.put(`/api/platform/dealerships/${dealership.id}`, { name: "" });
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json().fields).toEqual({ name: "Dealership name is required" });
  });

  it("answers 404 for an unknown or deleted dealership", async () => {
    const gone = await makeDealership(t.db);
    await admin.delete(`/api/platform/dealerships/${gone.id}`);
    for (const id of [gone.id, "x".repeat(21)]) {
      expect((await admin.put(`/api/platform/dealerships/${id}`, { name: "Back" })).statusCode).toBe(404);
    }
  });
});

describe("deleting a dealership", () => {
  let dealershipId: string;
  let otherId: string;
  let manager: MadeUser;
  let rep: MadeUser;
  let repAgent: Agent;
  let managerAgent: Agent;
  let claimedIds: string[];
  let newLeadId: string;
  let appointmentId: string;
  let feedPath: string;
  let secondAdmin: Agent;

  beforeAll(async () => {
    dealershipId = (await makeDealership(t.db, { name: "Closing Motors" })).id;
    otherId = (await makeDealership(t.db, { name: "Staying Motors" })).id;
    manager = await makeUser(t.db, {
      memberships: [
        { dealershipId, role: "management" },
        { dealershipId: otherId, role: "management" },
      ],
    });
    rep = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
    const claimed = await makeLead(t.db, { dealershipId, claimedBy: rep.id, firstName: "Claimy" });
    const worked = await makeLead(t.db, { dealershipId, claimedBy: rep.id, status: "contacted", firstName: "Worky" });
    claimedIds = [claimed.id, worked.id];
    newLeadId = (await makeLead(t.db, { dealershipId, firstName: "Fresh" })).id;
    appointmentId = (await makeAppointment(t.db, { dealershipId, userId: rep.id, date: "2030-01-10", time: "10:00", leadId: claimed.id })).id;
    repAgent = await signIn(t.app, rep);
    managerAgent = await signIn(t.app, manager);
    const feed = await repAgent.post(`/api/dealerships/${dealershipId}/calendar-feed`, { scope: "mine" });
    feedPath = new URL(feed.json<{ url: string }>().url).pathname;
    expect((await managerAgent.post(`/api/dealerships/${dealershipId}/invites`, { email: "late@example.com", firstName: "La", lastName: "Te", role: "sales" })).statusCode).toBe(201);
    const other = await makeUser(t.db);
    await grantPlatformAdminByEmail(t.db, other.email);
    secondAdmin = await signIn(t.app, other);

    const deleted = await admin.delete(`/api/platform/dealerships/${dealershipId}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: "Dealership deleted", removedMembers: 2, returnedLeads: 2 });
  });

  it("returns its claimed leads to unclaimed, as removing their rep would", async () => {
    const rows = await t.db.select().from(leads).where(inArray(leads.id, claimedIds));
    expect(rows.map((r) => [r.status, r.claimedBy, r.claimedAt])).toEqual([
      ["new", null, null],
      ["new", null, null],
    ]);
  });

  it("ends its members' sessions at once and leaves them no way in", async () => {
    expect((await repAgent.get("/api/user")).statusCode).toBe(401);
    expect((await managerAgent.get("/api/user")).statusCode).toBe(401);
    const repAgain = await signIn(t.app, rep);
    expect((await repAgain.get("/api/dealerships")).json()).toEqual([]);
    expect((await repAgain.get(`/api/dealerships/${dealershipId}/leads`)).statusCode).toBe(403);
    const managerAgain = await signIn(t.app, manager);
    // Their other dealership is untouched.
    expect((await managerAgain.get("/api/dealerships")).json()).toEqual([expect.objectContaining({ id: otherId, role: "management" })]);
    expect((await managerAgain.post("/api/user/current-dealership", { dealershipId })).statusCode).toBe(403);
  });

  it("leaves no row of that dealership readable by anyone through any GET route", async () => {
    const repAgain = await signIn(t.app, rep);
    const managerAgain = await signIn(t.app, manager);
    const secrets = [dealershipId, ...claimedIds, newLeadId, appointmentId, "Claimy", "Worky", "Fresh", "late@example.com"];
    const fill = (url: string) =>
      url
        .replace(/:id\b|:dealershipId\b/g, url.startsWith("/api/leads/") ? claimedIds[0]! : url.startsWith("/api/appointments/") ? appointmentId : dealershipId)
        .replace(/:leadId\b/g, claimedIds[0]!)
        .replace(/:email\b/g, "late%40example.com")
        .replace(/:days\b/g, "30")
        .replace(/:[A-Za-z]+/g, "x".repeat(21));
    const gets = t.app.routeList.filter((r) => r.method === "GET" && r.url.startsWith("/api/") && r.url !== "/api/platform/activity");
    const leaks: string[] = [];
    for (const who of [repAgain, managerAgain, secondAdmin, anonymous(t.app)]) {
      for (const route of gets) {
        for (const url of [fill(route.url), `${fill(route.url)}?leadId=${claimedIds[0]}&search=closing`]) {
          const response = await who.get(url);
          const found = secrets.filter((s) => response.body.includes(s));
          if (response.statusCode < 400 && found.length) leaks.push(`${route.url} -> ${response.statusCode} ${found.join(",")}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    expect((await anonymous(t.app).get(feedPath)).statusCode).toBe(404);
    expect((await anonymous(t.app).get("/api/invites/email/late%40example.com")).statusCode).toBe(404);
  });

  it("is gone from the platform screens: not listed, not manageable, not deletable twice, out of the totals", async () => {
    const list = (await secondAdmin.get("/api/platform/dealerships?search=motors&pageSize=100")).json();
    expect(list.items.map((d: { id: string }) => d.id)).not.toContain(dealershipId);
    expect((await secondAdmin.get(`/api/platform/dealerships/${dealershipId}/users`)).statusCode).toBe(404);
    expect((await secondAdmin.get(`/api/platform/dealerships/${dealershipId}/invites`)).statusCode).toBe(404);
    expect((await secondAdmin.post(`/api/platform/dealerships/${dealershipId}/invite`, { email: "again@example.com" })).statusCode).toBe(404);
    expect((await secondAdmin.delete(`/api/platform/dealerships/${dealershipId}`)).statusCode).toBe(404);
    const pending = await t.db.select().from(dealershipInvites).where(and(eq(dealershipInvites.dealershipId, dealershipId), eq(dealershipInvites.status, "pending")));
    expect(pending).toEqual([]);
  });

  it("is on record: its event and the audit entry say who was removed and how many leads returned", async () => {
    const [event] = await t.db.select().from(domainEvents).where(and(eq(domainEvents.dealershipId, dealershipId), eq(domainEvents.type, "dealership.deleted")));
    expect(event?.payload).toMatchObject({ dealership: { id: dealershipId, name: "Closing Motors" }, returnedLeads: 2 });
    expect((event?.payload as { removedMembers: Array<{ id: string }> }).removedMembers.map((m) => m.id).sort()).toEqual([manager.id, rep.id].sort());
    const entries = await activity();
    expect(entries.find((e) => e.action === "dealership_deleted")?.summary).toBe("Deleted dealership Closing Motors: 2 members removed, 2 claimed leads returned");
  });
});

describe("a dealership's members and invitations from the platform", () => {
  let dealershipId: string;
  let boss: MadeUser;

  beforeAll(async () => {
    dealershipId = (await makeDealership(t.db, { name: "Team Motors" })).id;
    boss = await makeUser(t.db, { firstName: "Bo", lastName: "Boss", memberships: [{ dealershipId, role: "management" }] });
  });

  it("lists members and keeps the admin panel's rule that the last manager stays", async () => {
    const members = (await admin.get(`/api/platform/dealerships/${dealershipId}/users`)).json();
    expect(members).toEqual([expect.objectContaining({ userId: boss.id, role: "management" })]);
    const demote = await admin.put(`/api/platform/dealerships/${dealershipId}/users/${boss.id}/role`, { role: "sales" });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toMatch(/needs at least one manager/);
    const remove = await admin.delete(`/api/platform/dealerships/${dealershipId}/users/${boss.id}`);
    expect(remove.statusCode).toBe(409);
  });

  it("changes a role and removes a member, who loses access at once with their leads returned", async () => {
    const rep = await makeUser(t.db, { email: "rory@example.com", memberships: [{ dealershipId, role: "sales" }] });
    const lead = await makeLead(t.db, { dealershipId, claimedBy: rep.id });
    const repAgent = await signIn(t.app, rep);

    const changed = await admin.put(`/api/platform/dealerships/${dealershipId}/users/${rep.id}/role`, { role: "frontDesk" });
    expect(changed.json()).toEqual({ userId: rep.id, role: "frontDesk" });
    expect((await repAgent.get(`/api/dealerships/${dealershipId}/users/${rep.id}/role`)).json()).toEqual({ role: "frontDesk" });
    expect((await admin.put(`/api/platform/dealerships/${dealershipId}/users/${rep.id}/role`, { role: "owner" })).statusCode).toBe(400);

    const removed = await admin.delete(`/api/platform/dealerships/${dealershipId}/users/${rep.id}`);
    expect(removed.json()).toEqual({ message: "User removed", returnedLeads: 1 });
    expect((await repAgent.get("/api/user")).statusCode).toBe(401);
    const [row] = await t.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(row).toMatchObject({ status: "new", claimedBy: null });
    expect((await admin.delete(`/api/platform/dealerships/${dealershipId}/users/${rep.id}`)).statusCode).toBe(404);

    const summaries = (await activity()).map((e) => e.summary);
    expect(summaries).toContain("Changed rory@example.com's role at Team Motors from Sales to Front Desk");
    expect(summaries).toContain("Removed rory@example.com from Team Motors; 1 claimed lead returned");
    expect(await eventsOf(dealershipId)).toEqual(expect.arrayContaining(["team.member_role_changed", "team.member_removed"]));
  });

  it("invites with only an e-mail (role Sales), refuses a second live invitation, resends and deletes", async () => {
    const sent = await admin.post(`/api/platform/dealerships/${dealershipId}/invite`, { email: "  Nia@Example.com " });
    expect(sent.statusCode).toBe(201);
    const invite = sent.json();
    expect(invite).toMatchObject({ email: "nia@example.com", role: "sales", firstName: null, lastName: null, status: "pending" });
    await deliverMail(t.app);
    expect((await smtp.waitFor("nia@example.com", { subject: /invited to join Team Motors/ })).text).toContain("Hi,");

    const again = await admin.post(`/api/platform/dealerships/${dealershipId}/invite`, { email: "nia@example.com", role: "management" });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("An invitation is already pending for this email. Use Resend to send it again.");
    expect((await admin.post(`/api/platform/dealerships/${dealershipId}/invite`, { email: "" })).statusCode).toBe(400);

    // The dealership's own manager sees the same invitation in the admin panel.
    const bossAgent = await signIn(t.app, boss);
    expect((await bossAgent.get(`/api/dealerships/${dealershipId}/invites`)).json()).toEqual([invite]);

    const before = smtp.mailsTo("nia@example.com").length;
    const resent = await admin.post(`/api/platform/invites/${invite.id}/resend`);
    expect(resent.statusCode).toBe(200);
    await deliverMail(t.app);
    await smtp.waitFor("nia@example.com", { subject: /invited to join Team Motors/, since: before });
    expect((await admin.get(`/api/platform/dealerships/${dealershipId}/invites`)).json()).toHaveLength(1);

    expect((await admin.delete(`/api/platform/invites/${invite.id}`)).json()).toEqual({ message: "Invitation deleted" });
    expect((await admin.get(`/api/platform/dealerships/${dealershipId}/invites`)).json()).toEqual([]);
    expect((await admin.delete(`/api/platform/invites/${invite.id}`)).statusCode).toBe(404);
    expect((await admin.post(`/api/platform/invites/${invite.id}/resend`)).statusCode).toBe(404);

    const summaries = (await activity()).map((e) => e.summary);
    expect(summaries.slice(0, 3)).toEqual([
      "Deleted the invitation of nia@example.com to Team Motors",
      "Resent the invitation of nia@example.com to Team Motors",
      "Invited nia@example.com to Team Motors as Sales",
    ]);
  });
});
