import { bigint, boolean, index, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { at, createdAt, id } from "./columns";
import { dealerships } from "./dealerships";
import { domainEvents } from "./events";
import { users } from "./users";

/**
 * API tokens (issue 28, decision 225): a dealership's other systems call its routes with `Authorization: Bearer shr_...`.
 * Only the SHA-256 of the token is kept. Each token acts as its own account (`userId`, never a person, never a member):
 * tenancy's roleSql gives that account the token's role in the token's dealership while the token is live, so every
 * existing permission check applies to it unchanged, and a revoke or expiry takes the role away in the same query.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    /** The token's own account: what it creates is "created by" this name. */
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    role: text("role", { enum: ["sales", "frontDesk", "management"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    /** Updated at most once a minute per token (not a write per request). */
    lastUsedAt: at("last_used_at"),
    expiresAt: at("expires_at"),
    revokedAt: at("revoked_at"),
  },
  (t) => [index("api_tokens_dealership_idx").on(t.dealershipId)],
);

/**
 * Webhooks (issue 28, decision 227): a dealership's endpoint for its domain events, signed per Standard Webhooks. The
 * secret is kept encrypted with the app's key (it must be read back to sign); the API answers it once, at creation.
 */
export const webhooks = pgTable(
  "webhooks",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Event types, or ["*"] for every one. */
    events: text("events").array().notNull(),
    description: text("description"),
    secret: text("secret").notNull(),
    active: boolean("active").notNull().default(true),
    /** Since when every delivery has failed (null after a success): 3 days of it disables the endpoint. */
    failingSince: at("failing_since"),
    disabledReason: text("disabled_reason"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("webhooks_dealership_idx").on(t.dealershipId)],
);

/** One event to one webhook: its id is the `webhook-id` of every attempt, so a receiver can drop repeats. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: bigint("event_id", { mode: "number" }).references(() => domainEvents.id, { onDelete: "set null" }),
    eventType: text("event_type").notNull(),
    /** The exact body sent (and signed) on every attempt. */
    body: text("body").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    /** The endpoint's answer, at most 1 KB of it, or why nothing was answered. */
    lastResponse: text("last_response"),
    nextAttemptAt: at("next_attempt_at"),
    createdAt: createdAt(),
    deliveredAt: at("delivered_at"),
  },
  (t) => [unique("webhook_deliveries_event_uq").on(t.webhookId, t.eventId), index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt)],
);
