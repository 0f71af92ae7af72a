import { jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at, createdAt } from "./columns";
import { pushNotifications } from "./notifications";
import { userTokens } from "./users";

// Web push (issue 11; decisions 110-114). The subscriptions themselves are the spec's user_tokens (users.ts).

/**
 * Keys the installation makes once and every process shares (decision 110): today the VAPID pair, when not given in
 * the environment. `value` is what the owner of the name stores; a private key in it is encrypted with APP_SECRET.
 */
export const installationKeys = pgTable("installation_keys", {
  name: text("name").primaryKey(),
  value: jsonb("value").$type<Record<string, string>>().notNull(),
  createdAt: createdAt(),
});

/**
 * Which subscriptions a push has reached (decision 113). A try that fails part-way is retried for the rest only, so a
 * phone never shows the same notification twice; the count of rows is the record's sentCount.
 */
export const pushDeliveries = pgTable(
  "push_deliveries",
  {
    pushNotificationId: text("push_notification_id")
      .notNull()
      .references(() => pushNotifications.id, { onDelete: "cascade" }),
    token: text("token")
      .notNull()
      .references(() => userTokens.token, { onDelete: "cascade" }),
    deliveredAt: at("delivered_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.pushNotificationId, t.token] })],
);
