import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { dealershipInvites, dealershipUsers } from "../db/schema/dealerships";
import { emailNotificationSubscriptions, emailNotificationTriggers } from "../db/schema/notifications";
import { platformAdminDealershipAccess } from "../db/schema/platform";
import { grantPlatformAdminByEmail } from "../platform/admins";

// Every admin-panel route (spec part 2 §7 Admin panel) × every kind of caller (part 2 §6: management or a
// platform admin with access; decision 035). A refused call changes nothing.

let t: TestApp;
let dealershipId: string;
const callers: Record<string, Agent> = {};

type Caller = "signed out" | "sales" | "frontDesk" | "management" | "platform admin with access" | "platform admin without access" | "another dealership's manager";
const ALLOWED: Caller[] = ["management", "platform admin with access"];

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db, { name: "Guarded Motors" })).id;
  const otherId = (await makeDealership(t.db, { name: "Elsewhere Motors" })).id;
  for (const role of ["sales", "frontDesk", "management"] as const) {
    callers[role] = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role }] }));
  }
  // A second manager, so the last-management-seat rule never decides these answers.
  await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] });
  const withAccess = await makeUser(t.db);
  await grantPlatformAdminByEmail(t.db, withAccess.email);
  await t.db.insert(platformAdminDealershipAccess).values({ userId: withAccess.id, dealershipId });
  callers["platform admin with access"] = await signIn(t.app, withAccess);
  const withoutAccess = await makeUser(t.db);
  await grantPlatformAdminByEmail(t.db, withoutAccess.email);
  callers["platform admin without access"] = await signIn(t.app, withoutAccess);
  callers["another dealership's manager"] = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: otherId, role: "management" }] }));
  callers["signed out"] = anonymous(t.app);
});
afterAll(() => t.close());

/** Fresh targets for one call: a pending invitation, a sales member, the first trigger. */
async function targets() {
  const [invite] = await t.db
    .insert(dealershipInvites)
    .values({ email: `target-${Math.random().toString(36).slice(2)}@example.com`, dealershipId, role: "sales", expiresAt: new Date(Date.now() + 86_400_000) })
    .returning();
  const member = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
  const [trigger] = await t.db.select().from(emailNotificationTriggers).where(eq(emailNotificationTriggers.dealershipId, dealershipId));
  return { inviteId: invite!.id, userId: member.id, triggerId: trigger!.id };
}

type Targets = Awaited<ReturnType<typeof targets>>;
const base = () => `/api/dealerships/${dealershipId}`;
const ROUTES: Array<{ name: string; call: (a: Agent, x: Targets) => ReturnType<Agent["get"]> }> = [
  { name: "GET invites", call: (a) => a.get(`${base()}/invites`) },
  { name: "POST invites", call: (a) => a.post(`${base()}/invites`, { email: `new-${Math.random().toString(36).slice(2)}@example.com`, firstName: "N", lastName: "Ew", role: "sales" }) },
  { name: "POST invites/{id}/resend", call: (a, x) => a.post(`${base()}/invites/${x.inviteId}/resend`) },
  { name: "DELETE invites/{id}", call: (a, x) => a.delete(`${base()}/invites/${x.inviteId}`) },
  { name: "PATCH users/{id}/role", call: (a, x) => a.patch(`${base()}/users/${x.userId}/role`, { role: "frontDesk" }) },
  { name: "DELETE users/{id}", call: (a, x) => a.delete(`${base()}/users/${x.userId}`) },
  { name: "GET email-notifications/triggers", call: (a) => a.get(`${base()}/email-notifications/triggers`) },
  { name: "PATCH email-notifications/triggers/{id}", call: (a, x) => a.patch(`${base()}/email-notifications/triggers/${x.triggerId}`, { isActive: false }) },
  { name: "GET email-notifications/subscriptions", call: (a) => a.get(`${base()}/email-notifications/subscriptions`) },
  { name: "POST email-notifications/subscriptions", call: (a, x) => a.post(`${base()}/email-notifications/subscriptions`, { userId: x.userId, triggerId: x.triggerId, isSubscribed: true }) },
];

async function snapshot() {
  return JSON.stringify([
    await t.db.select().from(dealershipInvites).orderBy(dealershipInvites.id),
    await t.db.select().from(dealershipUsers).orderBy(dealershipUsers.userId),
    await t.db.select().from(emailNotificationTriggers).orderBy(emailNotificationTriggers.id),
    await t.db.select().from(emailNotificationSubscriptions).orderBy(emailNotificationSubscriptions.id),
  ]);
}

const CALLERS: Caller[] = ["signed out", "sales", "frontDesk", "management", "platform admin with access", "platform admin without access", "another dealership's manager"];

describe("admin panel routes", () => {
  for (const route of ROUTES) {
    for (const caller of CALLERS) {
      const allowed = ALLOWED.includes(caller);
      const expected = caller === "signed out" ? 401 : 403;
      it(`${route.name}: ${allowed ? "allowed" : `refused (${expected})`} for ${caller}`, async () => {
        const x = await targets();
        const before = await snapshot();
        const response = await route.call(callers[caller]!, x);
        if (allowed) {
          expect(response.statusCode, response.body).toBeLessThan(300);
        } else {
          expect(response.statusCode, response.body).toBe(expected);
          expect(await snapshot()).toBe(before);
        }
      });
    }
  }

  it("GET users: any member and a platform admin with access; nobody else", async () => {
    const answers: Record<string, number> = {};
    for (const caller of CALLERS) answers[caller] = (await callers[caller]!.get(`${base()}/users`)).statusCode;
    expect(answers).toEqual({
      "signed out": 401,
      sales: 200,
      frontDesk: 200,
      management: 200,
      "platform admin with access": 200,
      "platform admin without access": 403,
      "another dealership's manager": 403,
    });
  });
});
