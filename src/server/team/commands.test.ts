import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deadlocksCounted } from "../../../tests/helpers/deadlocks";
import { publishedTypes } from "../../../tests/helpers/published";
import { ON_DATABASE_SERVER, raceRounds } from "../../../tests/helpers/races";
import { createTestDatabase, type TestApp } from "../../../tests/helpers/test-app";
import type { OutgoingMail } from "../mail/mailer";
import { viewerOf, type Viewer } from "../auth/tenancy";
import type { Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { dealershipInvites, dealershipUsers } from "../db/schema/dealerships";
import { domainEvents } from "../db/schema/events";
import { users } from "../db/schema/users";
import { changeRepOnFloor } from "../leads/settings-commands";
import { changeMemberRole, deleteInvitation, inviteMember, removeMember, resendInvitation } from "./commands";
import type { InvitationMailSetup } from "./invitation-mail";

// The team's commands without HTTP (issue 25; decision 242): each change publishes exactly one event in its
// transaction, a refused change or a change of nothing publishes none (and queues no mail), and on PostgreSQL two
// managers acting at once take turns on the dealership's row: no deadlock, and the last manager stays.

let database: Database & { drop(): Promise<void> };
let dealershipId: string;
let manager: Viewer;
let rep: Viewer;
const mails: OutgoingMail[] = [];
const setup: InvitationMailSetup = { mailer: { queue: async (mail) => void mails.push(mail) }, config: { appUrl: "https://showroom.test" } };
const eventTypes = () => publishedTypes(database.db, "team.");
const emailOf = async (userId: string) => (await database.db.select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]?.email;

beforeAll(async () => {
  database = await createTestDatabase();
  dealershipId = (await makeDealership(database.db, { name: "Team Commands Motors" })).id;
  const boss = await makeUser(database.db, { firstName: "Mia", lastName: "Boss", memberships: [{ dealershipId, role: "management" }] });
  const sales = await makeUser(database.db, { memberships: [{ dealershipId, role: "sales" }] });
  manager = viewerOf(boss.id, dealershipId, "management");
  rep = viewerOf(sales.id, dealershipId, "sales");
});
afterAll(() => database.drop());
beforeEach(async () => {
  await database.db.delete(domainEvents);
  mails.length = 0;
});

describe("the invitations' commands", () => {
  it("invite, resend and delete publish one event each, and the sends queue their mail", async () => {
    const invite = await inviteMember(database.db, manager, { email: "new.hire@example.com", firstName: "New", lastName: "Hire", role: "sales" }, setup);
    await resendInvitation(database.db, manager, invite.id, setup);
    expect(mails.map((mail) => mail.to)).toEqual(["new.hire@example.com", "new.hire@example.com"]);
    await deleteInvitation(database.db, manager, invite.id);
    expect(await eventTypes()).toEqual(["team.invitation_sent", "team.invitation_sent", "team.invitation_deleted"]);
    const [deleted] = await database.db.select().from(domainEvents).where(eq(domainEvents.type, "team.invitation_deleted"));
    expect(deleted).toMatchObject({ dealershipId, actorId: manager.userId, payload: { invitation: { id: invite.id, email: "new.hire@example.com", role: "sales" } } });
    expect(await database.db.select().from(dealershipInvites).where(eq(dealershipInvites.id, invite.id))).toEqual([]);
  });

  it("a refused invitation, resend or deletion publishes nothing and queues no mail", async () => {
    const invite = await inviteMember(database.db, manager, { email: "twice@example.com", firstName: "Two", lastName: "Times", role: "frontDesk" }, setup);
    await database.db.delete(domainEvents);
    mails.length = 0;
    await expect(inviteMember(database.db, manager, { email: "twice@example.com", firstName: "Two", lastName: "Times", role: "sales" }, setup)).rejects.toMatchObject({ statusCode: 409 });
    await expect(inviteMember(database.db, manager, { email: (await emailOf(rep.userId))!, firstName: "Al", lastName: "Ready", role: "sales" }, setup)).rejects.toMatchObject({ statusCode: 409 });
    await database.db.update(dealershipInvites).set({ status: "accepted" }).where(eq(dealershipInvites.id, invite.id));
    await expect(resendInvitation(database.db, manager, invite.id, setup)).rejects.toMatchObject({ statusCode: 409 });
    await expect(resendInvitation(database.db, manager, "no-such-invite", setup)).rejects.toMatchObject({ statusCode: 404 });
    await expect(deleteInvitation(database.db, manager, "no-such-invite")).rejects.toMatchObject({ statusCode: 404 });
    const theirs = (await makeDealership(database.db, { name: "Elsewhere" })).id;
    await expect(deleteInvitation(database.db, viewerOf(manager.userId, theirs, "management"), invite.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await eventTypes()).toEqual([]);
    expect(mails).toEqual([]);
  });
});

describe("the members' commands", () => {
  it("a role change publishes one event, the same role none, and a refused one none", async () => {
    const member = await makeUser(database.db, { memberships: [{ dealershipId, role: "sales" }] });
    expect(await changeMemberRole(database.db, manager, member.id, "frontDesk")).toBe("sales");
    expect(await changeMemberRole(database.db, manager, member.id, "frontDesk")).toBe("frontDesk");
    await expect(changeMemberRole(database.db, manager, "nobody", "sales")).rejects.toMatchObject({ statusCode: 404 });
    await expect(changeMemberRole(database.db, manager, manager.userId, "sales")).rejects.toMatchObject({ statusCode: 409 });
    expect(await eventTypes()).toEqual(["team.member_role_changed"]);
    const [changed] = await database.db.select().from(domainEvents);
    expect(changed).toMatchObject({ actorId: manager.userId, payload: { member: { id: member.id }, previousRole: "sales", role: "frontDesk" } });
  });

  it("a removal publishes one event with the leads returned; oneself, the last manager and a non-member none", async () => {
    const member = await makeUser(database.db, { memberships: [{ dealershipId, role: "sales" }] });
    expect(await removeMember(database.db, manager, member.id)).toBe(0);
    await expect(removeMember(database.db, manager, member.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(removeMember(database.db, manager, manager.userId)).rejects.toMatchObject({ statusCode: 409 });
    const other = await makeUser(database.db, { memberships: [{ dealershipId, role: "sales" }] });
    await expect(removeMember(database.db, viewerOf(other.id, dealershipId, "management"), manager.userId)).rejects.toMatchObject({ statusCode: 409 });
    expect(await eventTypes()).toEqual(["team.member_removed"]);
    const [membership] = await database.db.select().from(dealershipUsers).where(and(eq(dealershipUsers.userId, member.id), eq(dealershipUsers.dealershipId, dealershipId)));
    expect(membership?.active).toBe(false);
  });
});

describe("two managers acting at once (PostgreSQL: really at once)", () => {
  it("demoting each other while inviting, removing and reps writing: one demotion wins, one manager stays, no deadlock", async () => {
    const deadlocks = ON_DATABASE_SERVER ? await deadlocksCounted({ database } as unknown as TestApp) : 0;
    for (let round = 0; round < raceRounds(15); round++) {
      const shop = (await makeDealership(database.db, { name: `Race Motors ${round}` })).id;
      const [a, b] = await Promise.all(["management", "management"].map(async () => viewerOf((await makeUser(database.db, { memberships: [{ dealershipId: shop, role: "management" }] })).id, shop, "management")));
      const leaving = await makeUser(database.db, { memberships: [{ dealershipId: shop, role: "sales" }] });
      const seller = viewerOf((await makeUser(database.db, { memberships: [{ dealershipId: shop, role: "sales" }] })).id, shop, "sales");
      const invitee = { email: `race-${round}@example.com`, firstName: "Race", lastName: "Invitee", role: "sales" as const };
      const [demoteB, demoteA, inviteA, inviteB, removal, ...floor] = await Promise.allSettled([
        changeMemberRole(database.db, a!, b!.userId, "sales"),
        changeMemberRole(database.db, b!, a!.userId, "sales"),
        inviteMember(database.db, a!, invitee, setup),
        inviteMember(database.db, b!, invitee, setup),
        removeMember(database.db, a!, leaving.id),
        changeRepOnFloor(database.db, seller, true),
        changeRepOnFloor(database.db, seller, false),
      ]);
      const status = (r: PromiseSettledResult<unknown>) => (r.status === "fulfilled" ? 200 : (r.reason as { statusCode?: number }).statusCode ?? r.reason);
      expect([status(demoteA!), status(demoteB!)].sort(), `round ${round}`).toEqual([200, 409]);
      expect([status(inviteA!), status(inviteB!)].sort(), `round ${round}`).toEqual([200, 409]);
      expect([removal, ...floor].map(status), `round ${round}`).toEqual([200, 200, 200]);
      const managers = await database.db
        .select()
        .from(dealershipUsers)
        .where(and(eq(dealershipUsers.dealershipId, shop), eq(dealershipUsers.role, "management"), eq(dealershipUsers.active, true)));
      expect(managers, `round ${round}`).toHaveLength(1);
    }
    if (ON_DATABASE_SERVER) expect(await deadlocksCounted({ database } as unknown as TestApp), "deadlocks").toBe(deadlocks);
  });
});
