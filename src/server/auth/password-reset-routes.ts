import type { FastifyInstance } from "fastify";
import { PASSWORD_RESET_DONE, PASSWORD_RESET_SENT, passwordResetRequestSchema, passwordResetSchema } from "../../shared/schemas/profile";
import { parseInput } from "../http/errors";
import { requestPasswordReset, resetPassword } from "./password-reset";
import { SESSION_COOKIE } from "./sessions";

// "Forgot password?" on the sign-in screen and the /reset-password screen (issue 15; decision 083).
export async function passwordResetRoutes(app: FastifyInstance): Promise<void> {
  app.post("/api/auth/password-reset/request", async (request) => {
    const { email } = parseInput(passwordResetRequestSchema, request.body);
    await requestPasswordReset(app, email, request.ip);
    return { message: PASSWORD_RESET_SENT };
  });

  app.post("/api/auth/password-reset/confirm", async (request, reply) => {
    const input = parseInput(passwordResetSchema, request.body);
    await resetPassword(app, input);
    // This browser's session (if any) ended with the others.
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return { message: PASSWORD_RESET_DONE };
  });
}
