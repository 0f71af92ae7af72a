import type { FastifyInstance, FastifyRequest } from "fastify";
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
import { responses } from "../../shared/schemas/responses/platform";
import { answers, pathOf, type ZodTypeProvider } from "../http/contract";
import { dealershipMembers } from "../team/members";
import { openInvitations } from "../team/invites";
import { recentActivity } from "./audit";
import {
  changeRoleAsPlatform,
  createDealershipWithManager,
  deleteDealership,
  deleteInvitationAsPlatform,
  deletePlatformUser,
  grantPlatformAdmin,
  inviteAsPlatform,
  removeMemberAsPlatform,
  resendAsPlatform,
  revokePlatformAdmin,
  updateDealership,
  updatePlatformUser,
} from "./commands";
import { dealershipInService, listDealerships } from "./dealerships";
import { requirePlatformAdmin } from "./guard";
import { runMaintenance } from "./maintenance";
import { platformOverview } from "./overview";
import { sendTestEmail } from "./test-email";
import { listPlatformUsers, platformUser } from "./users";

// Platform administration (part 2 §2, §7; decisions 090-094). Every route: 401 signed out, 403 for anyone who is not
// an active platform admin, whatever their dealership roles.

/** Before a body or query is validated: 401 and 403 come before a 400 (decision 190). */
const platformAdminFirst = async (request: FastifyRequest) => void (await requirePlatformAdmin(request));

