import { index, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, id } from "./columns";
import { users } from "./users";

/** Forgotten-password links (issue 15; decision 083): only the token's SHA-256 is kept; used once, then never again. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: at("expires_at").notNull(),
    usedAt: at("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);
