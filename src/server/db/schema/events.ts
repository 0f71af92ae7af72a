import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * The domain-event outbox (decision 051): a change and its event commit in one transaction; a NOTIFY carrying the
 * id wakes every app process. `dispatched_at` is set once the once-only subscribers (e-mail, notifications, push)
 * have run for the event, in the transaction that ran them.
 */
export const domainEvents = pgTable(
  "domain_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    type: text("type").notNull(),
    /** The payload's version (shared/events.ts DOMAIN_EVENT_VERSIONS) when it was written. */
    version: smallint("version").notNull().default(1),
    dealershipId: text("dealership_id"),
    actorId: text("actor_id"),
    payload: jsonb("payload").notNull(),
    createdAt: createdAt(),
    dispatchedAt: timestamp("dispatched_at", { withTimezone: true }),
    /** Dispatch attempts that failed; an event that keeps failing is set aside after a few (see dispatcher.ts). */
    failures: integer("failures").notNull().default(0),
    lastError: text("last_error"),
  },
  (t) => [index("domain_events_pending_idx").on(t.id).where(sql`${t.dispatchedAt} is null`)],
);

/**
 * A subscriber that failed on an event (decision 186): the event was dispatched to the others, and only this subscriber
 * is tried again, on its own, until it succeeds (the row goes) or has failed MAX_DISPATCH_FAILURES times (the row stays,
 * with its last error, set aside).
 */
export const eventSubscriberFailures = pgTable(
  "event_subscriber_failures",
  {
    eventId: bigint("event_id", { mode: "number" })
      .notNull()
      .references(() => domainEvents.id, { onDelete: "cascade" }),
    subscriber: text("subscriber").notNull(),
    failures: integer("failures").notNull().default(1),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.subscriber] })],
);
