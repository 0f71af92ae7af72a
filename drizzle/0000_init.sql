CREATE TABLE "login_attempts" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"sid" text PRIMARY KEY NOT NULL,
	"sess" jsonb NOT NULL,
	"expire" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_tokens" (
	"token" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"device" text,
	"user_role" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"profile_image_url" text,
	"phone" text,
	"current_dealership_id" text,
	"two_factor_secret" text,
	"two_factor_enabled" boolean DEFAULT false NOT NULL,
	"two_factor_backup_codes" text[] DEFAULT '{}' NOT NULL,
	"password_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "dealership_invites" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"dealership_id" text NOT NULL,
	"role" text NOT NULL,
	"invited_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dealership_users" (
	"user_id" text NOT NULL,
	"dealership_id" text NOT NULL,
	"role" text NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"added_by" text,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "dealership_users_user_id_dealership_id_pk" PRIMARY KEY("user_id","dealership_id")
);
--> statement-breakpoint
CREATE TABLE "dealerships" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text,
	"phone" text,
	"email" text,
	"logo" text,
	"website" text,
	"timezone" text DEFAULT 'America/Toronto' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" text PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"description" text,
	"status" text DEFAULT 'new' NOT NULL,
	"claimed_by" text,
	"claimed_at" timestamp with time zone,
	"dealership_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appointments" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"lead_id" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"description" text,
	"date" date NOT NULL,
	"time" text NOT NULL,
	"duration" integer DEFAULT 60 NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"arrived_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"actual_duration" integer,
	"created_by" text,
	"assigned_to" text,
	"dealership_id" text NOT NULL,
	"notification_sent" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_drive_units" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"year" text NOT NULL,
	"make" text NOT NULL,
	"model" text NOT NULL,
	"stock_number" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'available' NOT NULL,
	"current_test_drive_id" text,
	"current_user_id" text,
	"current_user_name" text,
	"taken_out_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dealership_testdrives" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"client_type" text NOT NULL,
	"lead_id" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"vehicle_type" text DEFAULT 'manual' NOT NULL,
	"vehicle_id" text,
	"tdu_id" text,
	"vehicle_driven" text,
	"stock_number" text,
	"test_drive_date" text,
	"test_drive_time" text,
	"id_photo_url" text,
	"status" text DEFAULT 'out' NOT NULL,
	"taken_out_by" text,
	"taken_out_at" timestamp with time zone,
	"returned_by" text,
	"returned_at" timestamp with time zone,
	"notes" text,
	"duration" integer,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vehicles" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"year" text NOT NULL,
	"make" text NOT NULL,
	"model" text NOT NULL,
	"trim" text,
	"stock_number" text NOT NULL,
	"vin" text,
	"condition" text NOT NULL,
	"price" integer,
	"mileage" integer,
	"exterior_color" text,
	"interior_color" text,
	"fuel_type" text,
	"transmission" text,
	"engine_type" text,
	"drivetrain" text,
	"features" text[] DEFAULT '{}' NOT NULL,
	"images" text[] DEFAULT '{}' NOT NULL,
	"description" text,
	"is_test_drive_enabled" boolean DEFAULT true NOT NULL,
	"test_drive_status" text DEFAULT 'available' NOT NULL,
	"current_test_drive_id" text,
	"current_client_name" text,
	"taken_out_at" timestamp with time zone,
	"taken_out_by" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_notification_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"user_id" text NOT NULL,
	"trigger_id" text NOT NULL,
	"is_subscribed" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_notification_triggers" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_verification_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"code" text NOT NULL,
	"invite_id" text,
	"is_used" boolean DEFAULT false NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emails_log" (
	"id" text PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"from" text NOT NULL,
	"subject" text NOT NULL,
	"body" text,
	"email_type" text NOT NULL,
	"dealership_id" text,
	"status" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"error_message" text
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	"target_users_role" text[] DEFAULT '{}' NOT NULL,
	"created_by" text,
	"url" text,
	"lead_id" text,
	"dealership_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"type" text,
	"url" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"target_user_ids" text[] DEFAULT '{}' NOT NULL,
	"target_roles" text[] DEFAULT '{}' NOT NULL,
	"lead_id" text,
	"dealership_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_enabled" boolean DEFAULT false NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_settings_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "platform_admin_dealership_access" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"dealership_id" text NOT NULL,
	"granted_by" text,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_admins" (
	"user_id" text PRIMARY KEY NOT NULL,
	"granted_by" text,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_invites" ADD CONSTRAINT "dealership_invites_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_invites" ADD CONSTRAINT "dealership_invites_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_users" ADD CONSTRAINT "dealership_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_users" ADD CONSTRAINT "dealership_users_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_users" ADD CONSTRAINT "dealership_users_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_drive_units" ADD CONSTRAINT "test_drive_units_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_drive_units" ADD CONSTRAINT "test_drive_units_current_user_id_users_id_fk" FOREIGN KEY ("current_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_drive_units" ADD CONSTRAINT "test_drive_units_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_testdrives" ADD CONSTRAINT "dealership_testdrives_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_testdrives" ADD CONSTRAINT "dealership_testdrives_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_testdrives" ADD CONSTRAINT "dealership_testdrives_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_testdrives" ADD CONSTRAINT "dealership_testdrives_tdu_id_test_drive_units_id_fk" FOREIGN KEY ("tdu_id") REFERENCES "public"."test_drive_units"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_testdrives" ADD CONSTRAINT "dealership_testdrives_taken_out_by_users_id_fk" FOREIGN KEY ("taken_out_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_testdrives" ADD CONSTRAINT "dealership_testdrives_returned_by_users_id_fk" FOREIGN KEY ("returned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealership_testdrives" ADD CONSTRAINT "dealership_testdrives_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_taken_out_by_users_id_fk" FOREIGN KEY ("taken_out_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_notification_subscriptions" ADD CONSTRAINT "email_notification_subscriptions_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_notification_subscriptions" ADD CONSTRAINT "email_notification_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_notification_subscriptions" ADD CONSTRAINT "email_notification_subscriptions_trigger_id_email_notification_triggers_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."email_notification_triggers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_notification_triggers" ADD CONSTRAINT "email_notification_triggers_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_verification_codes" ADD CONSTRAINT "email_verification_codes_invite_id_dealership_invites_id_fk" FOREIGN KEY ("invite_id") REFERENCES "public"."dealership_invites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emails_log" ADD CONSTRAINT "emails_log_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_notifications" ADD CONSTRAINT "push_notifications_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_notifications" ADD CONSTRAINT "push_notifications_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_settings" ADD CONSTRAINT "integration_settings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_settings" ADD CONSTRAINT "integration_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_admin_dealership_access" ADD CONSTRAINT "platform_admin_dealership_access_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_admin_dealership_access" ADD CONSTRAINT "platform_admin_dealership_access_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_admin_dealership_access" ADD CONSTRAINT "platform_admin_dealership_access_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_admins" ADD CONSTRAINT "platform_admins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_admins" ADD CONSTRAINT "platform_admins_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_expire_idx" ON "sessions" USING btree ("expire");--> statement-breakpoint
CREATE INDEX "dealership_invites_dealership_idx" ON "dealership_invites" USING btree ("dealership_id");--> statement-breakpoint
CREATE INDEX "dealership_invites_email_idx" ON "dealership_invites" USING btree ("email");--> statement-breakpoint
CREATE INDEX "dealership_users_dealership_idx" ON "dealership_users" USING btree ("dealership_id");--> statement-breakpoint
CREATE INDEX "leads_dealership_created_idx" ON "leads" USING btree ("dealership_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_dealership_new_idx" ON "leads" USING btree ("dealership_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "leads"."status" = 'new';--> statement-breakpoint
CREATE INDEX "leads_claimed_by_idx" ON "leads" USING btree ("claimed_by","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appointments_dealership_date_idx" ON "appointments" USING btree ("dealership_id","date","time");--> statement-breakpoint
CREATE INDEX "appointments_assigned_date_idx" ON "appointments" USING btree ("assigned_to","date","time");--> statement-breakpoint
CREATE INDEX "appointments_lead_idx" ON "appointments" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "appointments_dealership_created_idx" ON "appointments" USING btree ("dealership_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "test_drive_units_dealership_stock_uq" ON "test_drive_units" USING btree ("dealership_id","stock_number");--> statement-breakpoint
CREATE INDEX "testdrives_dealership_taken_out_idx" ON "dealership_testdrives" USING btree ("dealership_id","taken_out_at");--> statement-breakpoint
CREATE INDEX "testdrives_dealership_returned_idx" ON "dealership_testdrives" USING btree ("dealership_id","returned_at") WHERE "dealership_testdrives"."returned_at" is not null;--> statement-breakpoint
CREATE INDEX "testdrives_lead_idx" ON "dealership_testdrives" USING btree ("lead_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_dealership_stock_uq" ON "vehicles" USING btree ("dealership_id","stock_number");--> statement-breakpoint
CREATE UNIQUE INDEX "email_subscriptions_user_trigger_uq" ON "email_notification_subscriptions" USING btree ("user_id","trigger_id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_triggers_dealership_name_uq" ON "email_notification_triggers" USING btree ("dealership_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "email_verification_codes_email_invite_uq" ON "email_verification_codes" USING btree ("email","invite_id");--> statement-breakpoint
CREATE INDEX "emails_log_to_idx" ON "emails_log" USING btree ("to","sent_at");--> statement-breakpoint
CREATE INDEX "notifications_dealership_created_idx" ON "notifications" USING btree ("dealership_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_admin_access_user_dealership_uq" ON "platform_admin_dealership_access" USING btree ("user_id","dealership_id");