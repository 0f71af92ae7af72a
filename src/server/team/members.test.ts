import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { dealershipUsers } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";

// Dealership members (spec part 2 §2 Users, §4, §5): the list, role changes and removal.

let t: TestApp;
let dealershipId: string;
let otherId: string;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db, { name: "Members Motors" })).id;
  otherId = (await makeDealership(t.db, { name: "Other Motors" })).id;
});
afterAll(() => t.close());

async function person(role: "sales" | "frontDesk" | "management", dealership = dealershipId): Promise<MadeUser & { agent: Agent }> {
  const user = await makeUser(t.db, { memberships: [{ dealershipId: dealership, role }] });
  return { ...user, agent: await signIn(t.app, user) };
}

async function membership(userId: string, dealership = dealershipId) {
  const [row] = await t.db
    .select()
    .from(dealershipUsers)
    .where(eq(dealershipUsers.userId, userId))
    .then((rows) => rows.filter((r) => r.dealershipId === dealership));
  return row;
}

describe("the member list", () => {
  it("shows each active member with role, dates and user details to any member", async () => {
    const boss = await person("management");
    const rep = await person("sales");
    const response = await rep.agent.get(`/api/dealerships/${dealershipId}/users`);
    expect(response.statusCode).toBe(200);
    const list = response.json();
    expect(list).toContainEqual({
      userId: boss.id,
      role: "management",
      active: true,
      addedAt: expect.any(String),
      user: { id: boss.id, firstName: boss.firstName, lastName: boss.lastName, email: boss.email },
    });
    expect(list[0].role).toBe("management");
    expect(JSON.stringify(list)).not.toContain("password");
  });
});

describe("changing a role", () => {
  it("takes effect on the member's very next request", async () => {
    const boss = await person("management");
    const rep = await person("sales");
    expect((await rep.agent.get(`/api/dealerships/${dealershipId}/invites`)).statusCode).toBe(403);
    const response = await boss.agent.patch(`/api/dealerships/${dealershipId}/users/${rep.id}/role`, { role: "management" });
    expect(response.statusCode).toBe(200);
    expect((await rep.agent.get(`/api/dealerships/${dealershipId}/invites`)).statusCode).toBe(200);
    expect((await rep.agent.get(`/api/dealerships/${dealershipId}/users/${rep.id}/role`)).json()).toEqual({ role: "management" });

    await boss.agent.patch(`/api/dealerships/${dealershipId}/users/${rep.id}/role`, { role: "frontDesk" });
    expect((await rep.agent.get(`/api/dealerships/${dealershipId}/invites`)).statusCode).toBe(403);
  });

  it("is management's alone", async () => {
    const desk = await person("frontDesk");
    const rep = await person("sales");
    const response = await desk.agent.patch(`/api/dealerships/${dealershipId}/users/${rep.id}/role`, { role: "management" });
    expect(response.statusCode).toBe(403);
    expect((await membership(rep.id))?.role).toBe("sales");
    const self = await rep.agent.patch(`/api/dealerships/${dealershipId}/users/${rep.id}/role`, { role: "management" });
    expect(self.statusCode).toBe(403);
    expect((await membership(rep.id))?.role).toBe("sales");
  });

  it("refuses an unknown role and a non-member", async () => {
    const boss = await person("management");
    const rep = await person("sales");
    expect((await boss.agent.patch(`/api/dealerships/${dealershipId}/users/${rep.id}/role`, { role: "owner" })).statusCode).toBe(400);
    expect((await boss.agent.patch(`/api/dealerships/${dealershipId}/users/${rep.id}/role`, {})).statusCode).toBe(400);
    const outsider = await person("sales", otherId);
    expect((await boss.agent.patch(`/api/dealerships/${dealershipId}/users/${outsider.id}/role`, { role: "sales" })).statusCode).toBe(404);
    expect((await membership(outsider.id, otherId))?.role).toBe("sales");
  });
});

