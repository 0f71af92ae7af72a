CREATE TABLE "installation_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_deliveries" (
	"push_notification_id" text NOT NULL,
	"token" text NOT NULL,
	"delivered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_deliveries_push_notification_id_token_pk" PRIMARY KEY("push_notification_id","token")
);
--> statement-breakpoint
ALTER TABLE "user_tokens" ADD COLUMN "p256dh" text;--> statement-breakpoint
ALTER TABLE "user_tokens" ADD COLUMN "auth" text;--> statement-breakpoint
ALTER TABLE "user_tokens" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_push_notification_id_push_notifications_id_fk" FOREIGN KEY ("push_notification_id") REFERENCES "public"."push_notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_token_user_tokens_token_fk" FOREIGN KEY ("token") REFERENCES "public"."user_tokens"("token") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens_session_id_sessions_sid_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("sid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_tokens_user_idx" ON "user_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_tokens_session_idx" ON "user_tokens" USING btree ("session_id");