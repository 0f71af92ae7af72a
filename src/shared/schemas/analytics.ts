import { z } from "zod";
import { LEAD_SOURCES } from "../lead-source";
import { dealershipRole, entityId, timestamp } from "./responses/fields";

// Test Drive Analytics and Sales Rep Analytics (spec part 2 §2, §3 both analytics responses, §9). Both count on the
// dealership's clock: a period of N days is today and the N-1 days before it, local midnight to local midnight
// (decision 065). What counts for a rep: decision 066.

export const TEST_DRIVE_ANALYTICS_PERIODS = [1, 7, 30, 90] as const;
export type TestDriveAnalyticsPeriod = (typeof TEST_DRIVE_ANALYTICS_PERIODS)[number];
export const DEFAULT_TEST_DRIVE_ANALYTICS_PERIOD: TestDriveAnalyticsPeriod = 7;

export const SALES_REP_ANALYTICS_PERIODS = [7, 30, 90, 365] as const;
export type SalesRepAnalyticsPeriod = (typeof SALES_REP_ANALYTICS_PERIODS)[number];
export const DEFAULT_SALES_REP_ANALYTICS_PERIOD: SalesRepAnalyticsPeriod = 30;

export const SALES_REP_PERIOD_LABELS: Record<SalesRepAnalyticsPeriod, string> = {
  7: "Last 7 Days",
  30: "Last 30 Days",
  90: "Last 90 Days",
  365: "Last Year",
};

/** Part 2 §9: recent activity, 3 per rep; daily breakdown names 2 vehicles then "+N more". */
export const RECENT_ACTIVITY_PER_REP = 3;
export const DAILY_BREAKDOWN_VEHICLES_SHOWN = 2;
/** Not in the spec: how many top vehicles and recent drives the answer carries. */
export const TOP_VEHICLES_SHOWN = 5;
export const RECENT_TEST_DRIVES_SHOWN = 10;

export const ANALYTICS_ERRORS = {
  testDrivePeriod: `Period must be one of ${TEST_DRIVE_ANALYTICS_PERIODS.join(", ")} days`,
  salesRepPeriod: `Period must be one of ${SALES_REP_ANALYTICS_PERIODS.join(", ")} days`,
  salesRepAccess: "Access Denied: You need management access to view sales rep analytics",
  /** Decision 177: /tdus names clients and reps across the dealership, so it is management's like the other page. */
  testDriveAccess: "Access Denied: You need management access to view test drive analytics",
} as const;

/** The {days} of the path: a 400 with ANALYTICS_ERRORS' message for any other value. */
export function parsePeriod<P extends number>(value: string, periods: readonly P[]): P | null {
  if (!/^\d{1,3}$/.test(value)) return null;
  const n = Number(value);
  return (periods as readonly number[]).includes(n) ? (n as P) : null;
}

// ---- Test drive analytics ----

const count = z.number().int().nonnegative();

export const testDriveAnalyticsSchema = z.strictObject({
  /** Drives taken out in the period (any status they have now). */
  totalTestDrives: count,
  /** Distinct vehicles among them: an inventory vehicle or unit by id, a manual entry by stock number (or name). */
  vehiclesUsed: count,
  /** Whole minutes, over the period's returned drives; 0 when none was returned. */
  avgDuration: count,
  topVehicles: z.array(z.strictObject({ vehicle: z.string(), stockNumber: z.string().nullable(), count: z.number().int().positive() })),
  /** Every day of the period, oldest first, zero days included; vehicles: distinct names driven that day. */
  dailyBreakdown: z.array(z.strictObject({ date: z.iso.date(), count, vehicles: z.array(z.string()) })),
  recentTestDrives: z.array(
    z.strictObject({
      id: entityId,
      vehicleDriven: z.string().nullable(),
      stockNumber: z.string().nullable(),
      clientName: z.string(),
      takenOutAt: timestamp,
      returnedAt: timestamp.nullable(),
      duration: count.nullable(),
      salesAssociate: z.string().nullable(),
    }),
  ),
});
export type TestDriveAnalytics = z.infer<typeof testDriveAnalyticsSchema>;

