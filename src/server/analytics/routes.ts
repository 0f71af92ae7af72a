import type { FastifyInstance } from "fastify";
import { localToday } from "../../shared/dealership-clock";
import {
  ANALYTICS_ERRORS,
  parsePeriod,
  SALES_REP_ANALYTICS_PERIODS,
  TEST_DRIVE_ANALYTICS_PERIODS,
} from "../../shared/schemas/analytics";
import { dealershipTimezone } from "../appointments/queries";
import { requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { badRequest } from "../http/errors";
import { salesRepAnalytics, testDriveAnalytics, type Period } from "./queries";

// Test Drive Analytics and Sales Rep Analytics (part 2 §2, §3, §6, §9; decisions 065, 066, 069). Periods are counted on the
// dealership's clock; any other number of days is a 400.

type Params = { Params: { id: string; days: string } };

export async function analyticsRoutes(app: FastifyInstance): Promise<void> {
  async function periodOf(dealershipId: string, days: number): Promise<Period> {
    const timezone = await dealershipTimezone(app.db, dealershipId);
    return { today: localToday(timezone, new Date()), days, timezone };
  }

  // Everyone in the dealership: it is the inventory's use, which every role sees on /test-drives (decision 065).
  app.get<Params>("/api/dealerships/:id/test-drives/analytics/:days", async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const days = parsePeriod(request.params.days, TEST_DRIVE_ANALYTICS_PERIODS);
    if (days === null) throw badRequest(`days: ${ANALYTICS_ERRORS.testDrivePeriod}`, { days: ANALYTICS_ERRORS.testDrivePeriod });
    return testDriveAnalytics(app.db, access.dealershipId, await periodOf(access.dealershipId, days));
  });

  // Management only (part 2 §2, §6): each rep's figures are a manager's to read.
  app.get<Params>("/api/dealerships/:id/sales-rep-analytics/:days", async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", ANALYTICS_ERRORS.salesRepAccess);
    const days = parsePeriod(request.params.days, SALES_REP_ANALYTICS_PERIODS);
    if (days === null) throw badRequest(`days: ${ANALYTICS_ERRORS.salesRepPeriod}`, { days: ANALYTICS_ERRORS.salesRepPeriod });
    return salesRepAnalytics(app.db, access.dealershipId, await periodOf(access.dealershipId, days));
  });
}
