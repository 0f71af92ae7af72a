import type { FastifyInstance } from "fastify";
import { disableTwoFactorSchema, verifySetupSchema } from "../../shared/schemas/two-factor";
import { badRequest, parseInput } from "../http/errors";
import { requireUser } from "./current-user";
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
export async function twoFactorRoutes(app: FastifyInstance): Promise<void> {
  app.get("/api/auth/2fa/status", async (request) => {
    const user = await requireUser(request);
    return twoFactorStatus(app.db, user.id);
  });

  app.post("/api/auth/2fa/setup", async (request) => {
    const user = await requireUser(request);
    return startSetup(app, user);
  });

  app.post("/api/auth/2fa/verify-setup", async (request) => {
    const user = await requireUser(request);
    const input = parseInput(verifySetupSchema, request.body);
    return { backupCodes: await finishSetup(app, user.id, request.session?.sid, input) };
  });

  // Password and a code: a stolen session alone cannot turn the second factor off. Counted before checking, like
  // sign-ins (decision 082).
  app.post("/api/auth/2fa/disable", async (request) => {
    const user = await requireUser(request);
    const input = parseInput(disableTwoFactorSchema, request.body);
    const row = await userWithSecrets(app.db, user.id);
    if (!row?.twoFactorEnabled) throw badRequest(TWO_FACTOR_NOT_ENABLED);
    const attempt = await countReauthentication(app.db, user.id);
    if (!(await verifyPassword(row.password, input.password))) throw badRequest(INCORRECT_PASSWORD, { password: INCORRECT_PASSWORD });
    const outcome = await useSecondFactor(app, app.db, row, input.token);
    if (outcome !== "accepted") throw secondFactorRefused(outcome, 400, "token");
    await turnOff(app.db, user.id);
    await reauthenticated(app.db, user.id, attempt);
    return { enabled: false, backupCodesLeft: 0 };
  });

  app.post("/api/auth/2fa/regenerate-backup-codes", async (request) => {
    const user = await requireUser(request);
    return { backupCodes: await regenerateBackupCodes(app, user.id) };
  });
}
