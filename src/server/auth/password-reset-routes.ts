import type { FastifyInstance } from "fastify";
import { responses } from "../../shared/schemas/responses/profile";
import { PASSWORD_RESET_DONE, PASSWORD_RESET_SENT, passwordResetRequestSchema, passwordResetSchema } from "../../shared/schemas/profile";
import { answers, type ZodTypeProvider } from "../http/contract";
import { afterAnswer, settleAfterAnswer } from "../http/after-answer";
import { countResetRequest, mailResetLink, resetPassword } from "./password-reset";
import { SESSION_COOKIE } from "./sessions";

// "Forgot password?" on the sign-in screen and the /reset-password screen (issue 15; decision 083).
export async function passwordResetRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // Before the mailer stops (its hook was added first, so it runs after this one): a link being made still gets queued.
  app.addHook("onClose", () => settleAfterAnswer(app.db));

  // Counted, answered, then looked up (decision 170): the answer waits for the same work whatever the e-mail.
  app.post(
    "/api/auth/password-reset/request",
    { schema: { body: passwordResetRequestSchema, response: answers(responses["POST /api/auth/password-reset/request"]) } },
    async (request, reply) => {
      const { email } = request.body;
      await countResetRequest(server, email, request.ip);
      afterAnswer(reply, () => mailResetLink(server, email));
      return { message: PASSWORD_RESET_SENT };
    },
  );

  app.post(
    "/api/auth/password-reset/confirm",
    { schema: { body: passwordResetSchema, response: answers(responses["POST /api/auth/password-reset/confirm"]) } },
    async (request, reply) => {
      await resetPassword(server, request.body);
      // This browser's session (if any) ended with the others.
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return { message: PASSWORD_RESET_DONE };
    },
  );
}
