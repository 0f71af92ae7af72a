CREATE TABLE "deleted_leads" (
	"lead_id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_by" text,
	"merged_into" jsonb,
	"lead" jsonb NOT NULL,
	"rows" jsonb NOT NULL,
	"links" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deleted_leads" ADD CONSTRAINT "deleted_leads_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deleted_leads" ADD CONSTRAINT "deleted_leads_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deleted_leads_dealership_deleted_idx" ON "deleted_leads" USING btree ("dealership_id","deleted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deleted_leads_deleted_idx" ON "deleted_leads" USING btree ("deleted_at");