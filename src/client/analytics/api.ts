import { useQuery } from "@tanstack/react-query";
import type { SalesRepAnalytics, SalesRepAnalyticsPeriod, TestDriveAnalytics, TestDriveAnalyticsPeriod } from "../../shared/schemas/analytics";

// The two analytics reads (spec part 2 §7). Keys are their paths (decision 040); a test-drive write refreshes both
// (test-drives/api.ts invalidateTestDriveData). The previous period's figures stay on screen while another loads.

const ANALYTICS_STALE = 60_000;

export function useTestDriveAnalytics(dealershipId: string, days: TestDriveAnalyticsPeriod) {
  return useQuery<TestDriveAnalytics>({
    queryKey: ["/api/dealerships", dealershipId, "test-drives", "analytics", String(days)],
    staleTime: ANALYTICS_STALE,
    placeholderData: (previous) => previous,
  });
}

/** Management only: the page asks only when the role allows (anyone else sees Access Denied without a call). */
export function useSalesRepAnalytics(dealershipId: string, days: SalesRepAnalyticsPeriod) {
  return useQuery<SalesRepAnalytics>({
    queryKey: ["/api/dealerships", dealershipId, "sales-rep-analytics", String(days)],
    staleTime: ANALYTICS_STALE,
    placeholderData: (previous) => previous,
  });
}