export async function platformRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // ---- Overview ----
  app.get("/api/platform/overview", { schema: { response: answers(responses["GET /api/platform/overview"]) } }, async (request) => {
    await requirePlatformAdmin(request);
    return platformOverview(app.db);
  });

  app.get("/api/platform/activity", { schema: { response: answers(responses["GET /api/platform/activity"]) } }, async (request) => {
    await requirePlatformAdmin(request);
    return recentActivity(app.db, RECENT_ACTIVITY_SHOWN);
  });

  app.post("/api/platform/maintenance", { schema: { response: answers(responses["POST /api/platform/maintenance"]) } }, async (request) => {
    const admin = await requirePlatformAdmin(request);
    return runMaintenance(app.db, admin);
  });

  app.post(
    "/api/platform/test-email",
    { schema: { body: testEmailSchema, response: answers(responses["POST /api/platform/test-email"]) }, preValidation: platformAdminFirst },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      const { to } = request.body;
      return sendTestEmail(app, to ?? admin.email, admin);
    },
  );

  // ---- Dealerships ----
  app.get(
    "/api/platform/dealerships",
    { schema: { querystring: platformListQuerySchema, response: answers(responses["GET /api/platform/dealerships"]) }, preValidation: platformAdminFirst },
    async (request) => {
      await requirePlatformAdmin(request);
      return listDealerships(app.db, request.query);
    },
  );

  app.post(
    "/api/platform/dealerships",
    { schema: { body: dealershipCreateSchema, response: answers(responses["POST /api/platform/dealerships"]) }, preValidation: platformAdminFirst },
    async (request, reply) => {
      const admin = await requirePlatformAdmin(request);
      const input = request.body;
      return reply.code(201).send(await createDealershipWithManager(app.db, admin, input, server));
    },
  );

  app.put(
    "/api/platform/dealerships/:id",
    { schema: { params: pathOf("id"), body: dealershipDetailsSchema, response: answers(responses["PUT /api/platform/dealerships/:id"]) }, preValidation: platformAdminFirst },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      return updateDealership(app.db, admin, request.params.id, request.body);
    },
  );

  app.delete(
    "/api/platform/dealerships/:id",
    { schema: { params: pathOf("id"), response: answers(responses["DELETE /api/platform/dealerships/:id"]) } },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      return deleteDealership(app.db, admin, request.params.id);
    },
  );

  // ---- A dealership's members and invitations (the team area's functions) ----
  app.get(
    "/api/platform/dealerships/:id/users",
    { schema: { params: pathOf("id"), response: answers(responses["GET /api/platform/dealerships/:id/users"]) } },
    async (request) => {
      await requirePlatformAdmin(request);
      const dealership = await dealershipInService(app.db, request.params.id);
      return dealershipMembers(app.db, dealership.id);
    },
  );

  app.put(
    "/api/platform/dealerships/:id/users/:userId/role",
    { schema: { params: pathOf("id", "userId"), body: platformRoleChangeSchema, response: answers(responses["PUT /api/platform/dealerships/:id/users/:userId/role"]) }, preValidation: platformAdminFirst },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      const { role } = request.body;
      await changeRoleAsPlatform(app.db, admin, request.params.id, request.params.userId, role);
      return { userId: request.params.userId, role };
    },
  );

  app.delete(
    "/api/platform/dealerships/:id/users/:userId",
    { schema: { params: pathOf("id", "userId"), response: answers(responses["DELETE /api/platform/dealerships/:id/users/:userId"]) } },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      const returnedLeads = await removeMemberAsPlatform(app.db, admin, request.params.id, request.params.userId);
      return { message: "User removed", returnedLeads };
    },
  );

  app.get(
    "/api/platform/dealerships/:id/invites",
    { schema: { params: pathOf("id"), response: answers(responses["GET /api/platform/dealerships/:id/invites"]) } },
    async (request) => {
      await requirePlatformAdmin(request);
      const dealership = await dealershipInService(app.db, request.params.id);
      return openInvitations(app.db, dealership.id);
    },
  );

  app.post(
    "/api/platform/dealerships/:id/invite",
    { schema: { params: pathOf("id"), body: platformInviteSchema, response: answers(responses["POST /api/platform/dealerships/:id/invite"]) }, preValidation: platformAdminFirst },
    async (request, reply) => {
      const admin = await requirePlatformAdmin(request);
      const input = request.body;
      return reply.code(201).send(await inviteAsPlatform(app.db, admin, request.params.id, input, server));
    },
  );

  app.post(
    "/api/platform/invites/:id/resend",
    { schema: { params: pathOf("id"), response: answers(responses["POST /api/platform/invites/:id/resend"]) } },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      return resendAsPlatform(app.db, admin, request.params.id, server);
    },
  );

  app.delete(
    "/api/platform/invites/:id",
    { schema: { params: pathOf("id"), response: answers(responses["DELETE /api/platform/invites/:id"]) } },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      await deleteInvitationAsPlatform(app.db, admin, request.params.id);
      return { message: "Invitation deleted" };
    },
  );

  // ---- Users and platform admins ----
  app.get(
    "/api/platform/users",
    { schema: { querystring: platformUserListQuerySchema, response: answers(responses["GET /api/platform/users"]) }, preValidation: platformAdminFirst },
    async (request) => {
      await requirePlatformAdmin(request);
      return listPlatformUsers(app.db, request.query);
    },
  );

  app.patch(
    "/api/platform/users/:id",
    { schema: { params: pathOf("id"), body: platformUserUpdateSchema, response: answers(responses["PATCH /api/platform/users/:id"]) }, preValidation: platformAdminFirst },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      return updatePlatformUser(app.db, admin, request.params.id, request.body);
    },
  );

  app.delete(
    "/api/platform/users/:id",
    { schema: { params: pathOf("id"), response: answers(responses["DELETE /api/platform/users/:id"]) } },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      return deletePlatformUser(app.db, admin, request.params.id);
    },
  );

  app.post(
    "/api/platform/admins/grant",
    { schema: { body: grantAdminSchema, response: answers(responses["POST /api/platform/admins/grant"]) }, preValidation: platformAdminFirst },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      const { email } = request.body;
      const userId = await grantPlatformAdmin(app.db, admin, email);
      return platformUser(app.db, userId);
    },
  );

  app.delete(
    "/api/platform/admins/:userId",
    { schema: { params: pathOf("userId"), response: answers(responses["DELETE /api/platform/admins/:userId"]) } },
    async (request) => {
      const admin = await requirePlatformAdmin(request);
      await revokePlatformAdmin(app.db, admin, request.params.userId);
      return { message: "Admin access revoked" };
    },
  );
}
