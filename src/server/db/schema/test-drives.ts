import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { TEST_DRIVE_STATUSES } from "../../../shared/schemas/test-drive";
import { at, createdAt, id, updatedAt } from "./columns";
import { dealerships } from "./dealerships";
import { leads } from "./leads";
import { users } from "./users";

export const vehicles = pgTable(
  "vehicles",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    year: text("year").notNull(),
    make: text("make").notNull(),
    model: text("model").notNull(),
    trim: text("trim"),
    stockNumber: text("stock_number").notNull(),
    vin: text("vin"),
    condition: text("condition", { enum: ["new", "used"] }).notNull(),
    /** Cents (part 2 §3). */
    price: integer("price"),
    mileage: integer("mileage"),
    exteriorColor: text("exterior_color"),
    interiorColor: text("interior_color"),
    fuelType: text("fuel_type"),
    transmission: text("transmission"),
    engineType: text("engine_type"),
    drivetrain: text("drivetrain"),
    features: text("features").array().notNull().default([]),
    images: text("images").array().notNull().default([]),
    description: text("description"),
    isTestDriveEnabled: boolean("is_test_drive_enabled").notNull().default(true),
    testDriveStatus: text("test_drive_status", { enum: ["available", "out"] }).notNull().default("available"),
    currentTestDriveId: text("current_test_drive_id"),
    currentClientName: text("current_client_name"),
    takenOutAt: at("taken_out_at"),
    takenOutBy: text("taken_out_by").references(() => users.id, { onDelete: "set null" }),
    isActive: boolean("is_active").notNull().default(true),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The unique index also walks the list in stock-number order, which is its page key (decision 062).
  (t) => [uniqueIndex("vehicles_dealership_stock_uq").on(t.dealershipId, t.stockNumber)],
);

export const testDriveUnits = pgTable(
  "test_drive_units",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    year: text("year").notNull(),
    make: text("make").notNull(),
    model: text("model").notNull(),
    stockNumber: text("stock_number").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    status: text("status", { enum: ["available", "out"] }).notNull().default("available"),
    currentTestDriveId: text("current_test_drive_id"),
    currentUserId: text("current_user_id").references(() => users.id, { onDelete: "set null" }),
    currentUserName: text("current_user_name"),
    takenOutAt: at("taken_out_at"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("test_drive_units_dealership_stock_uq").on(t.dealershipId, t.stockNumber)],
);

export const testDrives = pgTable(
  "dealership_testdrives",
  {
    id: id(),
    dealershipId: text("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "cascade" }),
    clientType: text("client_type", { enum: ["existing", "new"] }).notNull(),
    leadId: text("lead_id").references(() => leads.id, { onDelete: "set null" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email"),
    phone: text("phone"),
    vehicleType: text("vehicle_type", { enum: ["vehicle", "tdu", "manual"] }).notNull().default("manual"),
    vehicleId: text("vehicle_id").references(() => vehicles.id, { onDelete: "set null" }),
    tduId: text("tdu_id").references(() => testDriveUnits.id, { onDelete: "set null" }),
    vehicleDriven: text("vehicle_driven"),
    stockNumber: text("stock_number"),
    testDriveDate: text("test_drive_date"),
    testDriveTime: text("test_drive_time"),
    idPhotoUrl: text("id_photo_url"),
    /** Stored statuses (decision 063): scheduled, out, completed, cancelled, no_show. */
    status: text("status", { enum: TEST_DRIVE_STATUSES }).notNull().default("out"),
    takenOutBy: text("taken_out_by").references(() => users.id, { onDelete: "set null" }),
    takenOutAt: at("taken_out_at"),
    returnedBy: text("returned_by").references(() => users.id, { onDelete: "set null" }),
    returnedAt: at("returned_at"),
    notes: text("notes"),
    duration: integer("duration"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Analytics read the period's drives from this index alone (decision 069): the columns they show are included.
    index("testdrives_dealership_taken_out_idx")
      .on(t.dealershipId, t.takenOutAt, t.takenOutBy, t.vehicleId, t.tduId, t.stockNumber, t.vehicleDriven, t.duration),
    index("testdrives_dealership_returned_idx")
      .on(t.dealershipId, t.returnedAt)
      .where(sql`${t.returnedAt} is not null`),
    index("testdrives_lead_idx").on(t.leadId),
    // A vehicle or unit is out on at most one drive: the database refuses a second, whatever the code does (decision 062).
    uniqueIndex("testdrives_vehicle_out_uq").on(t.vehicleId).where(sql`${t.status} = 'out' and ${t.vehicleId} is not null`),
    uniqueIndex("testdrives_tdu_out_uq").on(t.tduId).where(sql`${t.status} = 'out' and ${t.tduId} is not null`),
    // The "booked" icon and the upcoming bookings: scheduled drives by vehicle and by date.
    index("testdrives_vehicle_scheduled_idx")
      .on(t.vehicleId, t.testDriveDate, t.testDriveTime)
      .where(sql`${t.status} = 'scheduled'`),
    index("testdrives_dealership_scheduled_idx")
      .on(t.dealershipId, t.testDriveDate, t.testDriveTime)
      .where(sql`${t.status} = 'scheduled'`),
    index("testdrives_dealership_created_idx").on(t.dealershipId, t.createdAt),
    // Sales rep analytics: a rep's drives in a period (counted, and the latest three) from the index alone.
    index("testdrives_taken_out_by_idx").on(t.takenOutBy, t.takenOutAt, t.dealershipId).where(sql`${t.takenOutBy} is not null`),
  ],
);
