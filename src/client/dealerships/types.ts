import type { DealershipRole } from "../../shared/constants";

/** An entry of GET /api/dealerships: the user's active memberships. */
export interface DealershipSummary {
  id: string;
  name: string;
  address: string | null;
  phone: string | null;
  timezone: string;
  role: DealershipRole;
}
