import type { FastifyInstance } from "fastify";
import { responses } from "../../shared/schemas/responses/profile";
import { accountEmailCodeSchema, emailChangeRequestSchema } from "../../shared/schemas/profile";
import { requireUser, signedInFirst } from "../auth/current-user";
import { confirmPasswordAndSecondFactor } from "../auth/reauthentication";
import { answers, type ZodTypeProvider } from "../http/contract";
import { confirmEmailChange, confirmOwnAddress, requestEmailChange, requestOwnAddressCode } from "./email-proof";

// The profile's address calls (decision 169): prove the account's own e-mail, and change it to a proven new one.
export async function profileEmailRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.post("/api/user/email-verification/request", { schema: { response: answers(responses["POST /api/user/email-verification/request"]) } }, async (request) => {
    const user = await requireUser(request);
    await requestOwnAddressCode(server, user);
    return { message: `We sent a 6-digit code to ${user.email}.` };
  });

  app.post(
    "/api/user/email-verification/confirm",
    { schema: { body: accountEmailCodeSchema, response: answers(responses["POST /api/user/email-verification/confirm"]) }, preValidation: signedInFirst },
    async (request) => {
      const user = await requireUser(request);
      return confirmOwnAddress(server, user.id, request.body.code);
    },
  );

  // The current password, and the second factor when it is on: a stolen session alone cannot move the account's
  // e-mail (and with it the password reset). The new address must then prove itself with the mailed code.
  app.post(
    "/api/user/email-change/request",
    { schema: { body: emailChangeRequestSchema, response: answers(responses["POST /api/user/email-change/request"]) }, preValidation: signedInFirst },
    async (request) => {
      const user = await requireUser(request);
      const input = request.body;
      const row = await confirmPasswordAndSecondFactor(server, user.id, input);
      await requestEmailChange(server, row, input.email);
      return { message: `We sent a 6-digit code to ${input.email}. Your e-mail changes when you enter it.`, email: input.email };
    },
  );

  app.post(
    "/api/user/email-change/confirm",
    { schema: { body: accountEmailCodeSchema, response: answers(responses["POST /api/user/email-change/confirm"]) }, preValidation: signedInFirst },
    async (request) => {
      const user = await requireUser(request);
      return confirmEmailChange(server, user.id, request.body.code);
    },
  );
}
