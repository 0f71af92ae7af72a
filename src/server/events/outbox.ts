import { SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { DOMAIN_EVENT_VERSIONS, domainEventPayloads, serializeEventPayload, type DomainEvent, type DomainEventType } from "../../shared/events";
import type { Db, Tx } from "../db/client";
import { domainEvents } from "../db/schema/events";
import { activityOfPublished } from "./timeline-entries";

// publish(tx, event): the event is a row of the outbox written by the transaction of the change (decision 051), so a
// change that rolls back publishes nothing and a committed change is never without its event. pg_notify inside the same
// transaction is delivered at commit (and never on rollback): it wakes the dispatcher of every app process.

export const EVENTS_CHANNEL = "showroom_events";

/** Publishes an event inside the caller's transaction. */
export async function publish(tx: Tx | Db, event: DomainEvent): Promise<void> {
  await tx.execute(
    publishStatement(sql`select ${event.type}::text as type, ${DOMAIN_EVENT_VERSIONS[event.type]}::smallint as version,
      ${event.dealershipId}::text as dealership_id, ${event.actorId}::text as actor_id,
      ${serializeEventPayload(event.type, event.payload)}::jsonb as payload`),
  );
}

/**
 * One statement that writes the events a query selects (columns type, version, dealership_id, actor_id, payload) and
 * notifies.
 * The claim writes its event in its own statement without the NOTIFY and announces it with `events.committed()`
 * after the commit (decision 120). Each event's timeline entry is written by the same statement (decision 218).
 */
export function publishStatement(events: SQL): SQL {
  return sql`with published as (
      insert into ${domainEvents} (type, version, dealership_id, actor_id, payload) ${events}
      returning id, type, version, dealership_id, actor_id, payload, created_at),
    -- the lead's timeline entries of these events, in the same statement (decision 218)
    activity as (${activityOfPublished(sql`published`)})
    select count(pg_notify(${EVENTS_CHANNEL}, id::text))::int as notified from published`;
}

/** SQL values for a payload's fields, nested as the payload is (an object field: its own fields). */
export interface PayloadFieldsSql {
  [field: string]: SQL | PayloadFieldsSql;
}

/**
 * A statement's payload (decision 185): `jsonb_build_object` of exactly the fields of `type`'s schema in
 * shared/events.ts, nested as it is. For a statement that must build its event from rows only it sees (the claim,
 * which keeps its one round trip): the shape is the serializer's, and a field the SQL adds, misses or misnames throws
 * when the statement is built (at start), not in a subscriber. Answers the SQL and the version to write with it.
 */
export function eventPayloadSql(type: DomainEventType, fields: PayloadFieldsSql): { payload: SQL; version: number } {
  return { payload: objectSql(domainEventPayloads[type] as z.ZodObject, fields, type), version: DOMAIN_EVENT_VERSIONS[type] };
}

function objectSql(schema: z.ZodObject, fields: PayloadFieldsSql, path: string): SQL {
  const shape = schema.shape as Record<string, z.ZodType>;
  const required = Object.keys(shape).filter((key) => !shape[key]!.safeParse(undefined).success);
  const extra = Object.keys(fields).filter((key) => !(key in shape));
  const missing = required.filter((key) => !(key in fields));
  const wrong = [missing.length ? `misses ${missing.join(", ")}` : "", extra.length ? `adds ${extra.join(", ")}` : ""].filter(Boolean);
  if (wrong.length) throw new Error(`${path}: the SQL payload ${wrong.join(" and ")}`);
  return sql`jsonb_build_object(${sql.join(
    Object.entries(fields).map(([key, value]) => {
      if (!/^[A-Za-z_]+$/.test(key)) throw new Error(`${path}: field name ${key}`);
      const built = value instanceof SQL ? value : objectSql(shape[key] as z.ZodObject, value, `${path}.${key}`);
      return sql`${sql.raw(`'${key}'`)}, ${built}`;
    }),
    sql`, `,
  )})`;
}
