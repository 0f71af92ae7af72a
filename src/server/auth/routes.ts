import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { DEFAULT_TIMEZONE } from "../../shared/constants";
import { isIanaTimezone } from "../../shared/dealership-clock";
import { responses } from "../../shared/schemas/responses/auth";
import { invitedRegisterSchema } from "../../shared/schemas/team";
import { loginSchema, registerSchema, currentDealershipSchema } from "../../shared/schemas/auth";
import { addMember, createDealership, dealershipsOfUser, setCurrentDealership } from "../dealerships/queries";
import { answers, checkedInHandler, pathOf, type ZodTypeProvider } from "../http/contract";
import { conflict, forbidden, notFound, parseInput, unauthorized } from "../http/errors";
import { mailOwnAddressCode } from "../profile/email-proof";
import { createUser, isUniqueViolation, userByEmail } from "../users/queries";
import { publicUser, requireUser, signedInFirst } from "./current-user";
import { countSignInAttempt, passwordStepSucceeded, signInSucceeded } from "./login-throttle";
import { assertAcceptablePassword } from "./password-policy";
import { burnPasswordCheck, verifyPassword } from "./passwords";
import { endSession, SESSION_COOKIE } from "./sessions";
import { signIn } from "./sign-in";
import { twoFactorRoutes } from "./two-factor-routes";
import { passwordResetRoutes } from "./password-reset-routes";
import { registerByInvitation } from "../team/registration";
import { requireDealershipAccess, roleInDealership } from "./tenancy";

const INVALID_LOGIN = "Invalid email or password";

export async function authRoutes(server: FastifyInstance): Promise<void> {
  await server.register(twoFactorRoutes);
  await server.register(passwordResetRoutes);
  const app = server.withTypeProvider<ZodTypeProvider>();

  // part 1 §4: register creates the user and a dealership with the user as management, then signs in.
  // The body is read by one of two schemas, chosen by whether its e-mail has a pending invitation (a database
  // question): the route declares both, and the handler parses it.
  const registerBody = checkedInHandler(z.union([registerSchema, invitedRegisterSchema]));
  app.post("/api/register", { schema: { body: registerBody, response: answers(responses["POST /api/register"]) } }, async (request, reply) => {
    // An e-mail with a pending invitation joins the inviting dealership instead (part 1 §4; decision 032). An account
    // that already had the e-mail and has two-factor on has joined, but signs in only with its code (decision 168).
    const invited = await registerByInvitation(server, request.body, request.ip);
    if (invited) {
      if ((await signIn(server, reply, invited.id, {})) === "requires-two-factor") return { requiresTwoFactor: true as const };
      return reply.code(201).send(publicUser(invited));
    }
    const input = parseInput(registerSchema, request.body);
    assertAcceptablePassword(input.password, input.email);
    let created;
    try {
      created = await app.db.transaction(async (tx) => {
        // The owner's browser names the dealership's time zone; the Settings tab changes it (decision 191).
        const timezone = input.timezone && isIanaTimezone(input.timezone) ? input.timezone : DEFAULT_TIMEZONE;
        const dealership = await createDealership(tx, { name: input.dealershipName, timezone });
        // The address is not proven yet: a code is mailed to it (decision 169), and PLATFORM_ADMIN_EMAILS counts
        // only once it is.
        const user = await createUser(tx, { ...input, currentDealershipId: dealership.id, emailVerified: false });
        await addMember(tx, { userId: user.id, dealershipId: dealership.id, role: "management", addedBy: user.id });
        await mailOwnAddressCode(server, tx, user);
        return user;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict("An account with this email already exists");
      throw error;
    }
    await signIn(server, reply, created.id, {});
    return reply.code(201).send(publicUser(created));
  });

  app.post("/api/login", { schema: { body: loginSchema, response: answers(responses["POST /api/login"]) } }, async (request, reply) => {
    const input = request.body;
    // Counted before the password is checked, so a burst of guesses gets no more checks than the limit (decision 007).
    const attempt = await countSignInAttempt(app.db, input.email, request.ip);
    const user = await userByEmail(app.db, input.email);
    // Same answer and about the same time for an unknown e-mail and a wrong password.
    const ok = user ? await verifyPassword(user.password, input.password) : await burnPasswordCheck(input.password);
    if (!user || !ok) throw unauthorized(INVALID_LOGIN);
    // Two-factor (part 1 §4): the right password alone starts no session; the client asks for the code and sends
    // both again. The code is checked only after this attempt was counted and the password was right (decision 082).
    if ((await signIn(server, reply, user.id, { twoFactorCode: input.twoFactorCode })) === "requires-two-factor") {
      await passwordStepSucceeded(app.db, attempt);
      return { requiresTwoFactor: true as const };
    }
    await signInSucceeded(app.db, attempt);
    return publicUser(user);
  });

  // The client navigates here when it finds itself signed out (part 1 §2.1); the sign-in screen is /auth.
  app.get("/api/login", async (_request, reply) => reply.redirect("/auth"));

  app.post("/api/logout", { schema: { response: answers(responses["POST /api/logout"]) } }, async (request, reply) => {
    if (request.session) await endSession(app.db, request.session.sid);
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    reply.header("cache-control", "no-store");
    return { message: "Logged out" };
  });

  app.get("/api/user", { schema: { response: answers(responses["GET /api/user"]) } }, async (request) => requireUser(request));

  app.get("/api/user/platform-admin-status", { schema: { response: answers(responses["GET /api/user/platform-admin-status"]) } }, async (request) => {
    // The session query already answered it (one round trip per request); signed out is simply "no".
    return { isPlatformAdmin: request.session?.isPlatformAdmin ?? false };
  });

  app.get("/api/dealerships", { schema: { response: answers(responses["GET /api/dealerships"]) } }, async (request) => {
    const user = await requireUser(request);
    return dealershipsOfUser(app.db, user.id);
  });

  app.post(
    "/api/user/current-dealership",
    { schema: { body: currentDealershipSchema, response: answers(responses["POST /api/user/current-dealership"]) }, preValidation: signedInFirst },
    async (request) => {
      const user = await requireUser(request);
      const { dealershipId } = request.body;
      if (!(await roleInDealership(app.db, user.id, dealershipId))) throw forbidden("You do not have access to this dealership");
      await setCurrentDealership(app.db, user.id, dealershipId);
      return { currentDealershipId: dealershipId };
    },
  );

  app.get(
    "/api/dealerships/:id/users/:userId/role",
    { schema: { params: pathOf("id", "userId"), response: answers(responses["GET /api/dealerships/:id/users/:userId/role"]) } },
    async (request) => {
      const access = await requireDealershipAccess(request, request.params.id);
      if (request.params.userId === access.user.id) return { role: access.role };
      const role = await roleInDealership(app.db, request.params.userId, access.dealershipId);
      if (!role) throw notFound("That user is not a member of this dealership");
      return { role };
    },
  );
}
