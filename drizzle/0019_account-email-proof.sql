-- Proven e-mail addresses (decision 169). Accounts that exist before this migration start unproven: nothing on record
-- says which of them proved their address (plain registration and the old profile edit never did), and an account that
-- took a PLATFORM_ADMIN_EMAILS address must not become a platform admin by it. Each proves it from the profile.
CREATE TABLE "account_email_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"code" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_email_codes" ADD CONSTRAINT "account_email_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_email_codes_user_purpose_uq" ON "account_email_codes" USING btree ("user_id","purpose");