import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  emailVerificationRequestSchema,
  emailVerificationVerifySchema,
  inviteSchema,
  roleChangeSchema,
} from "../../shared/schemas/team";
import { responses } from "../../shared/schemas/responses/team";
import { publicUser } from "../auth/current-user";
import { signIn } from "../auth/sign-in";
import { provenEmailFirst } from "../auth/proven-email";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { notFound } from "../http/errors";
import { changeMemberRole, deleteInvitation, inviteMember, removeMember, resendInvitation } from "./commands";
import { invitationView, liveInvitationFor, openInvitations } from "./invites";
import { dealershipMembers } from "./members";
import { joinInvited } from "./registration";
import { requestVerificationCode } from "./verification";

const invitePath = pathOf("id", "inviteId");
const memberPath = pathOf("id", "userId");

const MANAGE_USERS = "Only management can manage users and invitations";

export async function teamRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  async function manager(request: FastifyRequest, dealershipId: string) {
    const access = await requireDealershipAccess(request, dealershipId);
    requireCapability(access, "manageUsers", MANAGE_USERS);
    return access;
  }
  const managerFirst = dealershipFirst("manageUsers", MANAGE_USERS);

  // ---- Invitations (part 2 §7 Admin panel) ----
  app.get("/api/dealerships/:id/invites", { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/invites"]) } }, async (request) => {
    const access = await manager(request, request.params.id);
    return openInvitations(app.db, access.dealershipId);
  });

  app.post(
    "/api/dealerships/:id/invites",
    { schema: { params: dealershipPath, body: inviteSchema, response: answers(responses["POST /api/dealerships/:id/invites"]) }, preValidation: [managerFirst, provenEmailFirst] },
    async (request, reply) => {
      const access = await manager(request, request.params.id);
      const invite = await inviteMember(app.db, access, request.body, server);
      return reply.code(201).send(invitationView(invite));
    },
  );

  app.post("/api/dealerships/:id/invites/:inviteId/resend", { schema: { params: invitePath, response: answers(responses["POST /api/dealerships/:id/invites/:inviteId/resend"]) }, preValidation: [managerFirst, provenEmailFirst] }, async (request) => {
    const access = await manager(request, request.params.id);
    const invite = await resendInvitation(app.db, access, request.params.inviteId, server);
    return invitationView(invite);
  });

  app.delete("/api/dealerships/:id/invites/:inviteId", { schema: { params: invitePath, response: answers(responses["DELETE /api/dealerships/:id/invites/:inviteId"]) } }, async (request) => {
    const access = await manager(request, request.params.id);
    await deleteInvitation(app.db, access, request.params.inviteId);
    return { message: "Invitation deleted" };
  });

  // ---- Sign-up by invitation (part 1 §2.2, §4, §7) ----
  app.get("/api/invites/email/:email", { schema: { params: pathOf("email"), response: answers(responses["GET /api/invites/email/:email"]) } }, async (request) => {
    // Fastify has already decoded the path parameter.
    const email = request.params.email.trim().toLowerCase();
    const live = await liveInvitationFor(app.db, email);
    // Unknown, expired, accepted and withdrawn invitations get the same answer.
    if (!live) throw notFound("No pending invitation was found for this email");
    return { dealershipName: live.dealershipName, role: live.invite.role };
  });

  app.post(
    "/api/auth/email-verification/request",
    { schema: { body: emailVerificationRequestSchema, response: answers(responses["POST /api/auth/email-verification/request"]) } },
    async (request) => {
      await requestVerificationCode(server, request.body.email, request.ip);
      return { message: "If this email has a pending invitation, a verification code has been sent." };
    },
  );

  app.post(
    "/api/auth/email-verification/verify",
    { schema: { body: emailVerificationVerifySchema, response: answers(responses["POST /api/auth/email-verification/verify"]) } },
    async (request, reply) => {
      const user = await joinInvited(server, request.body, request.ip);
      // An existing account with two-factor on has joined, but signs in only with its authenticator too (decisions 086,
      // 168): the client goes on to the sign-in's code step.
      if ((await signIn(server, reply, user.id, {})) === "requires-two-factor") return reply.code(200).send({ requiresTwoFactor: true });
      return reply.code(201).send(publicUser(user));
    },
  );

  // ---- Members (part 1 §7, part 2 §7) ----
  // Any member may list colleagues (rep choices when creating leads and test drives); changes are management's.
  app.get("/api/dealerships/:id/users", { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/users"]) } }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    return dealershipMembers(app.db, access.dealershipId);
  });

  app.patch(
    "/api/dealerships/:id/users/:userId/role",
    { schema: { params: memberPath, body: roleChangeSchema, response: answers(responses["PATCH /api/dealerships/:id/users/:userId/role"]) }, preValidation: managerFirst },
    async (request) => {
      const access = await manager(request, request.params.id);
      const { role } = request.body;
      await changeMemberRole(app.db, access, request.params.userId, role);
      return { userId: request.params.userId, role };
    },
  );

  app.delete("/api/dealerships/:id/users/:userId", { schema: { params: memberPath, response: answers(responses["DELETE /api/dealerships/:id/users/:userId"]) } }, async (request) => {
    const access = await manager(request, request.params.id);
    const returnedLeads = await removeMember(app.db, access, request.params.userId);
    return { message: "User removed", returnedLeads };
  });
}
