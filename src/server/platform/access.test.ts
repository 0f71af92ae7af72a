import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { dealershipInvites, dealershipUsers, dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { emailsLog } from "../db/schema/notifications";
import { platformAdmins, platformAuditLog } from "../db/schema/platform";
import { sessions, users } from "../db/schema/users";
import { grantPlatformAdminByEmail } from "./admins";

// Every platform route × signed out / sales / front desk / management (of the very dealership the call is about) /
// platform admin (part 2 §6: platform administration is for platform admins only). A refused call changes nothing:
// the platform's tables, the leads and the mail log are compared before and after.

type Actor = "signedOut" | "sales" | "frontDesk" | "management" | "platformAdmin";
const ACTORS: Actor[] = ["signedOut", "sales", "frontDesk", "management", "platformAdmin"];
const REFUSED = { signedOut: 401, sales: 403, frontDesk: 403, management: 403 } as const;

let t: TestApp;
let dealershipId: string;
let people: Record<"sales" | "frontDesk" | "management" | "admin", MadeUser>;
const agents = {} as Record<Actor, Agent>;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db, { name: "Matrix Motors" })).id;
  const member = (role: "sales" | "frontDesk" | "management") => makeUser(t.db, { memberships: [{ dealershipId, role }] });
  people = { sales: await member("sales"), frontDesk: await member("frontDesk"), management: await member("management"), admin: await makeUser(t.db) };
  await grantPlatformAdminByEmail(t.db, people.admin.email);
  agents.signedOut = anonymous(t.app);
  agents.sales = await signIn(t.app, people.sales);
  agents.frontDesk = await signIn(t.app, people.frontDesk);
  agents.management = await signIn(t.app, people.management);
  agents.platformAdmin = await signIn(t.app, people.admin);
});
afterAll(() => t.close());

async function snapshot() {
  await deliverMail(t.app);
  return {
    dealerships: await t.db.select().from(dealerships).orderBy(asc(dealerships.id)),
    members: await t.db.select().from(dealershipUsers).orderBy(asc(dealershipUsers.userId), asc(dealershipUsers.dealershipId)),
    invites: await t.db.select().from(dealershipInvites).orderBy(asc(dealershipInvites.id)),
    users: await t.db.select().from(users).orderBy(asc(users.id)),
    admins: await t.db.select().from(platformAdmins).orderBy(asc(platformAdmins.userId)),
    audit: await t.db.select().from(platformAuditLog).orderBy(asc(platformAuditLog.id)),
    leads: await t.db.select().from(leads).orderBy(asc(leads.id)),
    sessions: (await t.db.select({ sid: sessions.sid }).from(sessions)).length,
    mails: (await t.db.select({ id: emailsLog.id }).from(emailsLog)).length,
  };
}

interface Case {
  route: string;
  /** Fresh data for one call: answers the URL and body. */
  prepare(): Promise<{ url: string; body?: unknown }>;
  /** What a platform admin gets (everyone else is refused). */
  admin: number;
}

const newMember = () => makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
let invited = 0;
async function newInvitation(): Promise<string> {
  const response = await agents.management.post(`/api/dealerships/${dealershipId}/invites`, {
    email: `matrix-${++invited}@example.com`,
    firstName: "In",
    lastName: "Vitee",
    role: "sales",
  });
  return response.json<{ id: string }>().id;
}
async function newDealership(): Promise<string> {
  return (await makeDealership(t.db, { name: `Spare ${Math.random().toString(36).slice(2, 7)}` })).id;
}

