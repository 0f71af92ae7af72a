import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { VEHICLES_PAGE_MAX, type TestDriveUnit, type Vehicle, type VehicleCondition } from "../../shared/schemas/vehicle";
import type { DealershipRole } from "../../shared/constants";
import { mayOpenInventorySql } from "../access/inventory";
import { namesClientOfDriveSql } from "../access/test-drives";
import { roleSql, viewerOf, type PersonViewer, type Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { testDriveUnits, vehicles } from "../db/schema/test-drives";
import { vehiclesOfInterest } from "../db/schema/vehicles-of-interest";
import type { LinkedVehicle } from "../../shared/schemas/vehicle-of-interest";
import { encodePageCursor } from "../http/page-cursor";
import { likeContains } from "../leads/queries";
import { nextBookingSql } from "../test-drives/queries";

// SQL of the vehicle inventory and the test-drive units (part 2 §2, §3, §4; decision 062). Every member of a
// dealership sees its inventory; each statement carries `dealership_id = viewer.dealershipId` (decision 050). Adding
// and removing are management's, checked by the routes before these run. Taking out and returning live in
// src/server/test-drives/queries.ts: they change a drive and its vehicle in one transaction.

type Executor = Db | Tx;
export type VehicleRow = typeof vehicles.$inferSelect;
export type UnitRow = typeof testDriveUnits.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

interface Booking {
  testDriveId: string;
  testDriveDate: string;
  testDriveTime: string | null;
  clientName: string | null;
}

/** The vehicle's "Out with <client>": the name, or null when the viewer may not read it (the card says "a client"). */
function currentClientNameSql(viewer: Viewer): SQL<string | null> {
  const driveId = sql`"vehicles"."current_test_drive_id"`;
  return sql<string | null>`case when ${driveId} is null or ${namesClientOfDriveSql(viewer, driveId)}
    then "vehicles"."current_client_name" end`;
}

export function toVehicle(row: VehicleRow, booking: Booking | null, currentClientName: string | null = row.currentClientName): Vehicle {
  return {
    id: row.id,
    dealershipId: row.dealershipId,
    year: row.year,
    make: row.make,
    model: row.model,
    trim: row.trim,
    stockNumber: row.stockNumber,
    vin: row.vin,
    condition: row.condition,
    price: row.price,
    mileage: row.mileage,
    exteriorColor: row.exteriorColor,
    interiorColor: row.interiorColor,
    fuelType: row.fuelType,
    transmission: row.transmission,
    engineType: row.engineType,
    drivetrain: row.drivetrain,
    features: row.features,
    images: row.images,
    description: row.description,
    isTestDriveEnabled: row.isTestDriveEnabled,
    testDriveStatus: row.testDriveStatus,
    currentTestDriveId: row.currentTestDriveId,
    currentClientName,
    takenOutAt: iso(row.takenOutAt),
    takenOutBy: row.takenOutBy,
    isActive: row.isActive,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    booking,
  };
}

export function toUnit(row: UnitRow): TestDriveUnit {
  return {
    id: row.id,
    dealershipId: row.dealershipId,
    year: row.year,
    make: row.make,
    model: row.model,
    stockNumber: row.stockNumber,
    isActive: row.isActive,
    status: row.status,
    currentTestDriveId: row.currentTestDriveId,
    currentUserId: row.currentUserId,
    currentUserName: row.currentUserName,
    takenOutAt: iso(row.takenOutAt),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// ---- Page cursors: the stock number is unique per dealership, so it alone orders and continues a list ----

export function encodeStockCursor(stockNumber: string): string {
  return encodePageCursor([stockNumber]);
}

/** The stock number a cursor's one part carries, or null when it is not one we could have written (a 400). */
export function stockCursorOf([stockNumber]: string[]): string | null {
  return stockNumber && stockNumber.length <= 50 ? stockNumber : null;
}

// ---- Vehicles ----

export interface VehicleFilters {
  q?: string;
  make?: string;
  model?: string;
  year?: string;
  condition?: VehicleCondition;
  status?: "available" | "out";
  limit: number;
  cursor?: string;
}

/**
 * The earliest scheduled drive of the vehicle from `today` on (the "booked" icon, decision 062). "vehicles"."id" is
 * written qualified: drizzle writes a single-table query's columns bare, which inside the subquery would be the drive's.
 */
function bookingOf(viewer: Viewer, today: string): SQL<Booking | null> {
  return nextBookingSql(viewer, sql`"vehicles"."id"`, today);
}

/** One page of the inventory in stock-number order, with the next page's cursor. */
export async function listVehicles(
  db: Executor,
  viewer: Viewer,
  filters: VehicleFilters,
  today: string,
): Promise<{ vehicles: Vehicle[]; next: string | null }> {
  const where: SQL[] = [mayOpenInventorySql(viewer, vehicles)];
  if (filters.q) {
    const text = sql`concat_ws(' ', ${vehicles.year}, ${vehicles.make}, ${vehicles.model}, ${vehicles.trim}, ${vehicles.stockNumber}, ${vehicles.vin}, ${vehicles.exteriorColor})`;
    where.push(sql`${text} ilike ${likeContains(filters.q)}`);
  }
  if (filters.make) where.push(sql`lower(${vehicles.make}) = lower(${filters.make})`);
  if (filters.model) where.push(sql`lower(${vehicles.model}) = lower(${filters.model})`);
  if (filters.year) where.push(eq(vehicles.year, filters.year));
  if (filters.condition) where.push(eq(vehicles.condition, filters.condition));
  if (filters.status) where.push(eq(vehicles.testDriveStatus, filters.status));
  if (filters.cursor !== undefined) where.push(sql`${vehicles.stockNumber} > ${filters.cursor}`);
  const limit = Math.min(filters.limit, VEHICLES_PAGE_MAX);
  const rows = await db
    .select({ vehicle: vehicles, booking: bookingOf(viewer, today), clientName: currentClientNameSql(viewer) })
    .from(vehicles)
    .where(and(...where))
    .orderBy(asc(vehicles.stockNumber))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    vehicles: page.map((r) => toVehicle(r.vehicle, r.booking, r.clientName)),
    next: rows.length > limit && last ? encodeStockCursor(last.vehicle.stockNumber) : null,
  };
}

export async function vehicleOf(db: Executor, viewer: Viewer, id: string, today: string): Promise<Vehicle | undefined> {
  const [row] = await db
    .select({ vehicle: vehicles, booking: bookingOf(viewer, today), clientName: currentClientNameSql(viewer) })
    .from(vehicles)
    .where(and(eq(vehicles.id, id), mayOpenInventorySql(viewer, vehicles)))
    .limit(1);
  return row ? toVehicle(row.vehicle, row.booking, row.clientName) : undefined;
}

/**
 * The lead's vehicles of interest found in the inventory (decision 188), as the inventory shows each one to this
 * viewer, in the order the document named them. The caller has checked that the viewer may open the lead.
 */
export async function linkedVehiclesOf(db: Executor, viewer: Viewer, leadId: string, today: string): Promise<LinkedVehicle[]> {
  const rows = await db
    .select({
      interest: vehiclesOfInterest.interest,
      byVin: sql<boolean>`coalesce(${vehiclesOfInterest.vin} = ${vehicles.vin}, false)`,
      vehicle: vehicles,
      booking: bookingOf(viewer, today),
      clientName: currentClientNameSql(viewer),
    })
    .from(vehiclesOfInterest)
    .innerJoin(vehicles, eq(vehicles.id, vehiclesOfInterest.vehicleId))
    .where(and(eq(vehiclesOfInterest.leadId, leadId), eq(vehiclesOfInterest.dealershipId, viewer.dealershipId), eq(vehicles.dealershipId, viewer.dealershipId)))
    .orderBy(asc(vehiclesOfInterest.createdAt), asc(vehiclesOfInterest.id));
  // One card per vehicle, however many times the document named it.
  const seen = new Set<string>();
  return rows.flatMap((r) => {
    if (seen.has(r.vehicle.id)) return [];
    seen.add(r.vehicle.id);
    return [{ interest: r.interest, matchedOn: r.byVin ? ("vin" as const) : ("stockNumber" as const), vehicle: toVehicle(r.vehicle, r.booking, r.clientName) }];
  });
}

export type NewVehicle = Omit<typeof vehicles.$inferInsert, "id" | "dealershipId" | "createdBy" | "createdAt" | "updatedAt">;

/** A new vehicle, or undefined when the stock number is already in this dealership's inventory (the unique index). */
export async function addVehicle(db: Executor, viewer: Viewer, values: NewVehicle): Promise<VehicleRow | undefined> {
  const [row] = await db
    .insert(vehicles)
    .values({ ...values, dealershipId: viewer.dealershipId, createdBy: viewer.userId })
    .onConflictDoNothing({ target: [vehicles.dealershipId, vehicles.stockNumber] })
    .returning();
  return row;
}

/** The removed row, or what stopped the removal. */
export type RemoveOutcome<Row> = { removed: Row } | "out" | "missing";

/**
 * Removes a vehicle that is not out (decision 062: a removal is a delete; past drives keep the name and stock number
 * they were driven under). The condition is in the DELETE; what stopped it is read only to choose the answer.
 */
export async function removeVehicle(db: Executor, viewer: Viewer, id: string): Promise<RemoveOutcome<VehicleRow>> {
  const scope = and(eq(vehicles.id, id), mayOpenInventorySql(viewer, vehicles));
  const [deleted] = await db.delete(vehicles).where(and(scope, eq(vehicles.testDriveStatus, "available"))).returning();
  if (deleted) return { removed: deleted };
  const [left] = await db.select({ id: vehicles.id }).from(vehicles).where(scope).limit(1);
  return left ? "out" : "missing";
}

// ---- Test-drive units ----

export async function listUnits(
  db: Executor,
  viewer: Viewer,
  filters: { q?: string; status?: "available" | "out"; limit: number; cursor?: string },
): Promise<{ units: TestDriveUnit[]; next: string | null }> {
  const where: SQL[] = [mayOpenInventorySql(viewer, testDriveUnits)];
  if (filters.q) {
    const text = sql`concat_ws(' ', ${testDriveUnits.year}, ${testDriveUnits.make}, ${testDriveUnits.model}, ${testDriveUnits.stockNumber})`;
    where.push(sql`${text} ilike ${likeContains(filters.q)}`);
  }
  if (filters.status) where.push(eq(testDriveUnits.status, filters.status));
  if (filters.cursor !== undefined) where.push(sql`${testDriveUnits.stockNumber} > ${filters.cursor}`);
  const limit = Math.min(filters.limit, VEHICLES_PAGE_MAX);
  const rows = await db
    .select()
    .from(testDriveUnits)
    .where(and(...where))
    .orderBy(asc(testDriveUnits.stockNumber))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { units: page.map(toUnit), next: rows.length > limit && last ? encodeStockCursor(last.stockNumber) : null };
}

export async function unitOf(db: Executor, viewer: Viewer, id: string): Promise<TestDriveUnit | undefined> {
  const [row] = await db
    .select()
    .from(testDriveUnits)
    .where(and(eq(testDriveUnits.id, id), mayOpenInventorySql(viewer, testDriveUnits)))
    .limit(1);
  return row ? toUnit(row) : undefined;
}

export async function addUnit(
  db: Executor,
  viewer: Viewer,
  values: { year: string; make: string; model: string; stockNumber: string },
): Promise<UnitRow | undefined> {
  const [row] = await db
    .insert(testDriveUnits)
    .values({ ...values, dealershipId: viewer.dealershipId, createdBy: viewer.userId })
    .onConflictDoNothing({ target: [testDriveUnits.dealershipId, testDriveUnits.stockNumber] })
    .returning();
  return row;
}

export async function removeUnit(db: Executor, viewer: Viewer, id: string): Promise<RemoveOutcome<UnitRow>> {
  const scope = and(eq(testDriveUnits.id, id), mayOpenInventorySql(viewer, testDriveUnits));
  const [deleted] = await db.delete(testDriveUnits).where(and(scope, eq(testDriveUnits.status, "available"))).returning();
  if (deleted) return { removed: deleted };
  const [left] = await db.select({ id: testDriveUnits.id }).from(testDriveUnits).where(scope).limit(1);
  return left ? "out" : "missing";
}

/**
 * The viewer of a vehicle or unit path (/api/vehicles/{id}, /api/test-drive-units/{id}): the user's role in the
 * dealership that holds it, found in the same query, so one of a dealership the user cannot reach is not found.
 */
export async function inventoryViewer(db: Executor, userId: string, kind: "vehicle" | "tdu", id: string): Promise<PersonViewer | undefined> {
  const table = kind === "vehicle" ? vehicles : testDriveUnits;
  // Qualified: in roleSql's subquery an unqualified "dealership_id" would be the membership's own column.
  const role = roleSql(userId, sql.raw(kind === "vehicle" ? `"vehicles"."dealership_id"` : `"test_drive_units"."dealership_id"`));
  const [row] = await db
    .select({ dealershipId: table.dealershipId, role: sql<DealershipRole | null>`${role}` })
    .from(table)
    .where(eq(table.id, id))
    .limit(1);
  return row?.role ? viewerOf(userId, row.dealershipId, row.role) : undefined;
}
