import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";

// Who asks, as each access rule takes it: known before the query (a Viewer), or found by the query itself (the role
// `roleSql` finds, a membership's `du.role`), where a role that is SQL NULL (no access there) opens nothing.

/** An asker whose role is known in memory. */
export interface Asker {
  userId: string;
  role: DealershipRole;
}

/** An asker for a SQL form: `userId` and `role` may be SQL values of the query. */
export interface SqlAsker {
  userId: string | AnyColumn | SQL;
  role: DealershipRole | AnyColumn | SQL;
}

/** A column of the resource in a query: the table's own, or an alias written out (sql`d.lead_id`). */
export type Column = AnyColumn | SQL;

/** `role in (...)` for a role that is SQL. */
export function roleAmongSql(role: AnyColumn | SQL, roles: readonly DealershipRole[]): SQL {
  return sql`${role} in (${sql.join(roles.map((r) => sql`${r}`), sql`, `)})`;
}
