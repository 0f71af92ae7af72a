import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { customAlphabet } from "nanoid";
import type { IntakeCredential } from "../../shared/schemas/responses/intake";
import type { Db, Tx } from "../db/client";
import { dealerships } from "../db/schema/dealerships";
import { intakeCredentials } from "../db/schema/intake";

// Intake credentials (issue 14; decision 131). The secret is "shri_" + 32 random bytes: it is shown once and only its
// SHA-256 is stored (a slow password hash buys nothing against 256 random bits). A sender presents it as a bearer
// token, or as the password of HTTP Basic (the user name is ignored: some ADF senders can only do Basic).

type Executor = Db | Tx;
export type CredentialRow = typeof intakeCredentials.$inferSelect;

const SECRET_PREFIX = "shri_";
/** The mailbox tag of the intake address: lower-case letters and digits survive every mail system's case folding. */
const newMailbox = customAlphabet("abcdefghijklmnopqrstuvwxyz0123456789", 16);

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** The intake e-mail address of a credential: leads+<mailbox>@<domain> (decision 134). */
export function mailAddressOf(mailbox: string, domain: string): string {
  return `leads+${mailbox}@${domain}`;
}

export function toIntakeCredential(row: CredentialRow, domain: string): IntakeCredential {
  return {
    id: row.id,
    name: row.name,
    mailAddress: row.revokedAt ? null : mailAddressOf(row.mailbox, domain),
    createdAt: row.createdAt.toISOString(),
    rotatedAt: row.rotatedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function credentialsOf(db: Executor, dealershipId: string): Promise<CredentialRow[]> {
  return db
    .select()
    .from(intakeCredentials)
    .where(eq(intakeCredentials.dealershipId, dealershipId))
    .orderBy(sql`${intakeCredentials.revokedAt} is not null`, desc(intakeCredentials.createdAt));
}

export async function createCredential(db: Executor, dealershipId: string, name: string, createdBy: string): Promise<{ row: CredentialRow; secret: string }> {
  const secret = newSecret();
  const [row] = await db
    .insert(intakeCredentials)
    .values({ dealershipId, name, secretHash: hashSecret(secret), mailbox: newMailbox(), createdBy })
    .returning();
  if (!row) throw new Error("credential insert returned nothing");
  return { row, secret };
}

/** A new secret and mailbox for a live credential of the dealership; the old ones stop working at once. */
export async function rotateCredential(db: Executor, dealershipId: string, id: string): Promise<{ row: CredentialRow; secret: string } | undefined> {
  const secret = newSecret();
  const [row] = await db
    .update(intakeCredentials)
    .set({ secretHash: hashSecret(secret), mailbox: newMailbox(), rotatedAt: sql`now()` })
    .where(and(eq(intakeCredentials.id, id), eq(intakeCredentials.dealershipId, dealershipId), isNull(intakeCredentials.revokedAt)))
    .returning();
  return row ? { row, secret } : undefined;
}

/** Revoked for good: the row stays (the audit of received documents names it). */
export async function revokeCredential(db: Executor, dealershipId: string, id: string): Promise<CredentialRow | undefined> {
  const [row] = await db
    .update(intakeCredentials)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(intakeCredentials.id, id), eq(intakeCredentials.dealershipId, dealershipId), isNull(intakeCredentials.revokedAt)))
    .returning();
  return row;
}

/** The secret a request presents: `Authorization: Bearer <secret>` or Basic with the secret as the password. */
export function presentedSecret(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const [scheme, value = ""] = authorization.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === "bearer") return value || null;
  if (scheme?.toLowerCase() === "basic") {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    return colon >= 0 ? decoded.slice(colon + 1) || null : null;
  }
  return null;
}

/**
 * The live credential a secret belongs to (in an active dealership), or undefined. Looked up by its hash; the hashes
 * are compared once more in constant time so a lookup's timing says nothing.
 */
export async function credentialBySecret(db: Executor, secret: string): Promise<CredentialRow | undefined> {
  if (!secret.startsWith(SECRET_PREFIX) || secret.length > 200) return undefined;
  const hash = hashSecret(secret);
  const row = await liveCredential(db, eq(intakeCredentials.secretHash, hash));
  if (!row || !timingSafeEqual(Buffer.from(row.secretHash), Buffer.from(hash))) return undefined;
  return row;
}

/** The live credential of an intake mailbox (the tag of leads+<mailbox>@...), or undefined. */
export async function credentialByMailbox(db: Executor, mailbox: string): Promise<CredentialRow | undefined> {
  if (!/^[a-z0-9]{1,64}$/.test(mailbox)) return undefined;
  return liveCredential(db, eq(intakeCredentials.mailbox, mailbox));
}

/** A credential not revoked, of a dealership still in service. */
async function liveCredential(db: Executor, match: SQL): Promise<CredentialRow | undefined> {
  const [row] = await db
    .select({ credential: intakeCredentials })
    .from(intakeCredentials)
    .innerJoin(dealerships, eq(dealerships.id, intakeCredentials.dealershipId))
    .where(and(match, isNull(intakeCredentials.revokedAt), eq(dealerships.active, true)))
    .limit(1);
  return row?.credential;
}
