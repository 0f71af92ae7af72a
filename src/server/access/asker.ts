import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import { can, type Capability } from "../../shared/permissions";

// Who asks, as each access rule takes it: known before the query (a Viewer), or found by the query itself (the role
// `roleSql` finds, a membership's `du.role`), where a role that is SQL NULL (no access there) opens nothing.

/**
 * A role as the rules take it: a person's role in the dealership, or "system", a job's (auth/tenancy.ts
 * systemViewer, decision 249), which may do and see what any role may, within its own dealership: every rule that
 * takes the dealership still matches it to the record's.
 */
export type AskerRole = DealershipRole | "system";

/** An asker whose role is known in memory. */
export interface Asker {
  userId: string;
  role: AskerRole;
}

/** An asker for a SQL form: `userId` and `role` may be SQL values of the query (a SQL role is a person's). */
export interface SqlAsker {
  userId: string | AnyColumn | SQL;
  role: AskerRole | AnyColumn | SQL;
}

/** The capability check of the rules: a person's role through shared/permissions.ts; the system may do every one. */
export function roleCan(role: AskerRole | null | undefined, capability: Capability): boolean {
  return role === "system" || can(role, capability);
}

/** A column of the resource in a query: the table's own, or an alias written out (sql`d.lead_id`). */
export type Column = AnyColumn | SQL;

/** `role in (...)` for a role that is SQL. */
export function roleAmongSql(role: AnyColumn | SQL, roles: readonly DealershipRole[]): SQL {
  return sql`${role} in (${sql.join(roles.map((r) => sql`${r}`), sql`, `)})`;
}
