import { and, count, eq, inArray, isNotNull, or, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { PlatformOverview } from "../../shared/schemas/responses/platform";
import type { Db } from "../db/client";
import { appointments } from "../db/schema/appointments";
import { dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { emailsLog } from "../db/schema/notifications";
import { testDrives } from "../db/schema/test-drives";
import { users } from "../db/schema/users";

/**
 * Installation-wide totals (part 2 §3 Platform overview; decision 042). Dealerships, leads, appointments and test drives
 * count those of dealerships in service: a deleted dealership leaves the numbers with its data (decision 090).
 * E-mails count only those actually sent (not failed or bounced).
 */
export async function platformOverview(db: Db): Promise<PlatformOverview> {
  const inService = (column: PgColumn): SQL =>
    inArray(column, db.select({ id: dealerships.id }).from(dealerships).where(eq(dealerships.active, true)));
  const total = async (query: Promise<Array<{ n: number }>>) => Number((await query)[0]?.n ?? 0);
  const [totalDealerships, totalUsers, totalLeads, totalAppointments, totalTestDrives, totalEmailsSent] = await Promise.all([
    total(db.select({ n: count() }).from(dealerships).where(eq(dealerships.active, true))),
    total(db.select({ n: count() }).from(users)),
    total(db.select({ n: count() }).from(leads).where(inService(leads.dealershipId))),
    total(db.select({ n: count() }).from(appointments).where(inService(appointments.dealershipId))),
    // Drives that left the lot: a booking not yet taken out is no test drive (decision 065).
    total(db.select({ n: count() }).from(testDrives).where(and(inService(testDrives.dealershipId), or(eq(testDrives.status, "out"), isNotNull(testDrives.takenOutAt))))),
    total(db.select({ n: count() }).from(emailsLog).where(eq(emailsLog.status, "sent"))),
  ]);
  return { totalDealerships, totalUsers, totalLeads, totalAppointments, totalTestDrives, totalEmailsSent };
}
