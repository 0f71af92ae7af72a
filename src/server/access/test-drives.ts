import { eq, sql, type SQL } from "drizzle-orm";
import type { Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { leads } from "../db/schema/leads";
import { testDrives } from "../db/schema/test-drives";
import { roleAmongSql, type Asker, type Column, type SqlAsker } from "./asker";
import { openLeadSql, opensLead, SEE_EVERY_LEAD, seesEveryLead, type LeadOwnership } from "./leads";

// Who may open a test drive (decision 064): front desk and management every drive of their dealership; a sales rep a
// drive they took out or booked, a drive without a lead (a walk-in typed by hand), or one whose lead they may open
// (access/leads.ts): a colleague's client stays hidden, as on the lead itself (decision 010).
// Whose client a drive names (decision 177): a drive without a lead names its client to every member, a drive of a
// lead only to those who may open that lead; anyone else reads "a client" (the inventory card's "Out with ...").
// Each rule in memory and as SQL; access/matrix.test.ts proves the forms agree.

/** The drive's lead as it stands now: null when the drive has none. */
export type DriveLead = Omit<LeadOwnership, "dealershipId"> | null;

/** What of a drive decides who may open it. */
export interface TestDriveOwnership {
  dealershipId: string;
  leadId: string | null;
  takenOutBy: string | null;
  createdBy: string | null;
  lead: DriveLead;
}

/** A drive's columns, qualified by its table's name or alias: they are used inside a subquery over leads. */
export interface TestDriveColumns {
  dealershipId: Column;
  leadId: Column;
  takenOutBy: Column;
  createdBy: Column;
}

/** Whether the asker may read the client's name on a drive (its lead matched by the caller). */
export function namesDriveClient(asker: Asker, drive: { leadId: string | null; lead: DriveLead }): boolean {
  return seesEveryLead(asker.role) || drive.leadId === null || (drive.lead !== null && opensLead(asker, drive.lead));
}

/** The drive rule without the dealership, for a caller that matched the asker to the drive's dealership (the socket). */
export function opensTestDrive(asker: Asker, drive: Omit<TestDriveOwnership, "dealershipId">): boolean {
  return namesDriveClient(asker, drive) || drive.takenOutBy === asker.userId || drive.createdBy === asker.userId;
}

export function mayOpenTestDrive(viewer: Pick<Viewer, "userId" | "dealershipId" | "role">, drive: TestDriveOwnership): boolean {
  return drive.dealershipId === viewer.dealershipId && opensTestDrive(viewer, drive);
}

/** The drive's lead is one the asker may open (false when it has none). */
function leadOpensSql(asker: SqlAsker, leadId: Column): SQL {
  const lead = { status: sql`l.status`, claimedBy: sql`l.claimed_by` };
  return sql`exists (select 1 from ${leads} l where l.id = ${leadId} and ${openLeadSql(asker, lead)})`;
}

/** namesDriveClient as SQL, for a drive whose lead id is `leadId`. */
export function namesDriveClientSql(asker: Asker, leadId: Column): SQL<boolean> {
  if (seesEveryLead(asker.role)) return sql<boolean>`true`;
  return sql<boolean>`(${leadId} is null or ${leadOpensSql(asker, leadId)})`;
}

/** opensTestDrive as SQL; the role may be SQL (NULL opens nothing). */
export function openTestDriveSql(asker: SqlAsker, drive: Omit<TestDriveColumns, "dealershipId">): SQL {
  const own = sql`${drive.leadId} is null or ${drive.takenOutBy} = ${asker.userId} or ${drive.createdBy} = ${asker.userId}
    or ${leadOpensSql(asker, drive.leadId)}`;
  if (typeof asker.role === "string") return seesEveryLead(asker.role) ? sql`true` : sql`(${own})`;
  return sql`(${asker.role} is not null and (${roleAmongSql(asker.role, SEE_EVERY_LEAD)} or ${own}))`;
}

/** mayOpenTestDrive as SQL, for a viewer known before the query. */
export function mayOpenTestDriveSql(viewer: Pick<Viewer, "userId" | "dealershipId" | "role">, drive: TestDriveColumns): SQL {
  return sql`(${drive.dealershipId} = ${viewer.dealershipId} and ${openTestDriveSql(viewer, drive)})`;
}

/**
 * What the drive rule needs of a drive beyond its event, read once per event for the sockets (realtime/audience.ts):
 * who booked it and where its lead stands now. Undefined when the drive is gone.
 */
export async function driveVisibilityFacts(
  db: Db | Tx,
  testDriveId: string,
): Promise<{ createdBy: string | null; leadStatus: string | null; leadClaimedBy: string | null } | undefined> {
  const [row] = await db
    .select({ createdBy: testDrives.createdBy, leadStatus: leads.status, leadClaimedBy: leads.claimedBy })
    .from(testDrives)
    .leftJoin(leads, eq(leads.id, testDrives.leadId))
    .where(eq(testDrives.id, testDriveId))
    .limit(1);
  return row;
}

/**
 * namesDriveClient for the drive `driveId` (decision 177), as SQL: true for a role that sees every lead, else whether
 * the drive exists and names its client to the asker (a sales rep reads "a client" for a colleague's client).
 */
export function namesClientOfDriveSql(asker: Asker, driveId: Column): SQL<boolean> {
  if (seesEveryLead(asker.role)) return sql<boolean>`true`;
  return sql<boolean>`exists (select 1 from ${testDrives} d where d.id = ${driveId} and ${namesDriveClientSql(asker, sql`d.lead_id`)})`;
}
