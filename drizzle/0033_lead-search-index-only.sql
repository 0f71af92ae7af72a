-- Leads search within a status (issue 32, decision 252): the status index carries the search text as its last key, so
-- a common term is found by an index-only walk newest first that stops at the page's end, instead of visiting the heap
-- page of every matching lead to sort them. The new index is built before the old one goes.
CREATE INDEX "leads_dealership_status_created_search_idx" ON "leads" USING btree ("dealership_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"search_text");--> statement-breakpoint
DROP INDEX "leads_dealership_status_created_idx";
