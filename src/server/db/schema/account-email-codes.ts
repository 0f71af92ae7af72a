import { integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, id } from "./columns";
import { users } from "./users";

export const ACCOUNT_EMAIL_PURPOSES = ["verify", "change"] as const;
export type AccountEmailPurpose = (typeof ACCOUNT_EMAIL_PURPOSES)[number];

/**
 * A signed-in user's pending proof of an address (decision 169): "verify" proves the account's own e-mail, "change"
 * proves the new address an e-mail change moves to. One row per user and purpose: a new code replaces the last, and
 * the row is deleted by the confirmation that uses it. Only the code's SHA-256 is kept.
 */
export const accountEmailCodes = pgTable(
  "account_email_codes",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ACCOUNT_EMAIL_PURPOSES }).notNull(),
    /** The address the code was sent to, which the confirmation proves. */
    email: text("email").notNull(),
    code: text("code").notNull(),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: at("expires_at").notNull(),
  },
  (t) => [uniqueIndex("account_email_codes_user_purpose_uq").on(t.userId, t.purpose)],
);
