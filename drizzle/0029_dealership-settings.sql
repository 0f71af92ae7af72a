ALTER TABLE "dealerships" ADD COLUMN "business_hours" jsonb;--> statement-breakpoint
ALTER TABLE "dealerships" ADD COLUMN "settings_saved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dealerships" ADD COLUMN "first_run_dismissed_at" timestamp with time zone;--> statement-breakpoint
-- Dealerships older than the first-run checklist (issue 30, decision 192) were set up without it: it is not shown to them.
UPDATE "dealerships" SET "first_run_dismissed_at" = now() WHERE "first_run_dismissed_at" IS NULL;
