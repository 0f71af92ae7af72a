import type { Db } from "./client";
import { testDriveUnits, testDrives, vehicles } from "./schema/test-drives";

// Vehicles, units and test drives for the demo seed and the tests. Written straight to the tables so a test can place
// a drive at any instant (across midnight, on a daylight-saving day); the HTTP routes are what tests use when they test
// taking out and returning themselves.

export type VehicleFixture = typeof vehicles.$inferSelect;
export type UnitFixture = typeof testDriveUnits.$inferSelect;
export type TestDriveFixture = typeof testDrives.$inferSelect;

let sequence = 0;

const SAMPLE_MODELS: Array<[string, string]> = [
  ["Honda", "Civic"],
  ["Toyota", "Camry"],
  ["Ford", "F-150"],
  ["Mazda", "CX-5"],
  ["Hyundai", "Tucson"],
];

export async function makeVehicle(
  db: Db,
  values: { dealershipId: string } & Partial<Omit<typeof vehicles.$inferInsert, "dealershipId">>,
): Promise<VehicleFixture> {
  const n = ++sequence;
  const [make, model] = SAMPLE_MODELS[n % SAMPLE_MODELS.length] as [string, string];
  const [row] = await db
    .insert(vehicles)
    .values({ year: "2024", make, model, stockNumber: `STK-${String(n).padStart(5, "0")}`, condition: "new", ...values })
    .returning();
  if (!row) throw new Error("vehicle insert returned nothing");
  return row;
}

export async function makeUnit(
  db: Db,
  values: { dealershipId: string } & Partial<Omit<typeof testDriveUnits.$inferInsert, "dealershipId">>,
): Promise<UnitFixture> {
  const n = ++sequence;
  const [row] = await db
    .insert(testDriveUnits)
    .values({ year: "2025", make: "Demo", model: `Unit ${n}`, stockNumber: `TDU-${String(n).padStart(5, "0")}`, ...values })
    .returning();
  if (!row) throw new Error("unit insert returned nothing");
  return row;
}

/**
 * A drive as the routes would have left it. With `returnedAt` it is completed and its duration is the whole minutes
 * between the two instants unless given; without it, the status given (default "out" when taken out, else scheduled).
 * It does not mark a vehicle out: tests that need that take it out through the API.
 */
export async function makeTestDrive(
  db: Db,
  values: { dealershipId: string } & Partial<Omit<typeof testDrives.$inferInsert, "dealershipId">>,
): Promise<TestDriveFixture> {
  const n = ++sequence;
  const returnedAt = values.returnedAt ?? null;
  const takenOutAt = values.takenOutAt ?? null;
  const duration =
    values.duration !== undefined
      ? values.duration
      : returnedAt && takenOutAt
        ? Math.round((returnedAt.getTime() - takenOutAt.getTime()) / 60_000)
        : null;
  const status = values.status ?? (returnedAt ? "completed" : takenOutAt ? "out" : "scheduled");
  const [row] = await db
    .insert(testDrives)
    .values({
      clientType: "new",
      firstName: "Drive",
      lastName: `Client ${n}`,
      vehicleType: "manual",
      vehicleDriven: "2024 Honda Civic",
      stockNumber: `M-${n}`,
      ...values,
      status,
      duration,
      returnedBy: values.returnedBy ?? (returnedAt ? (values.takenOutBy ?? null) : null),
    })
    .returning();
  if (!row) throw new Error("test drive insert returned nothing");
  return row;
}
