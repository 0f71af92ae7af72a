import type { FastifyInstance } from "fastify";
import { localToday } from "../../shared/dealership-clock";
import {
  ANALYTICS_ERRORS,
  parsePeriod,
  responses,
  SALES_REP_ANALYTICS_PERIODS,
  TEST_DRIVE_ANALYTICS_PERIODS,
} from "../../shared/schemas/analytics";
import { dealershipTimezone } from "../dealerships/timezone";
import { requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, pathOf, type ZodTypeProvider } from "../http/contract";
import { badRequest } from "../http/errors";
import { salesRepAnalytics, testDriveAnalytics, type Period } from "./queries";

// Test Drive Analytics and Sales Rep Analytics (part 2 §2, §3, §6, §9; decisions 065, 066, 069). Periods are counted on the
// dealership's clock; any other number of days is a 400.

/** The period stays a string here: any other number of days is the 400 below, named as before. */
const periodPath = pathOf("id", "days");

export async function analyticsRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  async function periodOf(dealershipId: string, days: number): Promise<Period> {
    const timezone = await dealershipTimezone(app.db, dealershipId);
    return { today: localToday(timezone, new Date()), days, timezone };
  }

  // Management only (part 2 §2 "/tdus ... management-access users", §6; decision 177, replacing 065's "everyone"): the
  // recent drives name every rep's clients, which a sales rep may not open.
  app.get(
    "/api/dealerships/:id/test-drives/analytics/:days",
    { schema: { params: periodPath, response: answers(responses["GET /api/dealerships/:id/test-drives/analytics/:days"]) } },
    async (request) => {
      const access = await requireDealershipAccess(request, request.params.id);
      requireCapability(access, "managementAccess", ANALYTICS_ERRORS.testDriveAccess);
      const days = parsePeriod(request.params.days, TEST_DRIVE_ANALYTICS_PERIODS);
      if (days === null) throw badRequest(`days: ${ANALYTICS_ERRORS.testDrivePeriod}`, { days: ANALYTICS_ERRORS.testDrivePeriod });
      return testDriveAnalytics(app.db, access, await periodOf(access.dealershipId, days));
    },
  );

  // Management only (part 2 §2, §6): each rep's figures are a manager's to read.
  app.get(
    "/api/dealerships/:id/sales-rep-analytics/:days",
    { schema: { params: periodPath, response: answers(responses["GET /api/dealerships/:id/sales-rep-analytics/:days"]) } },
    async (request) => {
      const access = await requireDealershipAccess(request, request.params.id);
      requireCapability(access, "managementAccess", ANALYTICS_ERRORS.salesRepAccess);
      const days = parsePeriod(request.params.days, SALES_REP_ANALYTICS_PERIODS);
      if (days === null) throw badRequest(`days: ${ANALYTICS_ERRORS.salesRepPeriod}`, { days: ANALYTICS_ERRORS.salesRepPeriod });
      return salesRepAnalytics(app.db, access, await periodOf(access.dealershipId, days));
    },
  );
}
