import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { users } from "../db/schema/users";
import { grantPlatformAdminByEmail } from "./admins";

// Users and platform admins (part 2 §2 Users, §3 Platform user, §5, §8; decision 092).

let t: TestApp;
let me: MadeUser;
let admin: Agent;
let northId: string;
let southId: string;

beforeAll(async () => {
  t = await createTestApp();
  northId = (await makeDealership(t.db, { name: "North Lot" })).id;
  southId = (await makeDealership(t.db, { name: "South Lot" })).id;
  me = await makeUser(t.db, { firstName: "Ada", lastName: "Admin", email: "ada.admin@example.com" });
  await grantPlatformAdminByEmail(t.db, me.email);
  admin = await signIn(t.app, me);
});
afterAll(() => t.close());

type Page = { items: Array<{ id: string; email: string; isAdmin: boolean; dealerships: Array<{ name: string; role: string }> }>; total: number };
const page = async (query: string): Promise<Page> => (await admin.get(`/api/platform/users?${query}`)).json();

describe("the users list", () => {
  it("shows platform admins by default, and every user with show=all, each with their dealership assignments", async () => {
    const both = await makeUser(t.db, {
      firstName: "Bea",
      lastName: "Both",
      email: "bea.both@example.com",
      memberships: [
        { dealershipId: southId, role: "sales" },
        { dealershipId: northId, role: "management" },
      ],
    });
    const admins = await page("");
    expect(admins.items.map((u) => u.email)).toEqual(["ada.admin@example.com"]);
    expect(admins.items[0]).toMatchObject({ isAdmin: true, dealerships: [] });

    const everyone = await page("show=all&search=bea.both");
    expect(everyone.items).toEqual([
      expect.objectContaining({
        id: both.id,
        firstName: "Bea",
        isAdmin: false,
        dealerships: [
          { id: northId, name: "North Lot", role: "management" },
          { id: southId, name: "South Lot", role: "sales" },
        ],
      }),
    ]);
  });

  it("searches name, e-mail and phone and pages thousands of users without loading them all", async () => {
    for (let i = 0; i < 7; i++) await makeUser(t.db, { firstName: "Page", lastName: `Person${i}`, phone: `647-555-010${i}` });
    const first = await page("show=all&search=page%20person&pageSize=3");
    expect(first.total).toBe(7);
    expect(first.items.map((u) => u.email)).toHaveLength(3);
    const last = await page("show=all&search=page%20person&pageSize=3&page=3");
    expect(last.items).toHaveLength(1);
    expect((await page("show=all&search=647-555-0104")).total).toBe(1);
    expect((await admin.get("/api/platform/users?show=everyone")).statusCode).toBe(400);
  });
});

describe("editing a user", () => {
  it("saves name, e-mail and phone, keeps e-mails unique and requires one", async () => {
    const user = await makeUser(t.db, { email: "old.mail@example.com" });
    const saved = await admin.patch(`/api/platform/users/${user.id}`, { firstName: "Cy", lastName: "Changed", email: "New.Mail@Example.com", phone: "4165550123" });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ id: user.id, firstName: "Cy", lastName: "Changed", email: "new.mail@example.com", phone: "+14165550123" });
    // The new e-mail signs in.
    await signIn(t.app, { email: "new.mail@example.com", password: user.password });

    const taken = await admin.patch(`/api/platform/users/${user.id}`, { email: "ada.admin@example.com" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe("An account with this email already exists");
    const missing = await admin.patch(`/api/platform/users/${user.id}`, { firstName: "No", email: "" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ email: "Email is required" });
    expect((await admin.patch(`/api/platform/users/${"x".repeat(21)}`, { email: "ghost@example.com" })).statusCode).toBe(404);

    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.email).toBe("new.mail@example.com");
    const entry = (await admin.get("/api/platform/activity")).json()[0];
    expect(entry).toMatchObject({ action: "user_updated", actorName: "Ada Admin", summary: "Updated user new.mail@example.com (firstName, lastName, email, phone)" });
  });
});

