import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import { rolesThatCan } from "../../shared/permissions";
import type { Viewer } from "../auth/tenancy";
import { roleCan, type AskerRole } from "./asker";

// Who may open a lead (part 1 §6, decision 010; decision 178): front desk and management every lead of their
// dealership; a sales rep the unclaimed pool (status "new") and their own clients. A colleague's client is not found.
// The ONE statement of that rule, in two forms that must agree (access/matrix.test.ts checks every case):
//   - mayOpenLead / opensLead: in memory (the socket's audience, anything deciding on a snapshot);
//   - mayOpenLeadSql / openLeadSql: a condition for a query over the leads table or an alias of it.
// The claim's prepared statement (db/prepared.ts, leads/queries.ts) keeps its own "status = 'new'": it only ever
// takes a lead out of the pool, and is one measured statement (decision 176).

/** The roles that see every lead of their dealership. */
export const SEE_EVERY_LEAD: readonly DealershipRole[] = rolesThatCan("seeAllClaimedLeads");

/** What of a lead decides who may open it. */
export interface LeadOwnership {
  dealershipId: string;
  status: string;
  claimedBy: string | null;
}

type Asker = Pick<Viewer, "userId" | "dealershipId" | "role">;

export function seesEveryLead(role: AskerRole | null | undefined): boolean {
  return roleCan(role, "seeAllClaimedLeads");
}

/** Whether the viewer may open this lead. */
export function mayOpenLead(viewer: Asker, lead: LeadOwnership): boolean {
  return lead.dealershipId === viewer.dealershipId && opensLead(viewer, lead);
}

/**
 * The rule without the dealership (openLeadSql's twin), for a caller that has already matched the asker to the lead's
 * dealership: the socket's listeners of a dealership's event.
 */
export function opensLead(asker: Pick<Viewer, "userId" | "role">, lead: Omit<LeadOwnership, "dealershipId">): boolean {
  return seesEveryLead(asker.role) || lead.status === "new" || (lead.claimedBy !== null && lead.claimedBy === asker.userId);
}

/** A lead's columns in a query: the table's own (`leads.status`) or an alias written out (sql`l.status`). */
export interface LeadColumns {
  dealershipId: AnyColumn | SQL;
  status: AnyColumn | SQL;
  claimedBy: AnyColumn | SQL;
}

/** mayOpenLead as SQL, for a viewer known before the query. */
export function mayOpenLeadSql(viewer: Asker, lead: LeadColumns): SQL {
  return sql`(${lead.dealershipId} = ${viewer.dealershipId} and ${openLeadSql(viewer, lead)})`;
}

/**
 * The rule without the dealership, for a query that already holds the lead to the asker's dealership, or whose asker
 * is itself in the query: `role` and `userId` may be SQL (the role `roleSql` finds, a membership's `du.role`). A role
 * that is SQL NULL (no access) opens nothing.
 */
export function openLeadSql(
  asker: { userId: string | AnyColumn | SQL; role: AskerRole | AnyColumn | SQL },
  lead: Omit<LeadColumns, "dealershipId">,
): SQL {
  const ownOrPool = sql`${lead.status} = 'new' or ${lead.claimedBy} = ${asker.userId}`;
  if (typeof asker.role === "string") return seesEveryLead(asker.role) ? sql`true` : sql`(${ownOrPool})`;
  const everyLead = sql.join(SEE_EVERY_LEAD.map((r) => sql`${r}`), sql`, `);
  return sql`(${asker.role} is not null and (${asker.role} in (${everyLead}) or ${ownOrPool}))`;
}

// Deleted leads (issue 30, decision 214). A deleted or merged-away lead is no longer in the leads table (it waits in
// deleted_leads for 30 days), so the rule above never opens one and no query on leads needs to ask. Only management
// of its dealership sees it in Recently deleted and restores it; anyone else of the dealership is refused (403), and
// another dealership does not find it (404).

/** Whether this role sees its dealership's recently deleted leads and may restore them. */
export function mayRestoreLeads(role: AskerRole | null | undefined): boolean {
  return roleCan(role, "restoreDeletedLeads");
}
