import { asc, eq, like, or } from "drizzle-orm";
import type { Db } from "../../src/server/db/client";
import { domainEvents } from "../../src/server/db/schema/events";

/**
 * The types of the events published so far, oldest first, among those named: a name ending in "." is a family
 * ("task." is every task event), any other is one type.
 */
export async function publishedTypes(db: Db, ...names: string[]): Promise<string[]> {
  const rows = await db
    .select({ type: domainEvents.type })
    .from(domainEvents)
    .where(or(...names.map((name) => (name.endsWith(".") ? like(domainEvents.type, `${name}%`) : eq(domainEvents.type, name)))))
    .orderBy(asc(domainEvents.id));
  return rows.map((row) => row.type);
}
