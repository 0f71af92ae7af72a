import type { LeadStatus } from "../../shared/constants";
import type { Db } from "./client";
import { leads } from "./schema/leads";
import { storedPhone } from "../../shared/phone";

const asStored = (phone: string | null) => (phone ? (storedPhone(phone) ?? phone) : phone);

// Leads for the demo seed and the tests. Written straight to the table so a test can place one at any time or in
// any state; the HTTP routes are what tests use when they test creating and claiming themselves.

export type LeadFixture = typeof leads.$inferSelect;

let sequence = 0;

const FIRST = ["Jordan", "Avery", "Casey", "Morgan", "Taylor", "Riley", "Quinn", "Parker", "Reese", "Skyler"];
const LAST = ["Smith", "Garcia", "Nguyen", "Brown", "Wilson", "Martin", "Lee", "Clark", "Lewis", "Walker"];

export async function makeLead(
  db: Db,
  values: {
    dealershipId: string;
    firstName?: string;
    lastName?: string;
    email?: string | null;
    phone?: string | null;
    description?: string | null;
    status?: LeadStatus;
    /** The claimer; with a claimer and no status the lead is "claimed", otherwise "new". */
    claimedBy?: string | null;
    claimedAt?: Date | null;
    createdAt?: Date;
  },
): Promise<LeadFixture> {
  const n = ++sequence;
  const firstName = values.firstName ?? FIRST[n % FIRST.length]!;
  const lastName = values.lastName ?? `${LAST[n % LAST.length]}${n}`;
  const claimedBy = values.claimedBy ?? null;
  const status = values.status ?? (claimedBy ? "claimed" : "new");
  const [row] = await db
    .insert(leads)
    .values({
      dealershipId: values.dealershipId,
      firstName,
      lastName,
      email: values.email === undefined ? `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z0-9.]/g, "") + "@example.com" : values.email,
      // Stored as the app stores a typed number (E.164, decision 205); a value that is not one is kept as given.
      phone: asStored(values.phone === undefined ? `416-555-${String(1000 + (n % 9000)).padStart(4, "0")}` : values.phone),
      description: values.description ?? null,
      status,
      claimedBy,
      claimedAt: values.claimedAt ?? (claimedBy ? (values.createdAt ?? new Date()) : null),
      // A claimed lead was first answered by its claim (speed-to-lead, decision 140), as migration 0014 backfills.
      ...(claimedBy
        ? { firstResponseAt: values.claimedAt ?? values.createdAt ?? new Date(), firstResponseKind: "claim" as const, firstResponseBy: claimedBy }
        : {}),
      ...(values.createdAt ? { createdAt: values.createdAt } : {}),
    })
    .returning();
  if (!row) throw new Error("lead insert returned nothing");
  return row;
}
