import { sql, type SQL } from "drizzle-orm";
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { FIRST_RESPONSE_KINDS } from "../../../shared/speed-to-lead";
import { LEAD_STATUSES } from "../../../shared/constants";
import { LEAD_SOURCES } from "../../../shared/lead-source";
import { at, createdAt, id, updatedAt } from "./columns";
import { dealerships } from "./dealerships";
import { users } from "./users";

export const leads = pgTable(
  "leads",
  {
    id: id(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email"),
    phone: text("phone"),
    description: text("description"),
    status: text("status", { enum: LEAD_STATUSES }).notNull().default("new"),
    claimedBy: text("claimed_by").references(() => users.id, { onDelete: "set null" }),
    claimedAt: at("claimed_at"),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    // Where the lead came from (issue 14, decision 130); existing leads were typed in at the desk: walk-in.
    source: text("source", { enum: LEAD_SOURCES }).notNull().default("walk-in"),
    /** The ADF document's provider name, for source "adf". */
    sourceProvider: text("source_provider"),
    // Duplicate check (issue 14, decision 137): the e-mail lower-case and trimmed, the phone as bare digits without its
    // extension (";ext=123", decision 205) and without a leading country code 1, kept by PostgreSQL itself so every
    // insert path (form, ADF, import, seed) fills them. Same rule as normalizePhone in src/shared/phone.ts.
    emailNormalized: text("email_normalized").generatedAlwaysAs(sql`nullif(lower(btrim(email)), '')`),
    phoneNormalized: text("phone_normalized").generatedAlwaysAs(
      sql`nullif(regexp_replace(regexp_replace(split_part(coalesce(phone, ''), ';', 1), '[^0-9]', '', 'g'), '^1([0-9]{10})$', '\\1'), '')`,
    ),
    // Speed-to-lead (decision 140): the first human answer (claim, call, status change), set once (coalesce).
    firstResponseAt: at("first_response_at"),
    firstResponseKind: text("first_response_kind", { enum: FIRST_RESPONSE_KINDS }),
    firstResponseBy: text("first_response_by").references(() => users.id, { onDelete: "set null" }),
    /** When management was e-mailed that this lead is still untouched (decision 142): once per lead. */
    unattendedAlertedAt: at("unattended_alerted_at"),
    // What the search looks in (spec part 1 §5; decisions 011, 226): full name, e-mail, the phone as stored (E.164,
    // decision 205) and as bare digits (a search typed as a number looks for its digits, phoneSearchDigits, so
    // "(416) 555-0123" and "416 555" find +14165550123), lower-cased. Kept by PostgreSQL on every insert and update,
    // so a search compares it with LIKE and computes no regexp or lower() per row.
    searchText: text("search_text").generatedAlwaysAs(
      (): SQL =>
        sql`lower(first_name || ' ' || last_name || ' | ' || coalesce(email, '') || ' | ' || coalesce(phone, '') || ' | ' || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g'))`,
    ),
    /** Why it was lost (decision 202): one of the dealership's reasons, set with the move to Lost, cleared on leaving it. */
    lostReason: text("lost_reason"),
    /** When it moved to Lost (Sales Rep Analytics counts the reasons of a period by it); cleared on leaving Lost. */
    lostAt: at("lost_at"),
  },
  (t) => [
    // Keyset pagination of a dealership's list, newest first (id breaks ties).
    index("leads_dealership_created_idx").on(t.dealershipId, t.createdAt.desc(), t.id.desc()),
    // The New Leads list: only unclaimed rows, so the index stays small however many leads are worked.
    index("leads_dealership_new_idx")
      .on(t.dealershipId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'new'`),
    // All Clients (front desk, management): every lead taken out of the pool, newest first.
    index("leads_dealership_worked_idx")
      .on(t.dealershipId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} <> 'new'`),
    // A status filter (part 1 §2.5) walks only that status's rows. The search text rides along as a last key (no
    // effect on the order: created_at and id are unique), so a search within a status is an index-only walk newest
    // first that stops at the page's end, where the term is common; the GIN index below answers rare terms (decision 252).
    index("leads_dealership_status_created_search_idx").on(t.dealershipId, t.status, t.createdAt.desc(), t.id.desc(), t.searchText),
    // My Clients of one rep.
    index("leads_claimed_by_idx").on(t.claimedBy, t.createdAt.desc(), t.id.desc()),
    // Sales rep analytics: a rep's claims in a period (counted, and the latest three) from the index alone (decision 069).
    index("leads_claimed_by_claimed_at_idx").on(t.claimedBy, t.claimedAt, t.dealershipId).where(sql`${t.claimedBy} is not null`),
    // Duplicate check: an index lookup per normalised e-mail or phone within the dealership (decision 137).
    index("leads_dealership_email_normalized_idx").on(t.dealershipId, t.emailNormalized).where(sql`${t.emailNormalized} is not null`),
    index("leads_dealership_phone_normalized_idx").on(t.dealershipId, t.phoneNormalized).where(sql`${t.phoneNormalized} is not null`),
    // The unattended-leads job: only leads nobody answered and nobody was told about yet (decision 142).
    index("leads_unanswered_created_idx").on(t.createdAt).where(sql`${t.firstResponseAt} is null and ${t.unattendedAlertedAt} is null`),
    // Sales Rep Analytics' lost reasons: a dealership's leads lost in a period.
    index("leads_dealership_lost_at_idx").on(t.dealershipId, t.lostAt).where(sql`${t.lostAt} is not null`),
    // Search: a substring of the lower-cased search text (LIKE '%q%') answered by trigrams (pg_trgm, migration 0002)
    // together with the dealership and the status (btree_gin): one index scan yields only the dealership's matching
    // rows of that status, instead of a trigram bitmap of every dealership ANDed with a status bitmap (decision 226).
    index("leads_dealership_status_search_idx").using("gin", t.dealershipId, t.status, t.searchText.op("gin_trgm_ops")),
  ],
);

/** A dealership's lost reasons (decision 202), as management ordered them. No row: the default list. */
export const lostReasonLists = pgTable("lost_reason_lists", {
  dealershipId: text("dealership_id")
    .primaryKey()
    .references(() => dealerships.id, { onDelete: "cascade" }),
  reasons: jsonb("reasons").$type<string[]>().notNull(),
  updatedAt: updatedAt(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
});
