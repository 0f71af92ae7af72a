import type { DealershipRole } from "./constants";

// Role -> capability map from part 1 §6 and part 2 §6. The server guards and the UI both ask `can`.
const CAPABILITIES = {
  accessNewLeads: ["sales", "frontDesk", "management"],
  viewReports: ["sales", "management"],
  managementAccess: ["management"],
  manageUsers: ["management"],
  manageVehicles: ["management"],
  seeAllAppointments: ["frontDesk", "management"],
  seeAllClaimedLeads: ["frontDesk", "management"],
  sendReminders: ["frontDesk", "management"],
  assignLeads: ["frontDesk", "management"],
  /** Merge possible duplicates, or dismiss the link (issue 14, decision 139). */
  mergeLeads: ["frontDesk", "management"],
  /** Import leads from a CSV file and export the lists (issue 14, decision 135). */
  importExportLeads: ["frontDesk", "management"],
  /** See leads deleted or merged away in the last 30 days and restore them (issue 30, decision 214). */
  restoreDeletedLeads: ["management"],
} as const satisfies Record<string, readonly DealershipRole[]>;

export type Capability = keyof typeof CAPABILITIES;

export function can(role: DealershipRole | null | undefined, capability: Capability): boolean {
  if (!role) return false;
  return (CAPABILITIES[capability] as readonly DealershipRole[]).includes(role);
}

/** The roles holding a capability (for queries that decide visibility in SQL). */
export function rolesThatCan(capability: Capability): readonly DealershipRole[] {
  return CAPABILITIES[capability];
}
