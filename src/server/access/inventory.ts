import { sql, type SQL } from "drizzle-orm";
import type { Viewer } from "../auth/tenancy";
import type { Column } from "./asker";

// Who may see a vehicle or a test-drive unit (part 2 §2-§4; decision 062): every member of its dealership, whatever
// the role (management alone changes it: the `manageVehicles` capability, checked by the routes). Whose client a
// vehicle that is out names is the drive's rule (access/test-drives.ts, namesDriveClient). In memory and as SQL;
// access/matrix.test.ts proves the forms agree.

export interface InventoryOwnership {
  dealershipId: string;
}

export function mayOpenInventory(viewer: Pick<Viewer, "dealershipId">, item: InventoryOwnership): boolean {
  return item.dealershipId === viewer.dealershipId;
}

export function mayOpenInventorySql(viewer: Pick<Viewer, "dealershipId">, item: { dealershipId: Column }): SQL {
  return sql`${item.dealershipId} = ${viewer.dealershipId}`;
}