const CASES: Case[] = [
  { route: "GET /api/platform/overview", admin: 200, prepare: async () => ({ url: "/api/platform/overview" }) },
  { route: "GET /api/platform/activity", admin: 200, prepare: async () => ({ url: "/api/platform/activity" }) },
  { route: "POST /api/platform/maintenance", admin: 200, prepare: async () => ({ url: "/api/platform/maintenance" }) },
  { route: "POST /api/platform/test-email", admin: 200, prepare: async () => ({ url: "/api/platform/test-email", body: {} }) },
  { route: "GET /api/platform/dealerships", admin: 200, prepare: async () => ({ url: "/api/platform/dealerships?search=matrix" }) },
  {
    route: "POST /api/platform/dealerships",
    admin: 201,
    prepare: async () => ({
      url: "/api/platform/dealerships",
      body: { name: "New Lot", adminEmail: `boss-${++invited}@example.com`, adminFirstName: "Bo", adminLastName: "Ss" },
    }),
  },
  { route: "PUT /api/platform/dealerships/:id", admin: 200, prepare: async () => ({ url: `/api/platform/dealerships/${await newDealership()}`, body: { name: "Renamed" } }) },
  { route: "DELETE /api/platform/dealerships/:id", admin: 200, prepare: async () => ({ url: `/api/platform/dealerships/${await newDealership()}` }) },
  { route: "GET /api/platform/dealerships/:id/users", admin: 200, prepare: async () => ({ url: `/api/platform/dealerships/${dealershipId}/users` }) },
  {
    route: "PUT /api/platform/dealerships/:id/users/:userId/role",
    admin: 200,
    prepare: async () => ({ url: `/api/platform/dealerships/${dealershipId}/users/${(await newMember()).id}/role`, body: { role: "frontDesk" } }),
  },
  {
    route: "DELETE /api/platform/dealerships/:id/users/:userId",
    admin: 200,
    prepare: async () => {
      const member = await newMember();
      await makeLead(t.db, { dealershipId, claimedBy: member.id });
      return { url: `/api/platform/dealerships/${dealershipId}/users/${member.id}` };
    },
  },
  { route: "GET /api/platform/dealerships/:id/invites", admin: 200, prepare: async () => ({ url: `/api/platform/dealerships/${dealershipId}/invites` }) },
  {
    route: "POST /api/platform/dealerships/:id/invite",
    admin: 201,
    prepare: async () => ({ url: `/api/platform/dealerships/${dealershipId}/invite`, body: { email: `direct-${++invited}@example.com` } }),
  },
  { route: "POST /api/platform/invites/:id/resend", admin: 200, prepare: async () => ({ url: `/api/platform/invites/${await newInvitation()}/resend` }) },
  { route: "DELETE /api/platform/invites/:id", admin: 200, prepare: async () => ({ url: `/api/platform/invites/${await newInvitation()}` }) },
  { route: "GET /api/platform/users", admin: 200, prepare: async () => ({ url: "/api/platform/users?show=all" }) },
  {
    route: "PATCH /api/platform/users/:id",
    admin: 200,
    prepare: async () => {
      const member = await newMember();
      return { url: `/api/platform/users/${member.id}`, body: { firstName: "New", lastName: "Name", email: `renamed-${++invited}@example.com` } };
    },
  },
  { route: "DELETE /api/platform/users/:id", admin: 200, prepare: async () => ({ url: `/api/platform/users/${(await newMember()).id}` }) },
  { route: "POST /api/platform/admins/grant", admin: 200, prepare: async () => ({ url: "/api/platform/admins/grant", body: { email: (await newMember()).email } }) },
  {
    route: "DELETE /api/platform/admins/:userId",
    admin: 200,
    prepare: async () => {
      const other = await newMember();
      await grantPlatformAdminByEmail(t.db, other.email);
      return { url: `/api/platform/admins/${other.id}` };
    },
  },
];

describe("the platform routes' role matrix", () => {
  it("has a case for every /api/platform route the app registers", () => {
    const registered = t.app.routeList.filter((r) => r.url.startsWith("/api/platform/")).map((r) => `${r.method} ${r.url}`);
    expect(registered.length).toBeGreaterThan(15);
    expect(registered.filter((route) => !CASES.some((c) => c.route === route))).toEqual([]);
  });

  for (const c of CASES) {
    const method = c.route.split(" ")[0] as "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    for (const actor of ACTORS) {
      const expected = actor === "platformAdmin" ? c.admin : REFUSED[actor];
      const verb = expected < 400 ? "serves" : "refuses";
      it(`${verb} ${c.route} for ${actor} (${expected})`, async () => {
        const { url, body } = await c.prepare();
        const before = expected >= 400 ? await snapshot() : null;
        const response = await agents[actor].request({ method, url, ...(body === undefined ? {} : { payload: body as object }) });
        expect(response.statusCode, response.body).toBe(expected);
        if (before) {
          expect(response.json()).toEqual({ message: expected === 401 ? "Unauthorized" : "Platform admin access required" });
          expect(await snapshot()).toEqual(before);
        }
      });
    }
  }
});

describe("GET /api/user/platform-admin-status", () => {
  it("answers false signed out and to every dealership role, true to a platform admin", async () => {
    const answers: Record<string, unknown> = {};
    for (const actor of ACTORS) answers[actor] = (await agents[actor].get("/api/user/platform-admin-status")).json();
    expect(answers).toEqual({
      signedOut: { isPlatformAdmin: false },
      sales: { isPlatformAdmin: false },
      frontDesk: { isPlatformAdmin: false },
      management: { isPlatformAdmin: false },
      platformAdmin: { isPlatformAdmin: true },
    });
  });
});
