import type { FastifyInstance } from "fastify";
import { loginSchema, registerSchema, currentDealershipSchema } from "../../shared/schemas/auth";
import { addMember, createDealership, dealershipsOfUser, setCurrentDealership } from "../dealerships/queries";
import { conflict, forbidden, notFound, parseInput, unauthorized } from "../http/errors";
import { grantPlatformAdminByEmail } from "../platform/admins";
import { createUser, isUniqueViolation, userByEmail } from "../users/queries";
import { publicUser, requireUser } from "./current-user";
import { countSignInAttempt, passwordStepSucceeded, signInSucceeded } from "./login-throttle";
import { assertAcceptablePassword } from "./password-policy";
import { burnPasswordCheck, verifyPassword } from "./passwords";
import { endSession, SESSION_COOKIE } from "./sessions";
import { signIn } from "./sign-in";
import { secondFactorRefused, useSecondFactor } from "./two-factor";
import { twoFactorRoutes } from "./two-factor-routes";
import { passwordResetRoutes } from "./password-reset-routes";
import { registerByInvitation } from "../team/registration";
import { requireDealershipAccess, roleInDealership } from "./tenancy";

const INVALID_LOGIN = "Invalid email or password";

export async function authRoutes(app: FastifyInstance): Promise<void> {
  await app.register(twoFactorRoutes);
  await app.register(passwordResetRoutes);

  // part 1 §4: register creates the user and a dealership with the user as management, then signs in.
  app.post("/api/register", async (request, reply) => {
    // An e-mail with a pending invitation joins the inviting dealership instead (part 1 §4; decision 032).
    const invited = await registerByInvitation(app, request.body, request.ip);
    if (invited) {
      await signIn(app, reply, invited.id);
      return reply.code(201).send(publicUser(invited));
    }
    const input = parseInput(registerSchema, request.body);
    assertAcceptablePassword(input.password, input.email);
    let created;
    try {
      created = await app.db.transaction(async (tx) => {
        const dealership = await createDealership(tx, { name: input.dealershipName });
        const user = await createUser(tx, { ...input, currentDealershipId: dealership.id });
        await addMember(tx, { userId: user.id, dealershipId: dealership.id, role: "management", addedBy: user.id });
        return user;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict("An account with this email already exists");
      throw error;
    }
    if (app.config.platformAdminEmails.includes(created.email)) await grantPlatformAdminByEmail(app.db, created.email);
    await signIn(app, reply, created.id);
    return reply.code(201).send(publicUser(created));
  });

  app.post("/api/login", async (request, reply) => {
    const input = parseInput(loginSchema, request.body);
    // Counted before the password is checked, so a burst of guesses gets no more checks than the limit (decision 007).
    const attempt = await countSignInAttempt(app.db, input.email, request.ip);
    const user = await userByEmail(app.db, input.email);
    // Same answer and about the same time for an unknown e-mail and a wrong password.
    const ok = user ? await verifyPassword(user.password, input.password) : await burnPasswordCheck(input.password);
    if (!user || !ok) throw unauthorized(INVALID_LOGIN);
    // Two-factor (part 1 §4): the right password alone starts no session; the client asks for the code and sends
    // both again. The code is checked only after this attempt was counted and the password was right (decision 082).
    if (user.twoFactorEnabled) {
      if (!input.twoFactorCode) {
        await passwordStepSucceeded(app.db, attempt);
        return { requiresTwoFactor: true as const };
      }
      const outcome = await useSecondFactor(app, app.db, user, input.twoFactorCode);
      if (outcome !== "accepted") throw secondFactorRefused(outcome, 401);
    }
    await signInSucceeded(app.db, attempt);
    if (request.session) await endSession(app.db, request.session.sid);
    await signIn(app, reply, user.id);
    return publicUser(user);
  });

  // The client navigates here when it finds itself signed out (part 1 §2.1); the sign-in screen is /auth.
  app.get("/api/login", async (_request, reply) => reply.redirect("/auth"));

  app.post("/api/logout", async (request, reply) => {
    if (request.session) await endSession(app.db, request.session.sid);
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    reply.header("cache-control", "no-store");
    return { message: "Logged out" };
  });

  app.get("/api/user", async (request) => requireUser(request));

  app.get("/api/user/platform-admin-status", async (request) => {
    // The session query already answered it (one round trip per request); signed out is simply "no".
    return { isPlatformAdmin: request.session?.isPlatformAdmin ?? false };
  });

  app.get("/api/dealerships", async (request) => {
    const user = await requireUser(request);
    return dealershipsOfUser(app.db, user.id);
  });

  app.post("/api/user/current-dealership", async (request) => {
    const user = await requireUser(request);
    const { dealershipId } = parseInput(currentDealershipSchema, request.body);
    if (!(await roleInDealership(app.db, user.id, dealershipId))) throw forbidden("You do not have access to this dealership");
    await setCurrentDealership(app.db, user.id, dealershipId);
    return { currentDealershipId: dealershipId };
  });

  app.get<{ Params: { id: string; userId: string } }>("/api/dealerships/:id/users/:userId/role", async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    if (request.params.userId === access.user.id) return { role: access.role };
    const role = await roleInDealership(app.db, request.params.userId, access.dealershipId);
    if (!role) throw notFound("That user is not a member of this dealership");
    return { role };
  });
}
