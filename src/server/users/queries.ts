import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { users } from "../db/schema/users";
import { hashPassword } from "../auth/passwords";
import { storedPhone } from "../../shared/phone";

export type NewUser = {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  phone?: string | null;
  currentDealershipId?: string | null;
  /** The address is proven (an invitation's e-mailed code, the demo data); otherwise it starts unproven (decision 169). */
  emailVerified?: boolean;
};

/** Creates a user with a hashed password. A taken e-mail raises the database's unique violation (23505). */
export async function createUser(tx: Db | Tx, input: NewUser, passwordHash?: string) {
  const [row] = await tx
    .insert(users)
    .values({
      email: input.email.trim().toLowerCase(),
      password: passwordHash ?? (await hashPassword(input.password)),
      firstName: input.firstName,
      lastName: input.lastName,
      // The sign-up form (which keeps the library out of its page, decision 205) sends the phone as typed: stored in
      // E.164 when it is a number, as typed otherwise (it is the member's own, not a customer's).
      phone: input.phone ? (storedPhone(input.phone) ?? input.phone) : null,
      currentDealershipId: input.currentDealershipId ?? null,
      emailVerifiedAt: input.emailVerified ? sql`now()` : null,
    })
    .returning();
  if (!row) throw new Error("user insert returned nothing");
  return row;
}

export async function userByEmail(db: Db | Tx, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return row;
}

/** True when a database error is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  let e: unknown = error;
  // drizzle wraps driver errors; walk the cause chain.
  for (let i = 0; i < 4 && e; i++) {
    if ((e as { code?: string }).code === "23505") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
