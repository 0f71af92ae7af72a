import type { FastifyInstance } from "fastify";
import {
  dealershipCreateSchema,
  dealershipDetailsSchema,
  grantAdminSchema,
  platformInviteSchema,
  platformListQuerySchema,
  platformRoleChangeSchema,
  platformUserListQuerySchema,
  platformUserUpdateSchema,
  RECENT_ACTIVITY_SHOWN,
  testEmailSchema,
} from "../../shared/schemas/platform";
import { parseInput } from "../http/errors";
import { dealershipMembers } from "../team/members";
import { openInvitations } from "../team/invites";
import { grantPlatformAdmin, revokePlatformAdmin } from "./admins";
import { recentActivity } from "./audit";
import {
  changeRoleAsPlatform,
  deleteInvitationAsPlatform,
  inviteAsPlatform,
  removeMemberAsPlatform,
  resendAsPlatform,
} from "./dealership-team";
import { createDealershipWithManager, dealershipInService, deleteDealership, listDealerships, updateDealership } from "./dealerships";
import { requirePlatformAdmin } from "./guard";
import { runMaintenance } from "./maintenance";
import { platformOverview } from "./overview";
import { sendTestEmail } from "./test-email";
import { deletePlatformUser, listPlatformUsers, platformUser, updatePlatformUser } from "./users";

// Platform administration (part 2 §2, §7; decisions 090-094). Every route: 401 signed out, 403 for anyone who is not
// an active platform admin, whatever their dealership roles.

type IdParams = { Params: { id: string } };
type MemberParams = { Params: { id: string; userId: string } };

export async function platformRoutes(app: FastifyInstance): Promise<void> {
  // ---- Overview ----
  app.get("/api/platform/overview", async (request) => {
    await requirePlatformAdmin(request);
    return platformOverview(app.db);
  });

  app.get("/api/platform/activity", async (request) => {
    await requirePlatformAdmin(request);
    return recentActivity(app.db, RECENT_ACTIVITY_SHOWN);
  });

  app.post("/api/platform/maintenance", async (request) => {
    const admin = await requirePlatformAdmin(request);
    return runMaintenance(app.db, admin);
  });

  app.post("/api/platform/test-email", async (request) => {
    const admin = await requirePlatformAdmin(request);
    const { to } = parseInput(testEmailSchema, request.body);
    return sendTestEmail(app, to ?? admin.email, admin);
  });

  // ---- Dealerships ----
  app.get("/api/platform/dealerships", async (request) => {
    await requirePlatformAdmin(request);
    return listDealerships(app.db, parseInput(platformListQuerySchema, request.query));
  });

  app.post("/api/platform/dealerships", async (request, reply) => {
    const admin = await requirePlatformAdmin(request);
    const input = parseInput(dealershipCreateSchema, request.body);
    return reply.code(201).send(await createDealershipWithManager(app, input, admin));
  });

  app.put<IdParams>("/api/platform/dealerships/:id", async (request) => {
    const admin = await requirePlatformAdmin(request);
    return updateDealership(app.db, request.params.id, parseInput(dealershipDetailsSchema, request.body), admin);
  });

  app.delete<IdParams>("/api/platform/dealerships/:id", async (request) => {
    const admin = await requirePlatformAdmin(request);
    return deleteDealership(app.db, request.params.id, admin);
  });

  // ---- A dealership's members and invitations (the team area's functions) ----
  app.get<IdParams>("/api/platform/dealerships/:id/users", async (request) => {
    await requirePlatformAdmin(request);
    const dealership = await dealershipInService(app.db, request.params.id);
    return dealershipMembers(app.db, dealership.id);
  });

  app.put<MemberParams>("/api/platform/dealerships/:id/users/:userId/role", async (request) => {
    const admin = await requirePlatformAdmin(request);
    const { role } = parseInput(platformRoleChangeSchema, request.body);
    await changeRoleAsPlatform(app.db, request.params.id, request.params.userId, role, admin);
    return { userId: request.params.userId, role };
  });

  app.delete<MemberParams>("/api/platform/dealerships/:id/users/:userId", async (request) => {
    const admin = await requirePlatformAdmin(request);
    const returnedLeads = await removeMemberAsPlatform(app.db, request.params.id, request.params.userId, admin);
    return { message: "User removed", returnedLeads };
  });

  app.get<IdParams>("/api/platform/dealerships/:id/invites", async (request) => {
    await requirePlatformAdmin(request);
    const dealership = await dealershipInService(app.db, request.params.id);
    return openInvitations(app.db, dealership.id);
  });

  app.post<IdParams>("/api/platform/dealerships/:id/invite", async (request, reply) => {
    const admin = await requirePlatformAdmin(request);
    const input = parseInput(platformInviteSchema, request.body);
    return reply.code(201).send(await inviteAsPlatform(app, request.params.id, input, admin));
  });

  app.post<IdParams>("/api/platform/invites/:id/resend", async (request) => {
    const admin = await requirePlatformAdmin(request);
    return resendAsPlatform(app, request.params.id, admin);
  });

  app.delete<IdParams>("/api/platform/invites/:id", async (request) => {
    const admin = await requirePlatformAdmin(request);
    await deleteInvitationAsPlatform(app.db, request.params.id, admin);
    return { message: "Invitation deleted" };
  });

  // ---- Users and platform admins ----
  app.get("/api/platform/users", async (request) => {
    await requirePlatformAdmin(request);
    return listPlatformUsers(app.db, parseInput(platformUserListQuerySchema, request.query));
  });

  app.patch<IdParams>("/api/platform/users/:id", async (request) => {
    const admin = await requirePlatformAdmin(request);
    return updatePlatformUser(app.db, request.params.id, parseInput(platformUserUpdateSchema, request.body), admin);
  });

  app.delete<IdParams>("/api/platform/users/:id", async (request) => {
    const admin = await requirePlatformAdmin(request);
    return deletePlatformUser(app.db, request.params.id, admin);
  });

  app.post("/api/platform/admins/grant", async (request) => {
    const admin = await requirePlatformAdmin(request);
    const { email } = parseInput(grantAdminSchema, request.body);
    const userId = await grantPlatformAdmin(app.db, email, admin);
    return platformUser(app.db, userId);
  });

  app.delete<{ Params: { userId: string } }>("/api/platform/admins/:userId", async (request) => {
    const admin = await requirePlatformAdmin(request);
    await revokePlatformAdmin(app.db, request.params.userId, admin);
    return { message: "Admin access revoked" };
  });
}
