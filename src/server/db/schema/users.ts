import { boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { at, createdAt, id, updatedAt } from "./columns";

export const users = pgTable("users", {
  id: id(),
  email: text("email").notNull().unique(),
  password: text("password").notNull(),
  firstName: text("first_name"),
  lastName: text("last_name"),
  profileImageUrl: text("profile_image_url"),
  phone: text("phone"),
  currentDealershipId: text("current_dealership_id"),
  twoFactorSecret: text("two_factor_secret"),
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  twoFactorBackupCodes: text("two_factor_backup_codes").array().notNull().default([]),
  /** The 30-second step of the last authenticator code accepted: a code is never accepted twice (decision 082). */
  twoFactorLastStep: integer("two_factor_last_step"),
  passwordChangedAt: at("password_changed_at"),
  /**
   * When the account proved it can read mail at `email` (an e-mailed code; decision 169). Null until then, and again
   * when a platform admin edits the e-mail. PLATFORM_ADMIN_EMAILS grants platform admin only to a proven address.
   */
  emailVerifiedAt: at("email_verified_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Server-side sessions (part 1 §3): sid is the SHA-256 of the cookie token, so a database leak gives no sessions. */
export const sessions = pgTable(
  "sessions",
  {
    sid: text("sid").primaryKey(),
    /** Whose session: a real key, so "end every session of this user" is one indexed statement (decision 052). */
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sess: jsonb("sess").$type<SessionData>().notNull(),
    expire: timestamp("expire", { withTimezone: true }).notNull(),
    /** Where it was started and when last used, for the profile's Active sessions card (issue 15). */
    userAgent: text("user_agent"),
    ipAddress: text("ip_address"),
    lastSeenAt: at("last_seen_at").notNull().defaultNow(),
  },
  (t) => [index("sessions_expire_idx").on(t.expire), index("sessions_user_idx").on(t.userId)],
);

export interface SessionData {
  userId: string;
  /** Absolute expiry, epoch milliseconds: a session never outlives this however active it is. */
  absoluteExpiry: number;
  createdAt: number;
}

/** Failed sign-in counters shared by every app process (throttling per account and per client address). */
export const loginAttempts = pgTable("login_attempts", {
  /** "account:<email>" or "address:<ip>". */
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStart: at("window_start").notNull().defaultNow(),
  blockedUntil: at("blocked_until"),
});

/**
 * Web push subscriptions (spec part 2 §3 user_tokens; decision 111). `token` is the push service's endpoint URL, which
 * names one browser's subscription; p256dh and auth are the browser's keys that each payload is encrypted to.
 */
export const userTokens = pgTable(
  "user_tokens",
  {
    token: text("token").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    device: text("device"),
    userRole: text("user_role"),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    p256dh: text("p256dh"),
    auth: text("auth"),
    /** The session that subscribed: a device that signed out (or was signed out) gets no more pushes. */
    sessionId: text("session_id").references(() => sessions.sid, { onDelete: "set null" }),
  },
  // By user: the pushes to send; by session: a session's end (sign-out, expiry sweep) unlinks its subscription.
  (t) => [index("user_tokens_user_idx").on(t.userId), index("user_tokens_session_idx").on(t.sessionId)],
);
