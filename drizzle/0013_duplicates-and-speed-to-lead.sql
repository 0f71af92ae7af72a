CREATE TABLE "lead_duplicates" (
	"lead_id" text NOT NULL,
	"duplicate_of_id" text NOT NULL,
	"dealership_id" text NOT NULL,
	"matched_on" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dismissed_at" timestamp with time zone,
	"dismissed_by" text,
	CONSTRAINT "lead_duplicates_lead_id_duplicate_of_id_pk" PRIMARY KEY("lead_id","duplicate_of_id")
);
--> statement-breakpoint
CREATE TABLE "lead_merges" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"kept_lead_id" text,
	"merged_lead_id" text NOT NULL,
	"merged_lead" jsonb NOT NULL,
	"choices" jsonb NOT NULL,
	"moved_appointments" integer NOT NULL,
	"moved_test_drives" integer NOT NULL,
	"merged_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dealerships" ADD COLUMN "unattended_lead_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "email_normalized" text GENERATED ALWAYS AS (nullif(lower(btrim(email)), '')) STORED;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "phone_normalized" text GENERATED ALWAYS AS (nullif(regexp_replace(regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g'), '^1([0-9]{10})$', '\1'), '')) STORED;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "first_response_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "first_response_kind" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "first_response_by" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "unattended_alerted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lead_duplicates" ADD CONSTRAINT "lead_duplicates_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_duplicates" ADD CONSTRAINT "lead_duplicates_duplicate_of_id_leads_id_fk" FOREIGN KEY ("duplicate_of_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_duplicates" ADD CONSTRAINT "lead_duplicates_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_duplicates" ADD CONSTRAINT "lead_duplicates_dismissed_by_users_id_fk" FOREIGN KEY ("dismissed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_merges" ADD CONSTRAINT "lead_merges_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_merges" ADD CONSTRAINT "lead_merges_kept_lead_id_leads_id_fk" FOREIGN KEY ("kept_lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_merges" ADD CONSTRAINT "lead_merges_merged_by_users_id_fk" FOREIGN KEY ("merged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_duplicates_duplicate_of_idx" ON "lead_duplicates" USING btree ("duplicate_of_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_merges_merged_lead_idx" ON "lead_merges" USING btree ("merged_lead_id");--> statement-breakpoint
CREATE INDEX "lead_merges_kept_lead_idx" ON "lead_merges" USING btree ("kept_lead_id");--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_first_response_by_users_id_fk" FOREIGN KEY ("first_response_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leads_dealership_email_normalized_idx" ON "leads" USING btree ("dealership_id","email_normalized") WHERE "leads"."email_normalized" is not null;--> statement-breakpoint
CREATE INDEX "leads_dealership_phone_normalized_idx" ON "leads" USING btree ("dealership_id","phone_normalized") WHERE "leads"."phone_normalized" is not null;--> statement-breakpoint
CREATE INDEX "leads_unanswered_created_idx" ON "leads" USING btree ("created_at") WHERE "leads"."first_response_at" is null and "leads"."unattended_alerted_at" is null;