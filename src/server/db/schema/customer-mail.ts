import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { dealerships } from "./dealerships";
import { leads } from "./leads";
import { users } from "./users";

// E-mail with the customer (issue 26, decision 228): the mails of a lead's conversation, the lead's reply address on
// the intake listener, and management's templates.

/** One mail of a lead's conversation: sent from the dealership ("out") or the customer's reply ("in"). */
export const leadEmails = pgTable(
  "lead_emails",
  {
    id: id(),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    direction: text("direction", { enum: ["out", "in"] }).notNull(),
    /** out: queued until the mail queue's final outcome, then sent or failed; in: received. */
    status: text("status", { enum: ["queued", "sent", "failed", "received"] }).notNull(),
    /** The Message-ID header, without angle brackets: a reply's In-Reply-To/References name it. */
    messageId: text("message_id").notNull(),
    /** A reply: which mail of the conversation it answers (by In-Reply-To/References), if one of ours. */
    inReplyToId: text("in_reply_to_id"),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    /** A reply's attachments, by name and size in bytes (their content is not kept). */
    attachments: jsonb("attachments").$type<Array<{ name: string; size: number }>>().notNull().default([]),
    /** Who sent it (out); null for a reply or a deleted user. */
    sentBy: text("sent_by").references(() => users.id, { onDelete: "set null" }),
    /** The last delivery error of a failed mail. */
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("lead_emails_lead_idx").on(t.leadId, t.createdAt), index("lead_emails_message_id_idx").on(t.messageId)],
);

/**
 * A lead's reply address, reply+<token>@REPLY_DOMAIN: the token is random (unguessable), made at the lead's first
 * e-mail. `current` marks the one new mail carries; a merge brings the merged-away lead's over, no longer current, so
 * replies to its old mail still land on the kept lead.
 */
export const leadReplyAddresses = pgTable(
  "lead_reply_addresses",
  {
    token: text("token").primaryKey(),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    current: boolean("current").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("lead_reply_addresses_current_uq")
      .on(t.leadId)
      .where(sql`${t.current}`),
    index("lead_reply_addresses_lead_idx").on(t.leadId),
  ],
);

/** Management's e-mail templates per dealership, with {{placeholders}} the composer fills in. */
export const emailTemplates = pgTable(
  "email_templates",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("email_templates_dealership_idx").on(t.dealershipId, t.name)],
);