describe("deleting a user", () => {
  it("refuses one's own account with the spec's sentence", async () => {
    const response = await admin.delete(`/api/platform/users/${me.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: "You cannot delete your own account." });
  });

  it("refuses the only manager of a dealership, naming it, and allows one who shares the seat", async () => {
    const own = (await makeDealership(t.db, { name: "Lone Motors" })).id;
    const lone = await makeUser(t.db, {
      firstName: "Lone",
      lastName: "Boss",
      memberships: [
        { dealershipId: own, role: "management" },
        { dealershipId: northId, role: "management" },
      ],
    });
    const refused = await admin.delete(`/api/platform/users/${lone.id}`);
    expect(refused.statusCode).toBe(409);
    // North Lot has Bea as a manager too: only Lone Motors is named.
    expect(refused.json().message).toBe("Lone Boss is the only Management member of Lone Motors. Make another member Management first, or delete the dealership.");
    expect(await t.db.select({ id: users.id }).from(users).where(eq(users.id, lone.id))).toHaveLength(1);

    await makeUser(t.db, { memberships: [{ dealershipId: own, role: "management" }] });
    expect((await admin.delete(`/api/platform/users/${lone.id}`)).statusCode).toBe(200);
  });

  it("removes the account, returns their claimed leads in every dealership and ends their sessions", async () => {
    const rep = await makeUser(t.db, {
      email: "gone.rep@example.com",
      memberships: [
        { dealershipId: northId, role: "sales" },
        { dealershipId: southId, role: "sales" },
      ],
    });
    const repAgent = await signIn(t.app, rep);
    const northLead = await makeLead(t.db, { dealershipId: northId, claimedBy: rep.id });
    const southLead = await makeLead(t.db, { dealershipId: southId, claimedBy: rep.id, status: "qualified" });

    const deleted = await admin.delete(`/api/platform/users/${rep.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: "User deleted", returnedLeads: 2 });
    expect((await repAgent.get("/api/user")).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: "/api/login", payload: { email: rep.email, password: rep.password } })).statusCode).toBe(401);
    for (const id of [northLead.id, southLead.id]) {
      const [row] = await t.db.select().from(leads).where(eq(leads.id, id));
      expect(row).toMatchObject({ status: "new", claimedBy: null, claimedAt: null });
    }
    // Each dealership hears that a member left (notifications attach to these events).
    const events = await t.db.select().from(domainEvents).where(eq(domainEvents.type, "team.member_removed"));
    expect(events.filter((e) => (e.payload as { member: { id: string } }).member.id === rep.id).map((e) => e.dealershipId).sort()).toEqual([northId, southId].sort());
    expect((await admin.get("/api/platform/activity")).json()[0].summary).toBe("Deleted user gone.rep@example.com; 2 claimed leads returned");
    expect((await admin.delete(`/api/platform/users/${rep.id}`)).statusCode).toBe(404);
  });
});

describe("granting and revoking platform admin", () => {
  it("grants by e-mail: the new admin reaches the platform at once", async () => {
    const dana = await makeUser(t.db, { email: "dana@example.com", memberships: [{ dealershipId: southId, role: "frontDesk" }] });
    const danaAgent = await signIn(t.app, dana);
    expect((await danaAgent.get("/api/platform/overview")).statusCode).toBe(403);

    const granted = await admin.post("/api/platform/admins/grant", { email: " DANA@example.com " });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ id: dana.id, isAdmin: true, dealerships: [{ name: "South Lot", role: "frontDesk" }] });
    expect((await danaAgent.get("/api/platform/overview")).statusCode).toBe(200);
    expect((await danaAgent.get("/api/user/platform-admin-status")).json()).toEqual({ isPlatformAdmin: true });
    expect((await admin.get("/api/platform/activity")).json()[0]).toMatchObject({ action: "admin_granted", summary: "Granted platform admin to dana@example.com" });
  });

  it("refuses an empty e-mail, an e-mail without an account and someone already an admin", async () => {
    const empty = await admin.post("/api/platform/admins/grant", { email: "" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({ email: "Email is required" });
    expect((await admin.post("/api/platform/admins/grant", { email: "nobody@example.com" })).statusCode).toBe(404);
    const twice = await admin.post("/api/platform/admins/grant", { email: me.email });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe("This user is already a platform admin");
  });

  it("revokes: the former admin is refused on their very next request", async () => {
    const eve = await makeUser(t.db, { email: "eve@example.com" });
    await grantPlatformAdminByEmail(t.db, eve.email);
    const eveAgent = await signIn(t.app, eve);
    expect((await eveAgent.get("/api/platform/users")).statusCode).toBe(200);

    const revoked = await admin.delete(`/api/platform/admins/${eve.id}`);
    expect(revoked.json()).toEqual({ message: "Admin access revoked" });
    expect((await eveAgent.get("/api/platform/users")).statusCode).toBe(403);
    expect((await eveAgent.get("/api/user/platform-admin-status")).json()).toEqual({ isPlatformAdmin: false });
    // A revoked admin acting on a request already under way is refused inside the transaction too.
    expect((await eveAgent.delete(`/api/platform/admins/${me.id}`)).statusCode).toBe(403);
    expect((await admin.delete(`/api/platform/admins/${eve.id}`)).statusCode).toBe(404);
    expect((await admin.get("/api/platform/activity")).json()[0].summary).toBe("Revoked platform admin from eve@example.com");
  });

  it("refuses revoking oneself, so the last platform admin always stays", async () => {
    const response = await admin.delete(`/api/platform/admins/${me.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: "You cannot delete your own account." });
    expect((await admin.get("/api/platform/overview")).statusCode).toBe(200);
  });
});
