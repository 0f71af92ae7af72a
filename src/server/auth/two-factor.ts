import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db, Tx } from "../db/client";
import { users } from "../db/schema/users";
import { badRequest, conflict, HttpError } from "../http/errors";
import type { UserRow } from "./current-user";
import { endSessionsOfUser } from "./sessions";
import {
  looksLikeAuthenticatorCode,
  manualEntryKey,
  matchingStep,
  newBackupCodes,
  newTotpSecret,
  normalizeBackupCode,
  otpauthUri,
  qrCodeDataUrl,
  twoFactorClock,
} from "./two-factor-codes";
import { backupCodeDigest, decryptSecret, encryptSecret, type SecretSource } from "./two-factor-secrets";

// Two-factor sign-in (part 2 §4: inactive -> setup -> enabled -> disabled; decisions 080-082). Every change is one
// conditional UPDATE on the user's row that names the state it needs, so a double click, two tabs or two concurrent
// sign-ins with one backup code cannot both win: PostgreSQL re-checks the WHERE after the row lock.

export const INVALID_TWO_FACTOR_CODE = "Invalid verification code";
export const TWO_FACTOR_CODE_USED = "This code has already been used. Wait for the next code from your authenticator app.";
export const TWO_FACTOR_ALREADY_ENABLED = "Two-factor authentication is already enabled";
export const TWO_FACTOR_NOT_ENABLED = "Two-factor authentication is not enabled";
export const SETUP_RESTARTED = "Two-factor setup was started again elsewhere. Close this dialog and scan the new code.";

export function secretSource(app: FastifyInstance): SecretSource {
  return { appSecret: app.config.appSecret, dataDir: app.config.dataDir };
}

/** The whole row, secrets included: for checking a password or a second factor, never for an answer. */
export async function userWithSecrets(db: Db | Tx, userId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row;
}

export async function twoFactorStatus(db: Db, userId: string): Promise<{ enabled: boolean; backupCodesLeft: number }> {
  const [row] = await db
    .select({ enabled: users.twoFactorEnabled, left: sql<number>`cardinality(${users.twoFactorBackupCodes})` })
    .from(users)
    .where(eq(users.id, userId));
  const enabled = row?.enabled ?? false;
  return { enabled, backupCodesLeft: enabled ? Number(row?.left ?? 0) : 0 };
}

/** Issues a new secret, kept (encrypted) as the pending one until a code from it is verified. */
export async function startSetup(app: FastifyInstance, user: { id: string; email: string }) {
  const secret = newTotpSecret();
  const updated = await app.db
    .update(users)
    .set({ twoFactorSecret: encryptSecret(secretSource(app), secret), twoFactorLastStep: null })
    .where(and(eq(users.id, user.id), eq(users.twoFactorEnabled, false)))
    .returning({ id: users.id });
  if (updated.length === 0) throw conflict(TWO_FACTOR_ALREADY_ENABLED);
  return { secret, qrCodeUrl: await qrCodeDataUrl(otpauthUri(secret, user.email)), manualEntryKey: manualEntryKey(secret) };
}

function digests(app: FastifyInstance, codes: string[]): string[] {
  return codes.map((code) => backupCodeDigest(secretSource(app), normalizeBackupCode(code)!));
}

/**
 * Turns two-factor on when the code comes from the pending secret the caller was shown; answers the backup codes,
 * shown this once. The user's other sessions end: whoever had one signed in without the second factor.
 */
