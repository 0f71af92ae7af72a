CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"type" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"assignee_id" text,
	"created_by" text,
	"status" text DEFAULT 'open' NOT NULL,
	"note" text,
	"completed_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"origin" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_assignee_status_due_idx" ON "tasks" USING btree ("assignee_id","status","due_at");--> statement-breakpoint
CREATE INDEX "tasks_dealership_status_due_idx" ON "tasks" USING btree ("dealership_id","status","due_at");--> statement-breakpoint
CREATE INDEX "tasks_lead_idx" ON "tasks" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "tasks_reminder_due_idx" ON "tasks" USING btree ("due_at") WHERE "tasks"."status" = 'open' and "tasks"."reminded_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_origin_uq" ON "tasks" USING btree ("origin") WHERE "tasks"."origin" is not null;