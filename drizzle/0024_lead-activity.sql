-- The lead's story (issue 26, decision 218): lead_activity (written with each event), lead_notes and lead_calls.
CREATE TABLE "lead_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lead_id" text NOT NULL,
	"dealership_id" text NOT NULL,
	"type" text NOT NULL,
	"event_id" bigint,
	"event_type" text,
	"version" smallint DEFAULT 1 NOT NULL,
	"actor_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"payload" jsonb NOT NULL,
	"merged_from" jsonb
);
--> statement-breakpoint
CREATE TABLE "lead_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"lead_id" text NOT NULL,
	"dealership_id" text NOT NULL,
	"user_id" text,
	"outcome" text NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"lead_id" text NOT NULL,
	"dealership_id" text NOT NULL,
	"author_id" text,
	"body" text NOT NULL,
	"mentions" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lead_activity" ADD CONSTRAINT "lead_activity_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_calls" ADD CONSTRAINT "lead_calls_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_calls" ADD CONSTRAINT "lead_calls_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_calls" ADD CONSTRAINT "lead_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_activity_lead_at_idx" ON "lead_activity" USING btree ("lead_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "lead_calls_lead_idx" ON "lead_calls" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "lead_notes_lead_idx" ON "lead_notes" USING btree ("lead_id");--> statement-breakpoint
-- Backfill: every lead already here gets its lead.created entry at its creation time, so no timeline is empty.
INSERT INTO "lead_activity" ("lead_id", "dealership_id", "type", "actor_id", "at", "payload")
SELECT "id", "dealership_id", 'lead.created', NULL, "created_at",
  jsonb_build_object(
    'lead', jsonb_build_object('id', "id", 'firstName', "first_name", 'lastName', "last_name", 'email', "email", 'phone', "phone",
      'description', "description", 'status', "status", 'claimedBy', "claimed_by"),
    'source', "source", 'provider', "source_provider")
FROM "leads";
