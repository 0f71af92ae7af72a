import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
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
