import { fillPlaceholders, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Db, Tx } from "./client";

// Statements that every request runs (the session, a list of one shape, the claim) are compiled to SQL text once and,
// on a PostgreSQL server, prepared once per connection under a name: no SQL building per request and no planning per
// execution (issue 13). Values go in through drizzle placeholders: `sql.placeholder("userId")`.
// Searches stay unnamed on purpose: a generic plan of `ilike '%...%'` cannot suit every search term.

const dialect = new PgDialect();

export interface FixedStatement {
  /** Server-side statement name; undefined runs it unnamed (planned for its values each time). */
  name: string | undefined;
  text: string;
  params: unknown[];
}

/** Compiles a statement once. `name` must be unique per distinct SQL text. */
export function fixedStatement(name: string | undefined, query: SQL): FixedStatement {
  const compiled = dialect.sqlToQuery(query);
  return { name, text: compiled.sql, params: compiled.params };
}

interface PgliteLike {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/**
 * What runs a statement for a database or a transaction: drizzle's session holds it (the pool, or the connection a
 * transaction holds; PGlite, or its transaction). Read from drizzle's `_` (its internals, kept by every 0.x release):
 * a named statement must go to the connection itself, which drizzle's own execute does not name.
 */
function clientOf(executor: Db | Tx): pg.Pool | pg.Client | PgliteLike {
  return (executor as unknown as { _: { session: { client: pg.Pool | pg.Client | PgliteLike } } })._.session.client;
}

/**
 * Runs a fixed statement with its placeholder values and answers the rows (raw column names, as selected). Inside a
 * transaction pass the transaction: the statement runs on its connection.
 */
export async function runStatement<T>(executor: Db | Tx, statement: FixedStatement, values: Record<string, unknown> = {}): Promise<T[]> {
  const params = fillPlaceholders(statement.params, values);
  const client = clientOf(executor);
  if (client instanceof pg.Pool || client instanceof pg.Client) {
    const result = await client.query<T & pg.QueryResultRow>(
      statement.name ? { name: statement.name, text: statement.text, values: params } : { text: statement.text, values: params },
    );
    return result.rows;
  }
  // PGlite has one connection and no named statements; it answers the same rows.
  return (await client.query<T>(statement.text, params)).rows;
}
