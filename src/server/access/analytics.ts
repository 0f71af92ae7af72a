import { sql, type SQL } from "drizzle-orm";
import type { Viewer } from "../auth/tenancy";
import { roleCan, type Column } from "./asker";

// Who may read analytics rows (part 2 §2, §6; decision 177): management, over the rows of their own dealership. The
// figures count every rep's clients and name recent drives' clients, which a sales rep or the front desk may not
// read row by row; the routes answer them 403 first, and the queries' own condition matches nothing for them.
// In memory and as SQL; access/matrix.test.ts proves the forms agree.

export function readsAnalytics(viewer: Pick<Viewer, "role">): boolean {
  return roleCan(viewer.role, "managementAccess");
}

export function mayReadAnalyticsRow(viewer: Pick<Viewer, "dealershipId" | "role">, row: { dealershipId: string }): boolean {
  return readsAnalytics(viewer) && row.dealershipId === viewer.dealershipId;
}

/** mayReadAnalyticsRow as SQL over a row's dealership column (`t.dealership_id`). */
export function mayReadAnalyticsRowSql(viewer: Pick<Viewer, "dealershipId" | "role">, dealershipId: Column): SQL {
  return readsAnalytics(viewer) ? sql`${dealershipId} = ${viewer.dealershipId}` : sql`false`;
}
