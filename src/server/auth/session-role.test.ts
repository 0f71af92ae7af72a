import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { dealershipUsers } from "../db/schema/dealerships";
import { platformAdminDealershipAccess, platformAdmins } from "../db/schema/platform";
import { sessions, users } from "../db/schema/users";
import { endSessionsOfUser, resumeSession, startSession } from "./sessions";

// Every signed-in request resolves its session, user and role in the path's dealership in one query (issue 13).
// These check that one query's answers for the cases it must get right.

const policy = { idleMs: 60 * 60_000, absoluteMs: 24 * 60 * 60_000 };
let t: TestApp;
let dealershipId: string;
let otherId: string;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db, { name: "Role Motors" })).id;
  otherId = (await makeDealership(t.db, { name: "Elsewhere Motors" })).id;
});
afterAll(() => t.close());

describe("the session query", () => {
  it("answers a member's role in the path's dealership, and none in another", async () => {
    const rep = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
    const { token } = await startSession(t.db, rep.id, policy);
    expect(await resumeSession(t.db, token, policy, dealershipId)).toMatchObject({
      userId: rep.id,
      isPlatformAdmin: false,
      dealership: { id: dealershipId, role: "sales" },
      user: { id: rep.id, email: rep.email },
    });
    expect((await resumeSession(t.db, token, policy, otherId))?.dealership).toEqual({ id: otherId, role: null });
    expect((await resumeSession(t.db, token, policy))?.dealership).toBeUndefined();
  });

  it("answers the user's public fields and none of their secrets (password hash, two-factor secret and codes)", async () => {
    const rep = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
    await t.db
      .update(users)
      .set({ twoFactorEnabled: true, twoFactorSecret: "sealed-secret", twoFactorBackupCodes: ["hashed-code"], twoFactorLastStep: 7 })
      .where(eq(users.id, rep.id));
    const { token } = await startSession(t.db, rep.id, policy);
    for (const dealership of [dealershipId, undefined]) {
      const user = (await resumeSession(t.db, token, policy, dealership))?.user;
      expect(user).toMatchObject({ id: rep.id, email: rep.email, firstName: rep.firstName, twoFactorEnabled: true });
      for (const secret of ["password", "twoFactorSecret", "twoFactorBackupCodes", "twoFactorLastStep"]) expect(user).not.toHaveProperty(secret);
    }
  });

  it("answers management for a platform admin granted access to the dealership, and none without the grant", async () => {
    const admin = await makeUser(t.db);
    await t.db.insert(platformAdmins).values({ userId: admin.id });
    await t.db.insert(platformAdminDealershipAccess).values({ userId: admin.id, dealershipId });
    const { token } = await startSession(t.db, admin.id, policy);
    expect(await resumeSession(t.db, token, policy, dealershipId)).toMatchObject({
      isPlatformAdmin: true,
      dealership: { id: dealershipId, role: "management" },
    });
    expect((await resumeSession(t.db, token, policy, otherId))?.dealership?.role).toBeNull();
    // Through the API: the grant opens the dealership's lists; the other dealership stays closed.
    const agent = await signIn(t.app, admin);
    expect((await agent.get(`/api/dealerships/${dealershipId}/leads`)).statusCode).toBe(200);
    expect((await agent.get(`/api/dealerships/${otherId}/leads`)).statusCode).toBe(403);
    // A revoked platform admin keeps no access through the old grant.
    await t.db.update(platformAdmins).set({ active: false }).where(eq(platformAdmins.userId, admin.id));
    expect(await resumeSession(t.db, token, policy, dealershipId)).toMatchObject({ isPlatformAdmin: false, dealership: { role: null } });
  });

  it("answers no role for a member whose membership was ended, while the session itself lives on", async () => {
    const rep = await makeUser(t.db, { memberships: [{ dealershipId, role: "frontDesk" }] });
    const { token } = await startSession(t.db, rep.id, policy);
    await t.db
      .update(dealershipUsers)
      .set({ active: false })
      .where(and(eq(dealershipUsers.userId, rep.id), eq(dealershipUsers.dealershipId, dealershipId)));
    expect(await resumeSession(t.db, token, policy, dealershipId)).toMatchObject({ userId: rep.id, dealership: { role: null } });
  });

  it("answers nothing for an expired session, idle or absolute, and removes the absolutely expired one", async () => {
    const rep = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
    const idle = await startSession(t.db, rep.id, policy);
    await t.db.update(sessions).set({ expire: new Date(Date.now() - 1000) }).where(eq(sessions.userId, rep.id));
    expect(await resumeSession(t.db, idle.token, policy, dealershipId)).toBeNull();

    const old = await startSession(t.db, rep.id, policy);
    await t.db.execute(
      sql`update sessions set sess = jsonb_set(sess, '{absoluteExpiry}', to_jsonb(${Date.now() - 1000}::bigint))
          where user_id = ${rep.id} and expire > now()`,
    );
    expect(await resumeSession(t.db, old.token, policy, dealershipId)).toBeNull();
    expect(await t.db.select().from(sessions).where(and(eq(sessions.userId, rep.id), sql`expire > now()`))).toEqual([]);
  });

  it("ends every session of a user in one statement, or all but the current one", async () => {
    const rep = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
    const phone = await startSession(t.db, rep.id, policy);
    const laptop = await startSession(t.db, rep.id, policy);
    const current = await resumeSession(t.db, laptop.token, policy);
    expect(await endSessionsOfUser(t.db, rep.id, current!.sid)).toBe(1);
    expect(await resumeSession(t.db, phone.token, policy)).toBeNull();
    expect(await resumeSession(t.db, laptop.token, policy)).not.toBeNull();
    expect(await endSessionsOfUser(t.db, rep.id)).toBe(1);
    expect(await resumeSession(t.db, laptop.token, policy)).toBeNull();
  });
});
