CREATE TABLE "vehicles_of_interest" (
	"id" text PRIMARY KEY NOT NULL,
	"dealership_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"interest" text NOT NULL,
	"vin" text,
	"stock_number" text,
	"vehicle_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vehicles_of_interest" ADD CONSTRAINT "vehicles_of_interest_dealership_id_dealerships_id_fk" FOREIGN KEY ("dealership_id") REFERENCES "public"."dealerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles_of_interest" ADD CONSTRAINT "vehicles_of_interest_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles_of_interest" ADD CONSTRAINT "vehicles_of_interest_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vehicles_of_interest_lead_idx" ON "vehicles_of_interest" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "vehicles_of_interest_vehicle_idx" ON "vehicles_of_interest" USING btree ("vehicle_id") WHERE "vehicles_of_interest"."vehicle_id" is not null;--> statement-breakpoint
CREATE INDEX "vehicles_of_interest_unmatched_vin_idx" ON "vehicles_of_interest" USING btree ("dealership_id","vin") WHERE "vehicles_of_interest"."vehicle_id" is null and "vehicles_of_interest"."vin" is not null;--> statement-breakpoint
CREATE INDEX "vehicles_of_interest_unmatched_stock_idx" ON "vehicles_of_interest" USING btree ("dealership_id",upper("stock_number")) WHERE "vehicles_of_interest"."vehicle_id" is null and "vehicles_of_interest"."stock_number" is not null;