export async function finishSetup(
  app: FastifyInstance,
  userId: string,
  currentSid: string | undefined,
  input: { secret: string; token: string },
): Promise<string[]> {
  const row = await userWithSecrets(app.db, userId);
  if (!row) throw conflict(TWO_FACTOR_NOT_ENABLED);
  if (row.twoFactorEnabled) throw conflict(TWO_FACTOR_ALREADY_ENABLED);
  const stored = row.twoFactorSecret;
  const pending = stored ? decryptSecret(secretSource(app), stored) : null;
  if (!stored || !pending) throw conflict("Start the two-factor setup first");
  if (pending !== input.secret.replace(/\s/g, "").toUpperCase()) throw conflict(SETUP_RESTARTED);
  const step = matchingStep(pending, input.token, twoFactorClock.now());
  if (step === null) throw badRequest(INVALID_TWO_FACTOR_CODE, { token: INVALID_TWO_FACTOR_CODE });
  const codes = newBackupCodes();
  await app.db.transaction(async (tx) => {
    const enabled = await tx
      .update(users)
      .set({ twoFactorEnabled: true, twoFactorBackupCodes: digests(app, codes), twoFactorLastStep: step })
      .where(and(eq(users.id, userId), eq(users.twoFactorEnabled, false), eq(users.twoFactorSecret, stored)))
      .returning({ id: users.id });
    if (enabled.length === 0) throw conflict(SETUP_RESTARTED);
    await endSessionsOfUser(tx, userId, currentSid);
  });
  return codes;
}

export type SecondFactorOutcome = "accepted" | "invalid" | "used";

/**
 * Checks and uses up a second factor: an authenticator code of the current or the previous 30 s step that is newer
 * than the last one accepted (RFC 6238 §5.2: never the same code twice), or an unused backup code, removed as it is
 * accepted. Both are decided by one conditional UPDATE.
 */
export async function useSecondFactor(app: FastifyInstance, db: Db | Tx, user: UserRow, typed: string): Promise<SecondFactorOutcome> {
  if (!user.twoFactorEnabled) return "invalid";
  if (looksLikeAuthenticatorCode(typed)) {
    const secret = user.twoFactorSecret ? decryptSecret(secretSource(app), user.twoFactorSecret) : null;
    if (!secret) {
      app.log.error({ userId: user.id }, "two-factor secret cannot be decrypted: was APP_SECRET or DATA_DIR/app-secret.key changed?");
      return "invalid";
    }
    const step = matchingStep(secret, typed.trim(), twoFactorClock.now());
    if (step === null) return "invalid";
    const accepted = await db
      .update(users)
      .set({ twoFactorLastStep: step })
      .where(
        and(
          eq(users.id, user.id),
          eq(users.twoFactorEnabled, true),
          sql`(${users.twoFactorLastStep} is null or ${users.twoFactorLastStep} < ${step})`,
        ),
      )
      .returning({ id: users.id });
    return accepted.length > 0 ? "accepted" : "used";
  }
  const code = normalizeBackupCode(typed);
  if (!code) return "invalid";
  const digest = backupCodeDigest(secretSource(app), code);
  const used = await db
    .update(users)
    .set({ twoFactorBackupCodes: sql`array_remove(${users.twoFactorBackupCodes}, ${digest}::text)` })
    .where(and(eq(users.id, user.id), eq(users.twoFactorEnabled, true), sql`${digest}::text = any(${users.twoFactorBackupCodes})`))
    .returning({ id: users.id });
  return used.length > 0 ? "accepted" : "invalid";
}

/** The error for a second factor that was not accepted. */
export function secondFactorRefused(outcome: Exclude<SecondFactorOutcome, "accepted">, status: 400 | 401, field?: string): HttpError {
  const message = outcome === "used" ? TWO_FACTOR_CODE_USED : INVALID_TWO_FACTOR_CODE;
  return new HttpError(status, message, field ? { [field]: message } : undefined);
}

/** Turns two-factor off, forgetting the secret and every backup code. */
export async function turnOff(db: Db | Tx, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ twoFactorEnabled: false, twoFactorSecret: null, twoFactorBackupCodes: [], twoFactorLastStep: null })
    .where(eq(users.id, userId));
}

/** New backup codes replace all the old ones, used or not. */
export async function regenerateBackupCodes(app: FastifyInstance, userId: string): Promise<string[]> {
  const codes = newBackupCodes();
  const updated = await app.db
    .update(users)
    .set({ twoFactorBackupCodes: digests(app, codes) })
    .where(and(eq(users.id, userId), eq(users.twoFactorEnabled, true)))
    .returning({ id: users.id });
  if (updated.length === 0) throw conflict(TWO_FACTOR_NOT_ENABLED);
  return codes;
}
