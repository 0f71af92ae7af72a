import type { FastifyInstance } from "fastify";
import {
  emailVerificationRequestSchema,
  emailVerificationVerifySchema,
  inviteSchema,
  roleChangeSchema,
} from "../../shared/schemas/team";
import { publicUser } from "../auth/current-user";
import { signIn } from "../auth/sign-in";
import { requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { notFound, parseInput } from "../http/errors";
import { inviteToDealership, resendInvitation } from "./invitation-mail";
import { deleteInvitation, invitationView, liveInvitationFor, openInvitations } from "./invites";
import { changeMemberRole, dealershipMembers, removeMember } from "./members";
import { grantIfPlatformAdmin } from "./registration";
import { joinByInvitation, requestVerificationCode } from "./verification";

type DealershipParams = { Params: { id: string } };
type InviteParams = { Params: { id: string; inviteId: string } };
type MemberParams = { Params: { id: string; userId: string } };

const MANAGE_USERS = "Only management can manage users and invitations";

export async function teamRoutes(app: FastifyInstance): Promise<void> {
  async function manager(request: Parameters<typeof requireDealershipAccess>[0], dealershipId: string) {
    const access = await requireDealershipAccess(request, dealershipId);
    requireCapability(access, "manageUsers", MANAGE_USERS);
    return access;
  }

  // ---- Invitations (part 2 §7 Admin panel) ----
  app.get<DealershipParams>("/api/dealerships/:id/invites", async (request) => {
    const access = await manager(request, request.params.id);
    return openInvitations(app.db, access.dealershipId);
  });

  app.post<DealershipParams>("/api/dealerships/:id/invites", async (request, reply) => {
    const access = await manager(request, request.params.id);
    const input = parseInput(inviteSchema, request.body);
    const invite = await inviteToDealership(app, access.dealershipId, input, access.user);
    return reply.code(201).send(invitationView(invite));
  });

  app.post<InviteParams>("/api/dealerships/:id/invites/:inviteId/resend", async (request) => {
    const access = await manager(request, request.params.id);
    const invite = await resendInvitation(app, access.dealershipId, request.params.inviteId, access.user);
    return invitationView(invite);
  });

  app.delete<InviteParams>("/api/dealerships/:id/invites/:inviteId", async (request) => {
    const access = await manager(request, request.params.id);
    await deleteInvitation(app.db, access.dealershipId, request.params.inviteId);
    return { message: "Invitation deleted" };
  });

  // ---- Sign-up by invitation (part 1 §2.2, §4, §7) ----
  app.get<{ Params: { email: string } }>("/api/invites/email/:email", async (request) => {
    // Fastify has already decoded the path parameter.
    const email = request.params.email.trim().toLowerCase();
    const live = await liveInvitationFor(app.db, email);
    // Unknown, expired, accepted and withdrawn invitations get the same answer.
    if (!live) throw notFound("No pending invitation was found for this email");
    return { dealershipName: live.dealershipName, role: live.invite.role };
  });

  app.post("/api/auth/email-verification/request", async (request) => {
    const { email } = parseInput(emailVerificationRequestSchema, request.body);
    await requestVerificationCode(app.db, app.mailer, email, request.ip);
    return { message: "If this email has a pending invitation, a verification code has been sent." };
  });

  app.post("/api/auth/email-verification/verify", async (request, reply) => {
    const input = parseInput(emailVerificationVerifySchema, request.body);
    const user = await joinByInvitation(app.db, input, request.ip);
    await grantIfPlatformAdmin(app, user.email);
    // An existing account with two-factor on has joined, but signs in only with its authenticator too (decision 086).
    if (user.twoFactorEnabled) return reply.code(200).send({ requiresTwoFactor: true });
    await signIn(app, reply, user.id);
    return reply.code(201).send(publicUser(user));
  });

  // ---- Members (part 1 §7, part 2 §7) ----
  // Any member may list colleagues (rep choices when creating leads and test drives); changes are management's.
  app.get<DealershipParams>("/api/dealerships/:id/users", async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    return dealershipMembers(app.db, access.dealershipId);
  });

  app.patch<MemberParams>("/api/dealerships/:id/users/:userId/role", async (request) => {
    const access = await manager(request, request.params.id);
    const { role } = parseInput(roleChangeSchema, request.body);
    await changeMemberRole(app.db, access.dealershipId, request.params.userId, role, access.user.id);
    return { userId: request.params.userId, role };
  });

  app.delete<MemberParams>("/api/dealerships/:id/users/:userId", async (request) => {
    const access = await manager(request, request.params.id);
    const returnedLeads = await removeMember(app.db, access.dealershipId, request.params.userId, access.user.id);
    return { message: "User removed", returnedLeads };
  });
}
