-- Speed-to-lead for leads that existed before it (decisions 140, 142): a claimed lead was first answered by its claim;
-- a lead nobody answered is not reported as "unattended" by the new job at the first start (that would mail management
-- every old lead at once).
UPDATE "leads" SET "first_response_at" = "claimed_at", "first_response_kind" = 'claim', "first_response_by" = "claimed_by"
  WHERE "claimed_at" IS NOT NULL AND "first_response_at" IS NULL;--> statement-breakpoint
UPDATE "leads" SET "unattended_alerted_at" = now() WHERE "first_response_at" IS NULL AND "unattended_alerted_at" IS NULL;
