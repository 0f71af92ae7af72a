import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, id } from "./columns";
import { dealerships } from "./dealerships";
import { users } from "./users";

/**
 * Lead intake credentials (issue 14; decision 131): a dealership's website, OEM program or marketplace posts ADF with
 * one. Only the SHA-256 of the secret is kept (the secret is 32 random bytes, so a fast hash is enough); it is shown
 * once, at creation or rotation. `mailbox` is the random local-part tag of the intake e-mail address
 * (leads+<mailbox>@INTAKE_DOMAIN), shown in the admin panel and replaced on rotation too.
 */
export const intakeCredentials = pgTable(
  "intake_credentials",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    secretHash: text("secret_hash").notNull(),
    mailbox: text("mailbox").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    rotatedAt: at("rotated_at"),
    revokedAt: at("revoked_at"),
    lastUsedAt: at("last_used_at"),
  },
  (t) => [
    uniqueIndex("intake_credentials_secret_hash_idx").on(t.secretHash),
    uniqueIndex("intake_credentials_mailbox_idx").on(t.mailbox),
    index("intake_credentials_dealership_idx").on(t.dealershipId, t.createdAt.desc()),
  ],
);

export const INTAKE_OUTCOMES = ["accepted", "rejected"] as const;
export const INTAKE_CHANNELS = ["http", "email"] as const;

/**
 * Every document an intake credential delivered, accepted or not, for audit (decision 133): the raw XML is kept up to
 * a cap, with its full size.
 */
export const intakeDocuments = pgTable(
  "intake_documents",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    credentialId: text("credential_id").references(() => intakeCredentials.id, { onDelete: "set null" }),
    channel: text("channel", { enum: INTAKE_CHANNELS }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    outcome: text("outcome", { enum: INTAKE_OUTCOMES }).notNull(),
    leadsCreated: integer("leads_created").notNull().default(0),
    error: text("error"),
    sizeBytes: integer("size_bytes").notNull(),
    rawXml: text("raw_xml").notNull(),
  },
  (t) => [index("intake_documents_dealership_received_idx").on(t.dealershipId, t.receivedAt.desc())],
);
