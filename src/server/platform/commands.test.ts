import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dealershipCreateSchema, dealershipDetailsSchema } from "../../shared/schemas/platform";
import { publishedTypes } from "../../../tests/helpers/published";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import type { Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { domainEvents } from "../db/schema/events";
import { platformAuditLog } from "../db/schema/platform";
import type { OutgoingMail } from "../mail/mailer";
import type { InvitationMailSetup } from "../team/invitation-mail";
import type { PlatformActor } from "./audit";
import {
  changeRoleAsPlatform,
  createDealershipWithManager,
  deleteInvitationAsPlatform,
  inviteAsPlatform,
  removeMemberAsPlatform,
  resendAsPlatform,
  updateDealership,
} from "./commands";

// The platform admin's commands without HTTP (issue 25): in a dealership's team they are the team's commands, run as
// that dealership's management, each with its one event and its audit entry in the same transaction; a refused change
// leaves neither.

let database: Database & { drop(): Promise<void> };
let admin: PlatformActor;
let dealershipId: string;
const mails: OutgoingMail[] = [];
const setup: InvitationMailSetup = { mailer: { queue: async (mail) => void mails.push(mail) }, config: { appUrl: "https://showroom.test" } };
const eventTypes = () => publishedTypes(database.db, "team.", "dealership.");
const audited = async () => (await database.db.select({ action: platformAuditLog.action }).from(platformAuditLog).orderBy(platformAuditLog.createdAt, platformAuditLog.id)).map((r) => r.action);

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await makeUser(database.db, { firstName: "Pat", lastName: "Platform" });
  admin = { id: user.id, email: user.email, firstName: "Pat", lastName: "Platform" };
  dealershipId = (await makeDealership(database.db, { name: "Platform Commands Motors" })).id;
  await makeUser(database.db, { memberships: [{ dealershipId, role: "management" }] });
});
afterAll(() => database.drop());
beforeEach(async () => {
  await database.db.delete(domainEvents);
  await database.db.delete(platformAuditLog);
  mails.length = 0;
});

describe("the platform's commands", () => {
  it("an invitation sent, resent and deleted: one event and one audit entry each, the admin the actor", async () => {
    const invite = await inviteAsPlatform(database.db, admin, dealershipId, { email: "platform.invite@example.com", role: "frontDesk" }, setup);
    await resendAsPlatform(database.db, admin, invite.id, setup);
    await deleteInvitationAsPlatform(database.db, admin, invite.id);
    expect(await eventTypes()).toEqual(["team.invitation_sent", "team.invitation_sent", "team.invitation_deleted"]);
    expect(await audited()).toEqual(["invitation_sent", "invitation_resent", "invitation_deleted"]);
    expect(mails).toHaveLength(2);
    const actors = await database.db.select({ actorId: domainEvents.actorId }).from(domainEvents);
    expect(actors.every((row) => row.actorId === admin.id)).toBe(true);
  });

  it("a member's role change and removal: one event and one audit entry each; refused ones neither", async () => {
    const member = await makeUser(database.db, { memberships: [{ dealershipId, role: "sales" }] });
    await changeRoleAsPlatform(database.db, admin, dealershipId, member.id, "frontDesk");
    await changeRoleAsPlatform(database.db, admin, dealershipId, member.id, "frontDesk");
    expect(await removeMemberAsPlatform(database.db, admin, dealershipId, member.id)).toBe(0);
    await expect(removeMemberAsPlatform(database.db, admin, dealershipId, member.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(changeRoleAsPlatform(database.db, admin, "no-such-dealership", member.id, "sales")).rejects.toMatchObject({ statusCode: 404 });
    await expect(deleteInvitationAsPlatform(database.db, admin, "no-such-invite")).rejects.toMatchObject({ statusCode: 404 });
    // The role saved as it was is audited as before (the platform's screens asked for it) but publishes nothing.
    expect(await eventTypes()).toEqual(["team.member_role_changed", "team.member_removed"]);
    expect(await audited()).toEqual(["member_role_changed", "member_role_changed", "member_removed"]);
  });

  it("a dealership created with its manager's invitation publishes the two facts; an edit one event", async () => {
    const created = await createDealershipWithManager(
      database.db,
      admin,
      dealershipCreateSchema.parse({ name: "Fresh Motors", adminEmail: "fresh.manager@example.com", adminFirstName: "Fresh", adminLastName: "Manager" }),
      setup,
    );
    expect(await eventTypes()).toEqual(["team.invitation_sent", "dealership.created"]);
    expect(mails.map((mail) => mail.to)).toEqual(["fresh.manager@example.com"]);
    await updateDealership(database.db, admin, created.dealership.id, dealershipDetailsSchema.parse({ name: "Fresher Motors" }));
    const [updated] = await database.db.select().from(domainEvents).where(eq(domainEvents.type, "dealership.updated"));
    expect(updated).toMatchObject({ dealershipId: created.dealership.id, actorId: admin.id, payload: { dealership: { name: "Fresher Motors" } } });
  });
});
