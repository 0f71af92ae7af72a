import type { DealershipRole } from "../../shared/constants";
import { hashPassword } from "../auth/passwords";
import { addMember, createDealership } from "../dealerships/queries";
import { createUser } from "../users/queries";
import type { Db } from "./client";

// Factories shared by the demo seed and the tests, so both build data the same way.

const hashes = new Map<string, Promise<string>>();
/** Hashing is deliberately slow; many users with one password share one hash. */
function cachedHash(password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) hashes.set(password, (h = hashPassword(password)));
  return h;
}

let sequence = 0;
const next = () => ++sequence;

export async function makeDealership(db: Db, values: { name?: string; address?: string; phone?: string; timezone?: string } = {}) {
  return createDealership(db, { name: values.name ?? `Dealership ${next()}`, ...values });
}

export interface MadeUser {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** A user, optionally a member of dealerships with a role in each. */
export async function makeUser(
  db: Db,
  values: {
    email?: string;
    password?: string;
    firstName?: string;
    lastName?: string;
    phone?: string;
    /** Whether the address is proven (decision 169); true unless a test says otherwise, as for the demo people. */
    emailVerified?: boolean;
    memberships?: Array<{ dealershipId: string; role: DealershipRole }>;
  } = {},
): Promise<MadeUser> {
  const n = next();
  const password = values.password ?? "password123";
  const input = {
    email: values.email ?? `user${n}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    password,
    firstName: values.firstName ?? "Test",
    lastName: values.lastName ?? `User${n}`,
    phone: values.phone ?? null,
    currentDealershipId: values.memberships?.[0]?.dealershipId ?? null,
    emailVerified: values.emailVerified ?? true,
  };
  const user = await createUser(db, input, await cachedHash(password));
  for (const m of values.memberships ?? []) await addMember(db, { userId: user.id, ...m });
  return { id: user.id, email: user.email, password, firstName: input.firstName, lastName: input.lastName };
}
