import { and, asc, count, eq, or, sql, type SQL } from "drizzle-orm";
import { phoneSearchDigits } from "../../shared/phone";
import type { DealershipPage, PlatformDealership } from "../../shared/schemas/responses/platform";
import type { PlatformListQuery } from "../../shared/schemas/platform";
import type { Db, Tx } from "../db/client";
import { dealerships } from "../db/schema/dealerships";
import type { DealershipRow } from "../dealerships/queries";
import { notFound } from "../http/errors";
import { likeContains } from "../leads/queries";

// Dealerships of the installation (part 2 §2 Dealerships, §3, §5, §7): the list and a dealership in service. Creating,
// editing and deleting one are the platform's commands (commands.ts); deleting takes it out of service instead of
// erasing it (decision 090).

export function dealershipView(row: DealershipRow): PlatformDealership {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    phone: row.phone,
    email: row.email,
    website: row.website,
    createdAt: row.createdAt.toISOString(),
    active: row.active,
  };
}

/** Dealerships in service, by name; `search` looks in name, address, e-mail and phone. */
export async function listDealerships(db: Db, query: PlatformListQuery): Promise<DealershipPage> {
  const filters: SQL[] = [eq(dealerships.active, true)];
  if (query.search) {
    const like = likeContains(query.search);
    const text = (column: SQL | typeof dealerships.name) => sql`${column} ilike ${like}`;
    // A number is found however it is typed: its digits among the stored E.164 number's (decision 205).
    const digits = phoneSearchDigits(query.search);
    const phone = digits ? sql`regexp_replace(coalesce(${dealerships.phone}, ''), '[^0-9]', '', 'g') like ${likeContains(digits)}` : sql`false`;
    filters.push(or(text(dealerships.name), text(sql`coalesce(${dealerships.address}, '')`), text(sql`coalesce(${dealerships.email}, '')`), text(sql`coalesce(${dealerships.phone}, '')`), phone)!);
  }
  const where = and(...filters);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(dealerships)
      .where(where)
      .orderBy(sql`lower(${dealerships.name})`, asc(dealerships.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(dealerships).where(where),
  ]);
  return { items: rows.map(dealershipView), total: Number(counted?.n ?? 0), page: query.page, pageSize: query.pageSize };
}

/**
 * A dealership in service, or 404: a deleted dealership is gone for the platform screens too. `lock` holds its row
 * until the transaction ends, so a deletion cannot slip in before the caller's change commits.
 */
export async function dealershipInService(db: Db | Tx, id: string, { lock = false } = {}): Promise<DealershipRow> {
  const query = db
    .select()
    .from(dealerships)
    .where(and(eq(dealerships.id, id), eq(dealerships.active, true)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Dealership not found");
  return row;
}

