-- Leads search (issue 32, decision 226): the search text kept in a column, lower-cased, and one GIN index over the
-- dealership, the status and its trigrams. btree_gin (a trusted extension, as pg_trgm: a database owner may create
-- it; PGlite loads it in newPglite, db/client.ts) lets the GIN index hold the two text columns beside the trigrams.
-- Adding the stored column rewrites the leads table once (a few seconds for 100,000 leads).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "leads_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(first_name || ' ' || last_name || ' | ' || coalesce(email, '') || ' | ' || coalesce(phone, '') || ' | ' || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g'))) STORED;--> statement-breakpoint
CREATE INDEX "leads_dealership_status_search_idx" ON "leads" USING gin ("dealership_id","status","search_text" gin_trgm_ops);
