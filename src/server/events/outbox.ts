import { sql, type SQL } from "drizzle-orm";
import { domainEventPayloads, type DomainEvent } from "../../shared/events";
import type { Db, Tx } from "../db/client";
import { domainEvents } from "../db/schema/events";

// publish(tx, event): the event is a row of the outbox written by the transaction of the change (decision 051), so a
// change that rolls back publishes nothing and a committed change is never without its event. pg_notify inside the same
// transaction is delivered at commit (and never on rollback): it wakes the dispatcher of every app process.

export const EVENTS_CHANNEL = "showroom_events";

/** Publishes an event inside the caller's transaction. */
export async function publish(tx: Tx | Db, event: DomainEvent): Promise<void> {
  const payload = domainEventPayloads[event.type].parse(event.payload);
  await tx.execute(
    publishStatement(sql`select ${event.type}::text as type, ${event.dealershipId}::text as dealership_id,
      ${event.actorId}::text as actor_id, ${JSON.stringify(payload)}::jsonb as payload`),
  );
}

/**
 * One statement that writes the events a query selects (columns type, dealership_id, actor_id, payload) and notifies.
 * The claim writes its event in its own statement without the NOTIFY and announces it with `events.committed()`
 * after the commit (decision 120).
 */
export function publishStatement(events: SQL): SQL {
  return sql`with published as (
      insert into ${domainEvents} (type, dealership_id, actor_id, payload) ${events} returning id)
    select count(pg_notify(${EVENTS_CHANNEL}, id::text))::int as notified from published`;
}