describe("the last management seat", () => {
  it("cannot be given up by demoting or removing the only manager", async () => {
    const shopId = (await makeDealership(t.db, { name: "Solo Motors" })).id;
    const solo = await person("management", shopId);
    const demote = await solo.agent.patch(`/api/dealerships/${shopId}/users/${solo.id}/role`, { role: "sales" });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toMatch(/at least one manager/);
    expect((await membership(solo.id, shopId))?.role).toBe("management");
    const remove = await solo.agent.delete(`/api/dealerships/${shopId}/users/${solo.id}`);
    expect(remove.statusCode).toBe(409);
    expect((await membership(solo.id, shopId))?.active).toBe(true);
  });

  it("can be handed over: once another manager exists, a manager may step down", async () => {
    const shopId = (await makeDealership(t.db, { name: "Handover Motors" })).id;
    const first = await person("management", shopId);
    const second = await person("sales", shopId);
    await first.agent.patch(`/api/dealerships/${shopId}/users/${second.id}/role`, { role: "management" });
    const stepDown = await first.agent.patch(`/api/dealerships/${shopId}/users/${first.id}/role`, { role: "sales" });
    expect(stepDown.statusCode).toBe(200);
    // Two managers demoting each other at once leave one manager.
    const third = await person("management", shopId);
    const [a, b] = await Promise.all([
      second.agent.patch(`/api/dealerships/${shopId}/users/${third.id}/role`, { role: "sales" }),
      third.agent.patch(`/api/dealerships/${shopId}/users/${second.id}/role`, { role: "sales" }),
    ]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes[0]).toBe(200);
    expect([403, 409]).toContain(codes[1]);
    const managers = (await t.db.select().from(dealershipUsers).where(eq(dealershipUsers.dealershipId, shopId))).filter(
      (m) => m.role === "management" && m.active,
    );
    expect(managers.length).toBeGreaterThanOrEqual(1);
  });
});

describe("removing a member", () => {
  it("returns their claimed leads to unclaimed and ends their access at once", async () => {
    const boss = await person("management");
    const rep = await person("sales");
    const now = new Date();
    const [claimed, contacted, otherRep] = await t.db
      .insert(leads)
      .values([
        { firstName: "C", lastName: "One", dealershipId, status: "claimed", claimedBy: rep.id, claimedAt: now },
        { firstName: "C", lastName: "Two", dealershipId, status: "contacted", claimedBy: rep.id, claimedAt: now },
        { firstName: "C", lastName: "Three", dealershipId, status: "claimed", claimedBy: boss.id, claimedAt: now },
      ])
      .returning();
    // The rep also works at another dealership, where nothing changes.
    await t.db.insert(dealershipUsers).values({ userId: rep.id, dealershipId: otherId, role: "sales" });
    const [elsewhere] = await t.db
      .insert(leads)
      .values({ firstName: "E", lastName: "Lsewhere", dealershipId: otherId, status: "claimed", claimedBy: rep.id, claimedAt: now })
      .returning();

    expect((await rep.agent.get(`/api/dealerships/${dealershipId}/users`)).statusCode).toBe(200);
    const response = await boss.agent.delete(`/api/dealerships/${dealershipId}/users/${rep.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ returnedLeads: 2 });

    const after = new Map((await t.db.select().from(leads)).map((l) => [l.id, l]));
    for (const lead of [claimed!, contacted!]) {
      expect(after.get(lead.id)).toMatchObject({ status: "new", claimedBy: null, claimedAt: null });
    }
    expect(after.get(otherRep!.id)).toMatchObject({ status: "claimed", claimedBy: boss.id });
    expect(after.get(elsewhere!.id)).toMatchObject({ status: "claimed", claimedBy: rep.id });

    // Every session they had ends with the membership (decision 052); signed in again, they reach only the other one.
    expect((await rep.agent.get(`/api/dealerships/${dealershipId}/users`)).statusCode).toBe(401);
    expect((await rep.agent.get("/api/user")).statusCode).toBe(401);
    const again = await signIn(t.app, rep);
    expect((await again.get(`/api/dealerships/${dealershipId}/users`)).statusCode).toBe(403);
    expect((await again.get(`/api/dealerships/${otherId}/users`)).statusCode).toBe(200);
    const list = (await again.get("/api/dealerships")).json();
    expect(list.map((d: { id: string }) => d.id)).toEqual([otherId]);
    // And they are gone from the member list.
    const members = (await boss.agent.get(`/api/dealerships/${dealershipId}/users`)).json();
    expect(members.map((m: { userId: string }) => m.userId)).not.toContain(rep.id);
  });

  it("refuses removing one's own account", async () => {
    const boss = await person("management");
    await person("management");
    const response = await boss.agent.delete(`/api/dealerships/${dealershipId}/users/${boss.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("You cannot delete your own account.");
    expect((await membership(boss.id))?.active).toBe(true);
  });

  it("is management's alone, and a member of another dealership is not found", async () => {
    const desk = await person("frontDesk");
    const rep = await person("sales");
    expect((await desk.agent.delete(`/api/dealerships/${dealershipId}/users/${rep.id}`)).statusCode).toBe(403);
    expect((await membership(rep.id))?.active).toBe(true);
    const boss = await person("management");
    const outsider = await person("sales", otherId);
    expect((await boss.agent.delete(`/api/dealerships/${dealershipId}/users/${outsider.id}`)).statusCode).toBe(404);
    expect((await membership(outsider.id, otherId))?.active).toBe(true);
  });
});