// ---- Sales rep analytics ----

export const REP_ACTIVITY_TYPES = ["lead", "appointment", "testdrive"] as const;
export type RepActivityType = (typeof REP_ACTIVITY_TYPES)[number];

export const salesRepSchema = z.strictObject({
  id: entityId,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  role: dealershipRole,
  periodStats: z.strictObject({ leadsClaimed: count, appointmentsScheduled: count, testDrivesTaken: count }),
  /** Newest first, at most RECENT_ACTIVITY_PER_REP, within the period. */
  recentActivity: z.array(z.strictObject({ type: z.enum(REP_ACTIVITY_TYPES), description: z.string(), date: timestamp })),
});
export type SalesRep = z.infer<typeof salesRepSchema>;

/**
 * Leads by source (issue 14, decision 150): the leads that arrived (createdAt) in the period, one line per source and,
 * for ADF, per provider name. Claimed: taken out of the pool (any status but new, as All Clients lists them). Sold:
 * status Closed. Only sources with arrivals; most arrivals first.
 */
export const leadSourceFiguresSchema = z.strictObject({
  source: z.enum(LEAD_SOURCES),
  /** The ADF provider's name for source adf (null when the document named none); null for every other source. */
  provider: z.string().nullable(),
  arrived: count,
  claimed: count,
  sold: count,
});
export type LeadSourceFigures = z.infer<typeof leadSourceFiguresSchema>;

/** Averages per rep, to one decimal (part 2 §9). */
const average = z.number().nonnegative();

export const salesRepAnalyticsSchema = z.strictObject({
  summary: z.strictObject({
    totalReps: count,
    totalLeadsClaimed: count,
    totalAppointmentsScheduled: count,
    totalTestDrivesTaken: count,
    avgLeadsPerRep: average,
    avgAppointmentsPerRep: average,
    avgTestDrivesPerRep: average,
  }),
  /** The rep with the highest count (ties: the earlier name); null when nobody has one. */
  topPerformers: z.strictObject({
    mostLeads: salesRepSchema.nullable(),
    mostAppointments: salesRepSchema.nullable(),
    mostTestDrives: salesRepSchema.nullable(),
  }),
  /** Sorted by activity (the three counts added), then name. */
  salesReps: z.array(salesRepSchema),
  leadsBySource: z.array(leadSourceFiguresSchema),
  /** The dealership's leads moved to Lost in the period, per reason, most first (decision 202). */
  lostReasons: z.array(z.strictObject({ reason: z.string(), lost: count })),
});
export type SalesRepAnalytics = z.infer<typeof salesRepAnalyticsSchema>;

// ---- Shown the same way on every screen ----

/** One decimal, as a number (2 / 3 -> 0.7). */
export function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/** "45m", "1h 5m", "2h 0m" (part 2 §2). */
export function formatDuration(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return "—";
  const whole = Math.max(0, Math.round(minutes));
  if (whole < 60) return `${whole}m`;
  return `${Math.floor(whole / 60)}h ${whole % 60}m`;
}

/** "Civic, Accord +3 more" (part 2 §9). */
export function dailyVehiclesText(vehicles: readonly string[]): string {
  const shown = vehicles.slice(0, DAILY_BREAKDOWN_VEHICLES_SHOWN).join(", ");
  const more = vehicles.length - DAILY_BREAKDOWN_VEHICLES_SHOWN;
  return more > 0 ? `${shown} +${more} more` : shown;
}

/** A rep's activities added up (the Individual Performance count). */
export function activityCount(rep: Pick<SalesRep, "periodStats">): number {
  const s = rep.periodStats;
  return s.leadsClaimed + s.appointmentsScheduled + s.testDrivesTaken;
}

export const responses = {
  "GET /api/dealerships/:id/test-drives/analytics/:days": testDriveAnalyticsSchema,
  "GET /api/dealerships/:id/sales-rep-analytics/:days": salesRepAnalyticsSchema,
} as const satisfies Record<string, z.ZodType>;
