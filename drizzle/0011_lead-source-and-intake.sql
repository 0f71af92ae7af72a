CREATE TABLE "intake_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"mailbox" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "intake_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"credential_id" text,
	"channel" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"leads_created" integer DEFAULT 0 NOT NULL,
	"error" text,
	"size_bytes" integer NOT NULL,
	"raw_xml" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "source" text DEFAULT 'walk-in' NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "source_provider" text;--> statement-breakpoint
ALTER TABLE "intake_credentials" ADD CONSTRAINT "intake_credentials_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_credentials" ADD CONSTRAINT "intake_credentials_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_documents" ADD CONSTRAINT "intake_documents_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_documents" ADD CONSTRAINT "intake_documents_credential_id_intake_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."intake_credentials"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "intake_credentials_secret_hash_idx" ON "intake_credentials" USING btree ("secret_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "intake_credentials_mailbox_idx" ON "intake_credentials" USING btree ("mailbox");--> statement-breakpoint
CREATE INDEX "intake_credentials_dealership_idx" ON "intake_credentials" USING btree ("dealership_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "intake_documents_dealership_received_idx" ON "intake_documents" USING btree ("dealership_id","received_at" DESC NULLS LAST);