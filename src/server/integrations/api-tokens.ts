import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import type { ApiTokenInput } from "../../shared/schemas/integrations";
import type { ApiToken } from "../../shared/schemas/responses/integrations";
import { publicUser, type SessionUser } from "../auth/current-user";
import type { Db, Tx } from "../db/client";
import { apiTokens } from "../db/schema/integrations";
import { users } from "../db/schema/users";
import { nanoid } from "nanoid";

// API tokens (issue 28, decision 225). A token is `shr_` and 32 random bytes in base64url; only its SHA-256 is stored.
// Each token has an account of its own (never a member, so it is in no team list and cannot sign in) whose role in
// the token's dealership tenancy's roleSql answers while the token is live: the routes' permission checks apply to a
// token exactly as to a person with that role.

export const API_TOKEN_PREFIX = "shr_";
/** lastUsedAt is written at most this often per token: reading a token costs no write. */
const LAST_USED_INTERVAL_MS = 60_000;

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export type TokenRow = typeof apiTokens.$inferSelect;

export function toApiToken(row: TokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

export function tokenSnapshot(row: TokenRow) {
  return { id: row.id, name: row.name, role: row.role, expiresAt: row.expiresAt?.toISOString() ?? null };
}

/** Creates a token and its account; answers the row and the token, which is never readable again. */
export async function createApiToken(
  tx: Tx,
  dealershipId: string,
  createdBy: string,
  input: ApiTokenInput,
): Promise<{ row: TokenRow; token: string }> {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const id = nanoid();
  // The account's address can never receive mail (.invalid, RFC 2606) and its password hash matches no password.
  const [account] = await tx
    .insert(users)
    .values({ email: `api-token.${id.toLowerCase()}@api-tokens.invalid`, password: "!api-token", firstName: input.name, lastName: "(API token)" })
    .returning({ id: users.id });
  const [row] = await tx
    .insert(apiTokens)
    .values({
      id,
      dealershipId,
      userId: account!.id,
      name: input.name,
      role: input.role,
      tokenHash: hashApiToken(token),
      createdBy,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    })
    .returning();
  return { row: row!, token };
}

/** The dealership's live tokens, newest first (revoked ones are gone from the list; expired ones stay, marked by expiresAt). */
export async function listApiTokens(db: Db, dealershipId: string): Promise<ApiToken[]> {
  const rows = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.dealershipId, dealershipId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map(toApiToken);
}

/** Revokes a token of the dealership; null when there is no such live token. */
export async function markApiTokenRevoked(tx: Tx, dealershipId: string, tokenId: string): Promise<TokenRow | null> {
  const [row] = await tx
    .update(apiTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.dealershipId, dealershipId), isNull(apiTokens.revokedAt)))
    .returning();
  return row ?? null;
}

export interface PresentedToken {
  id: string;
  dealershipId: string;
  role: DealershipRole;
  user: SessionUser;
}

/**
 * The live token behind a presented one, read from the database on every request (no cache: a revoke or expiry is
 * seen by every process at once); null when unknown, revoked or expired. Marks it used at most once a minute.
 */
export async function presentedToken(db: Db, token: string): Promise<PresentedToken | null> {
  if (!token.startsWith(API_TOKEN_PREFIX)) return null;
  const [found] = await db
    .select({ token: apiTokens, user: users, live: sql<boolean>`(${apiTokens.revokedAt} is null and (${apiTokens.expiresAt} is null or ${apiTokens.expiresAt} > now()))` })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, hashApiToken(token)))
    .limit(1);
  if (!found || !found.live) return null;
  const lastUsed = found.token.lastUsedAt?.getTime() ?? 0;
  if (Date.now() - lastUsed > LAST_USED_INTERVAL_MS) {
    await db
      .update(apiTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiTokens.id, found.token.id), sql`(${apiTokens.lastUsedAt} is null or ${apiTokens.lastUsedAt} < now() - interval '1 minute')`));
  }
  return { id: found.token.id, dealershipId: found.token.dealershipId, role: found.token.role, user: publicUser(found.user) };
}
