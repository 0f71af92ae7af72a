import type { FastifyInstance } from "fastify";
import { responses } from "../../shared/schemas/responses/profile";
import { disableTwoFactorSchema, regenerateBackupCodesSchema, verifySetupSchema } from "../../shared/schemas/two-factor";
import { answers, type ZodTypeProvider } from "../http/contract";
import { badRequest, conflict } from "../http/errors";
import { requireUser, signedInFirst } from "./current-user";
import { countReauthentication, reauthenticated } from "./reauthentication";
import { verifyPassword } from "./passwords";
import {
  finishSetup,
  regenerateBackupCodes,
  secondFactorRefused,
  startSetup,
  turnOff,
  TWO_FACTOR_NOT_ENABLED,
  twoFactorStatus,
  userWithSecrets,
  useSecondFactor,
} from "./two-factor";

export const INCORRECT_PASSWORD = "Incorrect password";

// The two-factor calls of part 2 §7, for the signed-in user.
export async function twoFactorRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.get("/api/auth/2fa/status", { schema: { response: answers(responses["GET /api/auth/2fa/status"]) } }, async (request) => {
    const user = await requireUser(request);
    return twoFactorStatus(app.db, user.id);
  });

  app.post("/api/auth/2fa/setup", { schema: { response: answers(responses["POST /api/auth/2fa/setup"]) } }, async (request) => {
    const user = await requireUser(request);
    return startSetup(server, user);
  });

  app.post(
    "/api/auth/2fa/verify-setup",
    { schema: { body: verifySetupSchema, response: answers(responses["POST /api/auth/2fa/verify-setup"]) }, preValidation: signedInFirst },
    async (request) => {
      const user = await requireUser(request);
      return { backupCodes: await finishSetup(server, user.id, request.session?.sid, request.body) };
    },
  );

  // Password and a code: a stolen session alone cannot turn the second factor off. Counted before checking, like
  // sign-ins (decision 082).
  app.post(
    "/api/auth/2fa/disable",
    { schema: { body: disableTwoFactorSchema, response: answers(responses["POST /api/auth/2fa/disable"]) }, preValidation: signedInFirst },
    async (request) => {
      const user = await requireUser(request);
      const input = request.body;
      const row = await userWithSecrets(app.db, user.id);
      if (!row?.twoFactorEnabled) throw badRequest(TWO_FACTOR_NOT_ENABLED);
      const attempt = await countReauthentication(app.db, user.id);
      if (!(await verifyPassword(row.password, input.password))) throw badRequest(INCORRECT_PASSWORD, { password: INCORRECT_PASSWORD });
      const outcome = await useSecondFactor(server, app.db, row, input.token);
      if (outcome !== "accepted") throw secondFactorRefused(outcome, 400, "token");
      await turnOff(app.db, user.id);
      await reauthenticated(app.db, user.id, attempt);
      return { enabled: false, backupCodesLeft: 0 };
    },
  );

  // The password or a current authenticator code (decision 169): a stolen session alone cannot replace the codes and
  // so keep a way in. Each one given must be right; counted before checking, like turning two-factor off.
  app.post(
    "/api/auth/2fa/regenerate-backup-codes",
    { schema: { body: regenerateBackupCodesSchema, response: answers(responses["POST /api/auth/2fa/regenerate-backup-codes"]) }, preValidation: signedInFirst },
    async (request) => {
      const user = await requireUser(request);
      const input = request.body;
      const row = await userWithSecrets(app.db, user.id);
      if (!row?.twoFactorEnabled) throw conflict(TWO_FACTOR_NOT_ENABLED);
      const attempt = await countReauthentication(app.db, user.id);
      if (input.password && !(await verifyPassword(row.password, input.password))) {
        throw badRequest(INCORRECT_PASSWORD, { password: INCORRECT_PASSWORD });
      }
      if (input.token) {
        const outcome = await useSecondFactor(server, app.db, row, input.token);
        if (outcome !== "accepted") throw secondFactorRefused(outcome, 400, "token");
      }
      await reauthenticated(app.db, user.id, attempt);
      return { backupCodes: await regenerateBackupCodes(server, user.id) };
    },
  );
}
