import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { TEST_DRIVE_ERRORS } from "../../shared/schemas/test-drive";
import {
  createVehicleSchema,
  removeVehicleConfirmText,
  VEHICLE_MESSAGES,
  vehicleDisplayStatus,
  vehicleSchema,
  vinCheckDigitMatches,
  vinModelYears,
  type Vehicle,
} from "../../shared/schemas/vehicle";
import { makeDealership, makeUser } from "../db/factories";
import { makeVehicle } from "../db/factories-test-drives";
import { vehicles } from "../db/schema/test-drives";

// The inventory (part 2 §2, §3, §5, §7; decision 062): add with the form's rules and a checked VIN, list with
// search, filters and pages, remove, and the unit routes alongside.

describe("the VIN check digit (ISO 3779, North American)", () => {
  // Published examples: Wikipedia's "Vehicle identification number" check-digit worked example (1M8GDM9AXKP042788, check
  // digit X, model year K = 1989), the much-quoted 2003 Honda Accord 1HGCM82633A004352, 11111111111111111, and one made
  // here (5YJSA1E18HF000001, check digit computed by hand: 8).
  it.each(["1M8GDM9AXKP042788", "1HGCM82633A004352", "11111111111111111", "5YJSA1E18HF000001"])("accepts %s", (vin) => {
    expect(vinCheckDigitMatches(vin)).toBe(true);
  });

  it.each(["1M8GDM9A1KP042788", "1HGCM82643A004352", "11111111211111111", "1HGCM82633A00435X"])("refuses %s", (vin) => {
    expect(vinCheckDigitMatches(vin)).toBe(false);
  });

  it("reads the model year from position 10 on the 30-year cycle", () => {
    expect(vinModelYears("1M8GDM9AXKP042788")).toContain(1989);
    expect(vinModelYears("1HGCM82633A004352")).toContain(2003);
    expect(vinModelYears("5YJSA1E18HF000001")).toEqual([1987, 2017, 2047, 2077]);
    expect(vinModelYears("1M8GDM9AXUP042788")).toEqual([]);
  });
});

