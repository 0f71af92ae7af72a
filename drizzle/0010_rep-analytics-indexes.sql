DROP INDEX "leads_dealership_claimed_at_idx";--> statement-breakpoint
CREATE INDEX "leads_claimed_by_claimed_at_idx" ON "leads" USING btree ("claimed_by","claimed_at","dealership_id") WHERE "leads"."claimed_by" is not null;--> statement-breakpoint
CREATE INDEX "appointments_created_by_created_idx" ON "appointments" USING btree ("created_by","created_at","dealership_id");--> statement-breakpoint
CREATE INDEX "testdrives_taken_out_by_idx" ON "dealership_testdrives" USING btree ("taken_out_by","taken_out_at","dealership_id") WHERE "dealership_testdrives"."taken_out_by" is not null;