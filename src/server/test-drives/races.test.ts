import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { makeUnit, makeVehicle } from "../db/factories-test-drives";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { testDriveUnits, testDrives, vehicles } from "../db/schema/test-drives";

// A vehicle is out at most once (decision 062): of any number of simultaneous take-outs exactly one wins, decided by
// the database; a drive is returned once. On PGlite requests run one after another; the PostgreSQL run
// (TEST_DATABASE_URL) is where they really race, each rep on their own connection.

const TAKERS = 20;
let t: TestApp;
let dealershipId: string;
let reps: Agent[];

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db)).id;
  reps = [];
  for (let i = 0; i < 4; i++) {
    const user = await makeUser(t.db, { memberships: [{ dealershipId, role: i === 0 ? "management" : "sales" }] });
    reps.push(await signIn(t.app, user));
  }
});
afterAll(() => t.close());

const client = (i: number) => ({ clientType: "new", firstName: "Racer", lastName: `No ${i}`, email: `racer${i}-${Math.random()}@example.com`, phone: "416-555-0100" });

describe("simultaneous take-outs", () => {
  it("lets exactly one of 20 take-outs of one vehicle win; the rest get 409 and leave no drive and no lead", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const leadsBefore = (await t.db.select().from(leads)).length;
    const answers = await Promise.all(
      Array.from({ length: TAKERS }, (_, i) =>
        (reps[i % reps.length] as Agent).post("/api/test-drives", { dealershipId, ...client(i), vehicleType: "vehicle", vehicleId: vehicle.id }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(TAKERS - 1);
    const open = await t.db.select().from(testDrives).where(and(eq(testDrives.vehicleId, vehicle.id), eq(testDrives.status, "out")));
    expect(open).toHaveLength(1);
    const [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row?.currentTestDriveId).toBe(open[0]?.id);
    // Only the winner's new client became a lead: the losers' transactions rolled back whole.
    expect((await t.db.select().from(leads)).length).toBe(leadsBefore + 1);
  });

  it("lets exactly one of 20 take-outs of one test-drive unit win", async () => {
    const unit = await makeUnit(t.db, { dealershipId });
    const answers = await Promise.all(
      Array.from({ length: TAKERS }, (_, i) =>
        (reps[i % reps.length] as Agent).post("/api/test-drives", { dealershipId, ...client(i), vehicleType: "tdu", tduId: unit.id }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(TAKERS - 1);
    const open = await t.db.select().from(testDrives).where(and(eq(testDrives.tduId, unit.id), eq(testDrives.status, "out")));
    expect(open).toHaveLength(1);
    const [row] = await t.db.select().from(testDriveUnits).where(eq(testDriveUnits.id, unit.id));
    expect(row?.currentTestDriveId).toBe(open[0]?.id);
  });

  it("refuses a second open drive of one vehicle in the database itself (the partial unique index)", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const values = { dealershipId, clientType: "new" as const, firstName: "A", lastName: "B", vehicleType: "vehicle" as const, vehicleId: vehicle.id, status: "out" as const };
    await t.db.insert(testDrives).values(values);
    await expect(t.db.insert(testDrives).values(values)).rejects.toThrow();
  });
  it("answers 409 and takes nothing out when a drive is still open on a vehicle marked available", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    await t.db.insert(testDrives).values({ dealershipId, clientType: "new", firstName: "Old", lastName: "Drive", vehicleType: "vehicle", vehicleId: vehicle.id, status: "out" });
    const res = await (reps[1] as Agent).post("/api/test-drives", { dealershipId, ...client(99), vehicleType: "vehicle", vehicleId: vehicle.id });
    expect(res.statusCode).toBe(409);
    const [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row?.testDriveStatus).toBe("available");
  });
});

describe("simultaneous returns", () => {
  it("returns a drive once, whether by the drive or by the vehicle, however many ask at once", async () => {
    for (let round = 0; round < 5; round++) {
      const vehicle = await makeVehicle(t.db, { dealershipId });
      const taken = await (reps[0] as Agent).post("/api/test-drives", { dealershipId, ...client(round), vehicleType: "vehicle", vehicleId: vehicle.id });
      const driveId = taken.json<{ id: string }>().id;
      const answers = await Promise.all([
        (reps[0] as Agent).post(`/api/test-drives/${driveId}/return`),
        (reps[0] as Agent).put(`/api/vehicles/${vehicle.id}/test-drive-status`, { status: "available" }),
        (reps[0] as Agent).post(`/api/test-drives/${driveId}/return`),
        (reps[0] as Agent).patch(`/api/test-drives/${driveId}/status`, { status: "completed" }),
      ]);
      // Setting "completed" answers 200 whoever ended the drive; of the three returns at most one succeeds (none when
      // the status change came first), the others find nothing out: 409.
      const returns = answers.slice(0, 3).map((a) => a.statusCode);
      expect(returns.filter((c) => c === 200).length).toBeLessThanOrEqual(1);
      expect(returns.every((c) => c === 200 || c === 409)).toBe(true);
      expect(answers[3]?.statusCode).toBe(200);
      const [row] = await t.db.select().from(testDrives).where(eq(testDrives.id, driveId));
      expect(row?.status).toBe("completed");
      const [v] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
      expect(v?.testDriveStatus).toBe("available");
      // One return, one event: a second "returned" would notify twice.
      const returned = await t.db
        .select()
        .from(domainEvents)
        .where(and(eq(domainEvents.type, "test_drive.returned"), sql`${domainEvents.payload}->'testDrive'->>'id' = ${driveId}`));
      expect(returned).toHaveLength(1);
    }
  });
});
