import { eq } from "drizzle-orm";
import { businessHoursOrDefault, type BusinessHours } from "../../shared/business-hours";
import type { Db, Tx } from "../db/client";
import { dealerships } from "../db/schema/dealerships";

// The dealership's clock: "today", bookings and analytics periods are computed in this IANA time zone. It lives in the
// dealerships area (not appointments) because every area that works with local dates needs it.

/** The dealership's IANA time zone. */
export async function dealershipTimezone(db: Db | Tx, dealershipId: string): Promise<string> {
  const [row] = await db.select({ timezone: dealerships.timezone }).from(dealerships).where(eq(dealerships.id, dealershipId)).limit(1);
  if (!row) throw new Error(`dealership ${dealershipId} not found`);
  return row.timezone;
}

/**
 * The dealership's clock with its business hours (decision 191; the defaults until management sets them), and whether
 * management has set them (decision 235: only set hours move an automatic follow-up).
 */
export async function dealershipClock(db: Db | Tx, dealershipId: string): Promise<{ timezone: string; businessHours: BusinessHours; hoursSet: boolean }> {
  const [row] = await db
    .select({ timezone: dealerships.timezone, businessHours: dealerships.businessHours })
    .from(dealerships)
    .where(eq(dealerships.id, dealershipId))
    .limit(1);
  if (!row) throw new Error(`dealership ${dealershipId} not found`);
  return { timezone: row.timezone, businessHours: businessHoursOrDefault(row.businessHours), hoursSet: row.businessHours !== null };
}
