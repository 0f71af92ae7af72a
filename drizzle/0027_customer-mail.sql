CREATE TABLE "email_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"name" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_emails" (
	"id" text PRIMARY KEY NOT NULL,
	"lead_id" text NOT NULL,
	"dealership_id" text NOT NULL,
	"direction" text NOT NULL,
	"status" text NOT NULL,
	"message_id" text NOT NULL,
	"in_reply_to_id" text,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sent_by" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_reply_addresses" (
	"token" text PRIMARY KEY NOT NULL,
	"lead_id" text NOT NULL,
	"dealership_id" text NOT NULL,
	"current" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_emails" ADD CONSTRAINT "lead_emails_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_emails" ADD CONSTRAINT "lead_emails_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_emails" ADD CONSTRAINT "lead_emails_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_reply_addresses" ADD CONSTRAINT "lead_reply_addresses_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_reply_addresses" ADD CONSTRAINT "lead_reply_addresses_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_templates_dealership_idx" ON "email_templates" USING btree ("dealership_id","name");--> statement-breakpoint
CREATE INDEX "lead_emails_lead_idx" ON "lead_emails" USING btree ("lead_id","created_at");--> statement-breakpoint
CREATE INDEX "lead_emails_message_id_idx" ON "lead_emails" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_reply_addresses_current_uq" ON "lead_reply_addresses" USING btree ("lead_id") WHERE "lead_reply_addresses"."current";--> statement-breakpoint
CREATE INDEX "lead_reply_addresses_lead_idx" ON "lead_reply_addresses" USING btree ("lead_id");