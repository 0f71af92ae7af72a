import { and, asc, desc, eq, gte, isNotNull, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { nanoid } from "nanoid";
import type { DealershipRole } from "../../shared/constants";
import type { TestDriveChanges, TestDriveSnapshot } from "../../shared/events";
import type { TestDrive, TestDriveStatus, TestDriveVehicleType } from "../../shared/schemas/test-drive";
import { mayOpenTestDriveSql, namesClientOfDriveSql, openTestDriveSql } from "../access/test-drives";
import { roleSql, viewerOf, type PersonViewer, type Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { testDriveUnits, testDrives, vehicles } from "../db/schema/test-drives";
import { users } from "../db/schema/users";
import { isUniqueViolation } from "../users/queries";

// SQL of test drives (part 2 §2-§5; decisions 062-064). Scoped data access (decision 050): every statement
// carries the dealership and the viewer's visibility; a take-out is one conditional UPDATE of the vehicle (or unit)
// that only an available one matches, so of any number of simultaneous take-outs exactly one wins, and the partial
// unique indexes testdrives_vehicle_out_uq / testdrives_tdu_out_uq refuse a second open drive whatever the code does.

type Executor = Db | Tx;
export type TestDriveRow = typeof testDrives.$inferSelect;

/**
 * A column written with its table's name. Drizzle writes a single-table query's columns unqualified, and inside a
 * subquery over other tables an unqualified "dealership_id" or "lead_id" would mean the subquery's own column.
 */
const DRIVE = {
  dealershipId: sql`"dealership_testdrives"."dealership_id"`,
  leadId: sql`"dealership_testdrives"."lead_id"`,
};

/** The drive's columns for the access rule (access/test-drives.ts), qualified: it reads them inside a subquery. */
const DRIVE_COLUMNS = {
  dealershipId: DRIVE.dealershipId,
  leadId: DRIVE.leadId,
  takenOutBy: sql`"dealership_testdrives"."taken_out_by"`,
  createdBy: sql`"dealership_testdrives"."created_by"`,
};

/** Who sees a drive (decision 064): access/test-drives.ts, for a viewer known before the query. */
function visibleTo(viewer: Viewer): SQL {
  return mayOpenTestDriveSql(viewer, DRIVE_COLUMNS);
}

const takenOutByUser = alias(users, "taken_out_by_user");
const takenOutByName = sql<string | null>`nullif(trim(coalesce(${takenOutByUser.firstName}, '') || ' ' || coalesce(${takenOutByUser.lastName}, '')), '')`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toTestDrive(row: TestDriveRow, takenOutName: string | null): TestDrive {
  return {
    id: row.id,
    dealershipId: row.dealershipId,
    clientType: row.clientType,
    leadId: row.leadId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    vehicleType: row.vehicleType,
    vehicleId: row.vehicleId,
    tduId: row.tduId,
    vehicleDriven: row.vehicleDriven,
    stockNumber: row.stockNumber,
    testDriveDate: row.testDriveDate,
    testDriveTime: row.testDriveTime,
    idPhotoUrl: row.idPhotoUrl,
    status: row.status,
    takenOutBy: row.takenOutBy,
    takenOutByName: takenOutName,
    takenOutAt: iso(row.takenOutAt),
    returnedBy: row.returnedBy,
    returnedAt: iso(row.returnedAt),
    notes: row.notes,
    duration: row.duration,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function testDriveSnapshot(row: TestDriveRow): TestDriveSnapshot {
  return {
    id: row.id,
    leadId: row.leadId,
    firstName: row.firstName,
    lastName: row.lastName,
    vehicleType: row.vehicleType,
    vehicleId: row.vehicleId,
    tduId: row.tduId,
    vehicleDriven: row.vehicleDriven,
    stockNumber: row.stockNumber,
    testDriveDate: row.testDriveDate,
    testDriveTime: row.testDriveTime,
    status: row.status,
    takenOutBy: row.takenOutBy,
    takenOutAt: iso(row.takenOutAt),
    returnedAt: iso(row.returnedAt),
    duration: row.duration,
  };
}

function selectDrives(db: Executor) {
  return db
    .select({ drive: testDrives, takenOutByName })
    .from(testDrives)
    .leftJoin(takenOutByUser, eq(takenOutByUser.id, testDrives.takenOutBy));
}

/** One drive the viewer may see, with the sales associate's name. */
export async function testDriveOf(db: Executor, viewer: Viewer, id: string): Promise<TestDrive | undefined> {
  const [row] = await selectDrives(db).where(and(eq(testDrives.id, id), visibleTo(viewer))).limit(1);
  return row ? toTestDrive(row.drive, row.takenOutByName) : undefined;
}

/**
 * A drive the user may see, found with the viewer it is seen as (the object routes /api/test-drives/{id}): undefined
 * for a missing drive, another dealership's, or a colleague's client's drive for a sales rep. `lock` holds the row
 * until the transaction ends, so a status change decides from the status it then writes over.
 */
export async function findVisibleTestDrive(
  db: Executor,
  userId: string,
  id: string,
  lock = false,
): Promise<{ row: TestDriveRow; viewer: PersonViewer } | undefined> {
  const role = roleSql(userId, DRIVE.dealershipId);
  const query = db
    .select({ drive: testDrives, role: sql<DealershipRole>`${role}` })
    .from(testDrives)
    .where(and(eq(testDrives.id, id), openTestDriveSql({ userId, role }, DRIVE_COLUMNS)))
    .limit(1);
  const [row] = lock ? await query.for("update", { of: testDrives }) : await query;
  return row ? { row: row.drive, viewer: viewerOf(userId, row.drive.dealershipId, row.role) } : undefined;
}

/** A lead's drives, newest first (the lead detail page; the route has checked the lead is visible). */
export async function testDrivesOfLead(db: Executor, viewer: Viewer, leadId: string): Promise<TestDrive[]> {
  const rows = await selectDrives(db)
    .where(and(eq(testDrives.leadId, leadId), visibleTo(viewer)))
    .orderBy(desc(testDrives.createdAt), desc(testDrives.id));
  return rows.map((r) => toTestDrive(r.drive, r.takenOutByName));
}

/** The dealership's drives: bookings from today on soonest first, anything else newest first (decision 064). */
export async function listTestDrives(
  db: Executor,
  viewer: Viewer,
  options: { status?: TestDriveStatus; limit: number; today: string },
): Promise<TestDrive[]> {
  const where: SQL[] = [visibleTo(viewer)];
  if (options.status) where.push(eq(testDrives.status, options.status));
  if (options.status === "scheduled") where.push(gte(testDrives.testDriveDate, options.today));
  // Bookings soonest first; returned drives most recently back first (the Returned list, issue 30); others newest first.
  const order =
    options.status === "scheduled"
      ? [asc(testDrives.testDriveDate), sql`${testDrives.testDriveTime} asc nulls last`, asc(testDrives.id)]
      : options.status === "completed"
        ? [sql`${testDrives.returnedAt} desc nulls last`, desc(testDrives.id)]
        : [desc(testDrives.createdAt), desc(testDrives.id)];
  const rows = await selectDrives(db)
    .where(and(...where))
    .orderBy(...order)
    .limit(options.limit);
  return rows.map((r) => toTestDrive(r.drive, r.takenOutByName));
}

// ---- Taking out ----

/** What a drive is taken out or booked with: the vehicle's name and stock number as the drive keeps them. */
export interface DriveVehicle {
  vehicleDriven: string;
  stockNumber: string | null;
}

export type ClaimVehicleOutcome = { vehicle: DriveVehicle } | { refused: "missing" | "out" | "unavailable" };

function vehicleName(v: { year: string; make: string; model: string; trim?: string | null }): string {
  return [v.year, v.make, v.model, v.trim].filter(Boolean).join(" ");
}

/**
 * Marks an inventory vehicle out on `driveId`: one conditional UPDATE that only an available, active, test-drive
 * enabled vehicle of the viewer's dealership matches. A refusal is read afterwards only to word the answer.
 */
export async function takeOutVehicle(
  tx: Tx,
  viewer: Viewer,
  vehicleId: string,
  driveId: string,
  clientName: string,
): Promise<ClaimVehicleOutcome> {
  const scope = and(eq(vehicles.id, vehicleId), eq(vehicles.dealershipId, viewer.dealershipId));
  const [row] = await tx
    .update(vehicles)
    .set({
      testDriveStatus: "out",
      currentTestDriveId: driveId,
      currentClientName: clientName,
      takenOutAt: sql`now()`,
      takenOutBy: viewer.userId,
      updatedAt: sql`now()`,
    })
    .where(and(scope, eq(vehicles.testDriveStatus, "available"), eq(vehicles.isActive, true), eq(vehicles.isTestDriveEnabled, true)))
    .returning();
  if (row) return { vehicle: { vehicleDriven: vehicleName(row), stockNumber: row.stockNumber } };
  const [left] = await tx.select({ status: vehicles.testDriveStatus }).from(vehicles).where(scope).limit(1);
  if (!left) return { refused: "missing" };
  return { refused: left.status === "out" ? "out" : "unavailable" };
}

/** The same for a test-drive unit; the unit records who has it. */
export async function takeOutUnit(tx: Tx, viewer: Viewer, unitId: string, driveId: string, userName: string): Promise<ClaimVehicleOutcome> {
  const scope = and(eq(testDriveUnits.id, unitId), eq(testDriveUnits.dealershipId, viewer.dealershipId));
  const [row] = await tx
    .update(testDriveUnits)
    .set({
      status: "out",
      currentTestDriveId: driveId,
      currentUserId: viewer.userId,
      currentUserName: userName,
      takenOutAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(scope, eq(testDriveUnits.status, "available"), eq(testDriveUnits.isActive, true)))
    .returning();
  if (row) return { vehicle: { vehicleDriven: vehicleName(row), stockNumber: row.stockNumber } };
  const [left] = await tx.select({ status: testDriveUnits.status }).from(testDriveUnits).where(scope).limit(1);
  if (!left) return { refused: "missing" };
  return { refused: left.status === "out" ? "out" : "unavailable" };
}

/** A vehicle or unit of the viewer's dealership as a booking names it (not taken out: nothing is locked). */
export async function bookableVehicle(
  db: Executor,
  viewer: Viewer,
  type: Exclude<TestDriveVehicleType, "manual">,
  id: string,
): Promise<DriveVehicle | undefined> {
  if (type === "vehicle") {
    const [v] = await db
      .select()
      .from(vehicles)
      .where(and(eq(vehicles.id, id), eq(vehicles.dealershipId, viewer.dealershipId), eq(vehicles.isActive, true)))
      .limit(1);
    return v ? { vehicleDriven: vehicleName(v), stockNumber: v.stockNumber } : undefined;
  }
  const [u] = await db
    .select()
    .from(testDriveUnits)
    .where(and(eq(testDriveUnits.id, id), eq(testDriveUnits.dealershipId, viewer.dealershipId), eq(testDriveUnits.isActive, true)))
    .limit(1);
  return u ? { vehicleDriven: vehicleName(u), stockNumber: u.stockNumber } : undefined;
}

export type NewTestDrive = Omit<typeof testDrives.$inferInsert, "dealershipId" | "createdBy" | "createdAt" | "updatedAt"> & { id: string };

/**
 * The new drive, or undefined when the database refuses a second open drive of its vehicle or unit (the partial unique
 * indexes): data from elsewhere may say "available" while a drive is still out on it.
 */
export async function insertTestDrive(tx: Tx, viewer: Viewer, values: NewTestDrive): Promise<TestDriveRow | undefined> {
  try {
    const [row] = await tx
      .insert(testDrives)
      .values({ ...values, dealershipId: viewer.dealershipId, createdBy: viewer.userId })
      .returning();
    if (!row) throw new Error("test drive insert returned nothing");
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

export function newTestDriveId(): string {
  return nanoid();
}

// ---- Returning ----

/** Frees whatever vehicle or unit the drive holds (a return, a cancellation, a deletion). */
export async function releaseVehicleOf(tx: Tx, dealershipId: string, driveId: string): Promise<void> {
  await tx
    .update(vehicles)
    .set({ testDriveStatus: "available", currentTestDriveId: null, currentClientName: null, takenOutAt: null, takenOutBy: null, updatedAt: sql`now()` })
    .where(and(eq(vehicles.dealershipId, dealershipId), eq(vehicles.currentTestDriveId, driveId)));
  await tx
    .update(testDriveUnits)
    .set({ status: "available", currentTestDriveId: null, currentUserId: null, currentUserName: null, takenOutAt: null, updatedAt: sql`now()` })
    .where(and(eq(testDriveUnits.dealershipId, dealershipId), eq(testDriveUnits.currentTestDriveId, driveId)));
}

/** Whole minutes from taking out to now, rounded (decision 063). */
const minutesOut = sql<number>`greatest(0, round(extract(epoch from (now() - ${testDrives.takenOutAt})) / 60))::int`;

/**
 * Ends open drives matching `which` in the viewer's dealership: completed, returnedAt, returnedBy, duration, and the
 * vehicle or unit available again. Only a drive still out matches, so of two returns one ends it and the other finds
 * nothing (409).
 */
async function returnWhere(tx: Tx, viewer: Viewer, which: SQL): Promise<TestDriveRow | undefined> {
  const [row] = await tx
    .update(testDrives)
    .set({ status: "completed", returnedAt: sql`now()`, returnedBy: viewer.userId, duration: minutesOut, updatedAt: sql`now()` })
    .where(and(which, eq(testDrives.dealershipId, viewer.dealershipId), eq(testDrives.status, "out")))
    .returning();
  if (row) await releaseVehicleOf(tx, viewer.dealershipId, row.id);
  return row;
}

export function returnTestDrive(tx: Tx, viewer: Viewer, driveId: string): Promise<TestDriveRow | undefined> {
  return returnWhere(tx, viewer, eq(testDrives.id, driveId));
}

export type VehicleReturn = { drive: TestDriveRow | undefined; returned: true } | { returned: false; found: boolean };

/**
 * "Mark Returned" on an inventory vehicle or unit: ends its open drive, then frees it. A vehicle marked out without an
 * open drive (none is made that way, but data from elsewhere may be) is freed alone.
 */
export async function returnVehicle(tx: Tx, viewer: Viewer, kind: "vehicle" | "tdu", id: string): Promise<VehicleReturn> {
  const drive = await returnWhere(tx, viewer, kind === "vehicle" ? eq(testDrives.vehicleId, id) : eq(testDrives.tduId, id));
  if (drive) return { drive, returned: true };
  if (kind === "vehicle") {
    const scope = and(eq(vehicles.id, id), eq(vehicles.dealershipId, viewer.dealershipId));
    const freed = await tx
      .update(vehicles)
      .set({ testDriveStatus: "available", currentTestDriveId: null, currentClientName: null, takenOutAt: null, takenOutBy: null, updatedAt: sql`now()` })
      .where(and(scope, eq(vehicles.testDriveStatus, "out")))
      .returning({ id: vehicles.id });
    if (freed.length > 0) return { drive: undefined, returned: true };
    const [left] = await tx.select({ id: vehicles.id }).from(vehicles).where(scope).limit(1);
    return { returned: false, found: Boolean(left) };
  }
  const scope = and(eq(testDriveUnits.id, id), eq(testDriveUnits.dealershipId, viewer.dealershipId));
  const freed = await tx
    .update(testDriveUnits)
    .set({ status: "available", currentTestDriveId: null, currentUserId: null, currentUserName: null, takenOutAt: null, updatedAt: sql`now()` })
    .where(and(scope, eq(testDriveUnits.status, "out")))
    .returning({ id: testDriveUnits.id });
  if (freed.length > 0) return { drive: undefined, returned: true };
  const [left] = await tx.select({ id: testDriveUnits.id }).from(testDriveUnits).where(scope).limit(1);
  return { returned: false, found: Boolean(left) };
}

// ---- Editing, status, deleting ----

const driveBefore = alias(testDrives, "before");
const EDITED_FIELDS = ["vehicleDriven", "stockNumber", "testDriveDate", "testDriveTime", "notes"] as const;
type EditedField = (typeof EDITED_FIELDS)[number];

/**
 * The detail screen's edit of a drive the viewer may see, answering the row and each field it changed (before and
 * after, read in the UPDATE from the row it replaced), or undefined when none matched.
 */
export async function updateTestDrive(
  tx: Tx,
  viewer: Viewer,
  id: string,
  changes: Partial<Pick<TestDriveRow, EditedField>>,
): Promise<{ row: TestDriveRow; changes: TestDriveChanges } | undefined> {
  const [result] = await tx
    .update(testDrives)
    .set({ ...changes, updatedAt: sql`now()` })
    .from(driveBefore)
    .where(and(eq(testDrives.id, id), eq(driveBefore.id, testDrives.id), visibleTo(viewer)))
    .returning({
      row: testDrives,
      vehicleDriven: driveBefore.vehicleDriven,
      stockNumber: driveBefore.stockNumber,
      testDriveDate: driveBefore.testDriveDate,
      testDriveTime: driveBefore.testDriveTime,
      notes: driveBefore.notes,
    });
  if (!result) return undefined;
  const { row, ...before } = result;
  const changed: Record<string, { before: unknown; after: unknown }> = {};
  for (const field of EDITED_FIELDS) if (before[field] !== row[field]) changed[field] = { before: before[field], after: row[field] };
  return { row, changes: changed as TestDriveChanges };
}

/** Writes a status and what goes with it (decision 063), on a row the caller holds locked. */
export async function writeStatus(tx: Tx, viewer: Viewer, row: TestDriveRow, status: TestDriveStatus): Promise<TestDriveRow> {
  const set: Record<string, unknown> = { status, updatedAt: sql`now()` };
  if (status === "out") {
    // Back on the road: the open drive has no return yet; the first take-out time and associate stay.
    Object.assign(set, {
      takenOutAt: sql`coalesce(${testDrives.takenOutAt}, now())`,
      takenOutBy: row.takenOutBy ?? viewer.userId,
      returnedAt: null,
      returnedBy: null,
      duration: null,
    });
  } else if (status === "completed") {
    Object.assign(set, { returnedAt: sql`coalesce(${testDrives.returnedAt}, now())`, returnedBy: row.returnedBy ?? viewer.userId });
  }
  const [updated] = await tx
    .update(testDrives)
    .set(set as Partial<typeof testDrives.$inferInsert>)
    .where(and(eq(testDrives.id, row.id), eq(testDrives.dealershipId, viewer.dealershipId)))
    .returning();
  if (!updated) throw new Error("a locked test drive vanished");
  return updated;
}

export async function deleteTestDrive(tx: Tx, viewer: Viewer, id: string): Promise<TestDriveRow | undefined> {
  const [row] = await tx.delete(testDrives).where(and(eq(testDrives.id, id), visibleTo(viewer))).returning();
  if (row) await releaseVehicleOf(tx, viewer.dealershipId, row.id);
  return row;
}

/** "First Last" of the signed-in user, or the e-mail (what a unit's currentUserName and the events carry). */
export async function userDisplayName(db: Executor, userId: string): Promise<string> {
  const [u] = await db.select({ firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  if (!u) return "";
  return [u.firstName, u.lastName].filter(Boolean).join(" ").trim() || u.email;
}

/** A vehicle's next booking as the inventory card shows it (decision 062); the client's name only where access says. */
export interface NextBooking {
  testDriveId: string;
  testDriveDate: string;
  testDriveTime: string | null;
  clientName: string | null;
}

/** The earliest scheduled drive of the vehicle `vehicleId` (a column of the caller's query) from `today` on, as SQL. */
export function nextBookingSql(viewer: Viewer, vehicleId: SQL, today: string): SQL<NextBooking | null> {
  const clientName = sql`case when ${namesClientOfDriveSql(viewer, sql`b.id`)} then trim(b.first_name || ' ' || b.last_name) end`;
  return sql<NextBooking | null>`(select json_build_object('testDriveId', b.id, 'testDriveDate', b.test_drive_date,
      'testDriveTime', b.test_drive_time, 'clientName', ${clientName})
    from ${testDrives} b
    where b.vehicle_id = ${vehicleId} and b.status = 'scheduled' and b.test_drive_date >= ${today}
    order by b.test_drive_date, b.test_drive_time nulls last limit 1)`;
}

/** The vehicle of the lead's latest drive that names one (a template's {vehicle}), or null. */
export async function lastVehicleDriven(db: Executor, leadId: string): Promise<string | null> {
  const [drive] = await db
    .select({ vehicle: testDrives.vehicleDriven })
    .from(testDrives)
    .where(and(eq(testDrives.leadId, leadId), isNotNull(testDrives.vehicleDriven)))
    .orderBy(desc(testDrives.createdAt))
    .limit(1);
  return drive?.vehicle ?? null;
}