describe("the inventory routes", () => {
  let t: TestApp;
  let dealershipId: string;
  let manager: Agent;
  let rep: Agent;
  const base = { year: "2003", make: "Honda", model: "Accord", trim: "EX", stockNumber: "ACC-1", condition: "used", exteriorColor: "Silver" };

  beforeAll(async () => {
    t = await createTestApp();
    dealershipId = (await makeDealership(t.db)).id;
    manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
    rep = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] }));
  });
  afterAll(() => t.close());

  it("adds a vehicle with price in cents, mileage and a checked VIN", async () => {
    const res = await manager.post(`/api/dealerships/${dealershipId}/vehicles`, { ...base, price: 1_299_900, mileage: "84000", vin: "1hgcm82633a004352" });
    expect(res.statusCode).toBe(201);
    const vehicle = vehicleSchema.parse(res.json());
    expect(vehicle).toMatchObject({ ...base, price: 1_299_900, mileage: 84000, vin: "1HGCM82633A004352", testDriveStatus: "available", booking: null });
  });

  it("refuses a second vehicle with the same stock number in the dealership with 409", async () => {
    const res = await manager.post(`/api/dealerships/${dealershipId}/vehicles`, { ...base, model: "Civic" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: VEHICLE_MESSAGES.stockTaken, fields: { stockNumber: VEHICLE_MESSAGES.stockTaken } });
    const other = (await makeDealership(t.db)).id;
    const elsewhere = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: other, role: "management" }] }));
    expect((await elsewhere.post(`/api/dealerships/${other}/vehicles`, base)).statusCode).toBe(201);
  });

  const invalid: Array<[string, Record<string, unknown>, string, string]> = [
    ["a missing year", { year: "" }, "year", VEHICLE_MESSAGES.yearRequired],
    ["a short year", { year: "203" }, "year", VEHICLE_MESSAGES.yearRequired],
    ["a year that is not one", { year: "20X3" }, "year", VEHICLE_MESSAGES.yearFormat],
    ["a missing make", { make: " " }, "make", VEHICLE_MESSAGES.makeRequired],
    ["a missing model", { model: undefined }, "model", VEHICLE_MESSAGES.modelRequired],
    ["a missing stock number", { stockNumber: "" }, "stockNumber", VEHICLE_MESSAGES.stockRequired],
    ["another condition", { condition: "certified" }, "condition", VEHICLE_MESSAGES.condition],
    ["a price in dollars with cents", { price: 12.5 }, "price", VEHICLE_MESSAGES.price],
    ["a negative mileage", { mileage: -1 }, "mileage", VEHICLE_MESSAGES.mileage],
    ["a VIN of 16 characters", { vin: "1HGCM82633A00435" }, "vin", VEHICLE_MESSAGES.vinLength],
    ["a VIN with an O", { vin: "1HGCM82633AO04352" }, "vin", VEHICLE_MESSAGES.vinCharacters],
    ["a VIN with a wrong check digit", { vin: "1HGCM82643A004352" }, "vin", VEHICLE_MESSAGES.vinCheckDigit],
    ["a VIN of another model year", { year: "2004", vin: "1HGCM82633A004352" }, "vin", VEHICLE_MESSAGES.vinYear],
  ];
  it.each(invalid)("refuses %s with a 400 naming the field", async (_name, change, field, message) => {
    const before = await t.db.select().from(vehicles);
    const res = await manager.post(`/api/dealerships/${dealershipId}/vehicles`, { ...base, stockNumber: "BAD-1", ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
    expect(await t.db.select().from(vehicles)).toHaveLength(before.length);
  });

  it("refuses a sales rep's add and remove with 403 and changes nothing", async () => {
    expect((await rep.post(`/api/dealerships/${dealershipId}/vehicles`, { ...base, stockNumber: "REP-1" })).statusCode).toBe(403);
    const vehicle = await makeVehicle(t.db, { dealershipId });
    expect((await rep.delete(`/api/vehicles/${vehicle.id}`)).statusCode).toBe(403);
    expect(await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id))).toHaveLength(1);
  });

  it("searches and filters on make, model, year, condition and status, in stock-number order", async () => {
    const lot = await makeDealership(t.db);
    const lotManager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: lot.id, role: "management" }] }));
    await makeVehicle(t.db, { dealershipId: lot.id, year: "2022", make: "Ford", model: "F-150", stockNumber: "C-3", condition: "used" });
    await makeVehicle(t.db, { dealershipId: lot.id, year: "2024", make: "Ford", model: "Escape", stockNumber: "A-1", condition: "new" });
    await makeVehicle(t.db, { dealershipId: lot.id, year: "2024", make: "Mazda", model: "CX-5", stockNumber: "B-2", condition: "new", vin: "JM3KFBCM1R0000001" });
    await makeVehicle(t.db, { dealershipId: lot.id, year: "2021", make: "Mazda", model: "3", stockNumber: "D-4", condition: "used", testDriveStatus: "out" });
    const stock = async (query: string) =>
      ((await lotManager.get(`/api/dealerships/${lot.id}/vehicles${query}`)).json() as Vehicle[]).map((v) => v.stockNumber);
    expect(await stock("")).toEqual(["A-1", "B-2", "C-3", "D-4"]);
    expect(await stock("?make=ford")).toEqual(["A-1", "C-3"]);
    expect(await stock("?model=CX-5")).toEqual(["B-2"]);
    expect(await stock("?year=2024")).toEqual(["A-1", "B-2"]);
    expect(await stock("?condition=used")).toEqual(["C-3", "D-4"]);
    expect(await stock("?status=out")).toEqual(["D-4"]);
    expect(await stock("?q=escape")).toEqual(["A-1"]);
    expect(await stock("?q=JM3KF")).toEqual(["B-2"]);
    expect(await stock("?q=100%25")).toEqual([]);
    expect(await stock("?make=mazda&condition=new")).toEqual(["B-2"]);
    const bad = await lotManager.get(`/api/dealerships/${lot.id}/vehicles?condition=certified`);
    expect(bad.statusCode).toBe(400);
  });

  it("pages the list with a Link header that carries the filters", async () => {
    const lot = await makeDealership(t.db);
    const lotRep = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: lot.id, role: "sales" }] }));
    for (const s of ["P-1", "P-2", "P-3", "P-4", "P-5"]) await makeVehicle(t.db, { dealershipId: lot.id, stockNumber: s, make: "Kia" });
    const seen: string[] = [];
    let url: string | null = `/api/dealerships/${lot.id}/vehicles?make=Kia&limit=2`;
    while (url) {
      const res = await lotRep.get(url);
      expect(res.statusCode).toBe(200);
      seen.push(...(res.json() as Vehicle[]).map((v) => v.stockNumber));
      const link = res.headers.link as string | undefined;
      url = link ? (/<([^>]+)>/.exec(link)?.[1] ?? null) : null;
      if (url) expect(url).toContain("make=Kia");
    }
    expect(seen).toEqual(["P-1", "P-2", "P-3", "P-4", "P-5"]);
    expect((await lotRep.get(`/api/dealerships/${lot.id}/vehicles?cursor=%25%25`)).statusCode).toBe(400);
  });

  it("removes a vehicle that is not out, refuses one that is out with 409, and 404 once gone", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const res = await manager.delete(`/api/vehicles/${vehicle.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Vehicle removed" });
    expect((await manager.delete(`/api/vehicles/${vehicle.id}`)).statusCode).toBe(404);
    const out = await makeVehicle(t.db, { dealershipId });
    await rep.post("/api/test-drives", {
      dealershipId,
      clientType: "new",
      firstName: "Out",
      lastName: "Client",
      email: "out@example.com",
      phone: "416-555-0100",
      vehicleType: "vehicle",
      vehicleId: out.id,
    });
    const refused = await manager.delete(`/api/vehicles/${out.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(TEST_DRIVE_ERRORS.removeWhileOut);
    expect(await t.db.select().from(vehicles).where(eq(vehicles.id, out.id))).toHaveLength(1);
  });

  it("adds, lists and removes test-drive units; a duplicate stock number is a 409", async () => {
    const add = await manager.post(`/api/dealerships/${dealershipId}/test-drive-units`, { year: "2025", make: "Kia", model: "EV9", stockNumber: "TDU-9" });
    expect(add.statusCode).toBe(201);
    expect((await manager.post(`/api/dealerships/${dealershipId}/test-drive-units`, { year: "2025", make: "Kia", model: "EV9", stockNumber: "TDU-9" })).statusCode).toBe(409);
    expect((await manager.post(`/api/dealerships/${dealershipId}/test-drive-units`, { year: "", make: "Kia", model: "EV9", stockNumber: "X" })).json().fields.year).toBe(
      VEHICLE_MESSAGES.yearRequired,
    );
    const list = await rep.get(`/api/dealerships/${dealershipId}/test-drive-units?q=EV9`);
    expect(list.json()).toHaveLength(1);
    expect((await rep.delete(`/api/test-drive-units/${add.json().id}`)).statusCode).toBe(403);
    expect((await manager.delete(`/api/test-drive-units/${add.json().id}`)).statusCode).toBe(200);
    expect((await rep.get(`/api/dealerships/${dealershipId}/test-drive-units?q=EV9`)).json()).toHaveLength(0);
  });
});

describe("what the screens show", () => {
  it("chooses one of the four status icons", () => {
    const v = { isActive: true, isTestDriveEnabled: true, testDriveStatus: "available" as const, booking: null };
    expect(vehicleDisplayStatus(v)).toBe("available");
    expect(vehicleDisplayStatus({ ...v, testDriveStatus: "out" })).toBe("out");
    expect(vehicleDisplayStatus({ ...v, isTestDriveEnabled: false })).toBe("unavailable");
    expect(vehicleDisplayStatus({ ...v, booking: { testDriveId: "x".repeat(21), testDriveDate: "2026-01-01", testDriveTime: "10:00", clientName: "A" } })).toBe("booked");
  });

  it("asks 'Remove {year} {make} {model} from inventory?'", () => {
    expect(removeVehicleConfirmText({ year: "2024", make: "Honda", model: "Civic" })).toBe("Remove 2024 Honda Civic from inventory?");
  });

  it("takes price and mileage only when given", () => {
    const parsed = createVehicleSchema.parse({ year: 2024, make: "A", model: "B", stockNumber: "S", condition: "new", price: "", mileage: null });
    expect(parsed).toMatchObject({ year: "2024", price: null, mileage: null, vin: null });
  });
});
