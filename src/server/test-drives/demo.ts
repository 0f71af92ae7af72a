import { eq } from "drizzle-orm";
import { addDays, localMoment } from "../../shared/dealership-clock";
import type { Db } from "../db/client";
import { makeUnit, makeVehicle, type VehicleFixture } from "../db/factories-test-drives";
import type { DemoWorld } from "../db/seed-demo";
import { dealerships } from "../db/schema/dealerships";
import { testDrives, vehicles } from "../db/schema/test-drives";

// Demo inventory and 90 days of test drives on each dealership's clock, so every chart of /tdus and /sales-analytics
// has data in each period: a few drives a day (more on Saturdays), some across midnight, two vehicles out right now, a
// handful of bookings for the coming days. A fixed seed makes every demo the same.

type NewVehicle = Parameters<typeof makeVehicle>[1];

const NORTHSIDE_STOCK: Array<Omit<NewVehicle, "dealershipId">> = [
  { year: "2025", make: "Toyota", model: "RAV4", trim: "Hybrid XLE", stockNumber: "N25-0141", condition: "new", exteriorColor: "Blueprint", price: 4_299_000, mileage: 12 },
  { year: "2025", make: "Honda", model: "Civic", trim: "Sport", stockNumber: "N25-0152", condition: "new", exteriorColor: "Rallye Red", price: 3_149_000, mileage: 8 },
  { year: "2024", make: "Ford", model: "F-150", trim: "XLT", stockNumber: "N24-0977", condition: "new", exteriorColor: "Agate Black", price: 6_189_900, mileage: 25 },
  { year: "2025", make: "Mazda", model: "CX-5", trim: "GS", stockNumber: "N25-0203", condition: "new", exteriorColor: "Soul Red", price: 3_699_000, mileage: 10 },
  { year: "2025", make: "Hyundai", model: "Tucson", trim: "Preferred", stockNumber: "N25-0188", condition: "new", exteriorColor: "Amazon Grey", price: 3_549_900, mileage: 14 },
  { year: "2024", make: "Kia", model: "EV6", trim: "GT-Line", stockNumber: "N24-0911", condition: "new", exteriorColor: "Glacier", price: 5_899_500, mileage: 31 },
  { year: "2021", make: "Toyota", model: "Corolla", trim: "LE", stockNumber: "U21-4410", condition: "used", exteriorColor: "Silver", price: 2_149_900, mileage: 58_200 },
  { year: "2020", make: "Subaru", model: "Outback", trim: "Touring", stockNumber: "U20-3385", condition: "used", exteriorColor: "Green", price: 2_799_000, mileage: 71_450 },
  { year: "2022", make: "Volkswagen", model: "Golf GTI", stockNumber: "U22-5120", condition: "used", exteriorColor: "White", price: 3_250_000, mileage: 33_900 },
  { year: "2019", make: "Chevrolet", model: "Equinox", trim: "LT", stockNumber: "U19-2207", condition: "used", exteriorColor: "Mosaic Black", price: 1_899_500, mileage: 88_100, isTestDriveEnabled: false },
];

const LAKESHORE_STOCK: Array<Omit<NewVehicle, "dealershipId">> = [
  { year: "2025", make: "Nissan", model: "Rogue", trim: "SV", stockNumber: "L25-0012", condition: "new", exteriorColor: "Pearl White", price: 3_898_000 },
  { year: "2024", make: "Tesla", model: "Model 3", stockNumber: "L24-0040", condition: "used", exteriorColor: "Midnight Silver", price: 4_150_000, mileage: 9_800 },
  { year: "2023", make: "Jeep", model: "Wrangler", trim: "Sahara", stockNumber: "L23-0107", condition: "used", exteriorColor: "Sarge Green", price: 5_290_000, mileage: 21_300 },
];

const FIRST_NAMES = ["Aisha", "Ben", "Carla", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jamal", "Kira", "Liam", "Maya", "Noah", "Olga", "Priya", "Quinn", "Raj", "Sara", "Tomas"];
const LAST_NAMES = ["Rahman", "Okafor", "Kowalski", "Martins", "Liu", "Moreau", "Bell", "Doyle", "Natarajan", "Haddad", "Singh", "Novak", "Fischer", "Tremblay", "Ito"];

/** A small deterministic generator (mulberry32): the same demo every time. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The instant a dealership's wall clock shows `date` `time` (the offset of that moment; good outside the DST hour). */
export function localInstant(timezone: string, date: string, time: string): Date {
  const guess = new Date(`${date}T${time}:00Z`);
  const shown = localMoment(timezone, guess);
  const offset = Date.parse(`${shown.date}T${shown.time}:00Z`) - guess.getTime();
  return new Date(guess.getTime() - offset);
}

function vehicleName(v: VehicleFixture): string {
  return [v.year, v.make, v.model, v.trim].filter(Boolean).join(" ");
}

async function timezoneOf(db: Db, dealershipId: string): Promise<string> {
  const [row] = await db.select({ timezone: dealerships.timezone }).from(dealerships).where(eq(dealerships.id, dealershipId));
  return row?.timezone ?? "America/Toronto";
}

async function seedDealership(
  db: Db,
  dealershipId: string,
  stock: Array<Omit<NewVehicle, "dealershipId">>,
  staff: Array<{ id: string }>,
  createdBy: string,
  options: { seed: number; perDay: number; now: Date; out: Array<[index: number, minutesAgo: number]> },
): Promise<void> {
  const rand = random(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const timezone = await timezoneOf(db, dealershipId);
  const today = localMoment(timezone, options.now).date;
  const fleet: VehicleFixture[] = [];
  for (const v of stock) fleet.push(await makeVehicle(db, { dealershipId, createdBy, ...v }));
  const drivable = fleet.filter((v) => v.isTestDriveEnabled);
  await makeUnit(db, { dealershipId, year: "2025", make: "Toyota", model: "Camry Demo", stockNumber: `TDU-${options.seed}-1`, createdBy });
  await makeUnit(db, { dealershipId, year: "2024", make: "Honda", model: "CR-V Loaner", stockNumber: `TDU-${options.seed}-2`, createdBy });

  const rows: Array<typeof testDrives.$inferInsert> = [];
  const client = () => ({ firstName: pick(FIRST_NAMES), lastName: pick(LAST_NAMES) });
  for (let back = 89; back >= 0; back--) {
    const date = addDays(today, -back);
    const saturday = new Date(`${date}T12:00:00Z`).getUTCDay() === 6;
    const count = Math.floor(rand() * (options.perDay + 1)) + (saturday ? 3 : 1);
    for (let i = 0; i < count; i++) {
      const minuteOfDay = 9 * 60 + Math.floor(rand() * 9 * 60);
      // One drive in twenty leaves late and comes back after midnight.
      const late = rand() < 0.05;
      const start = late ? 23 * 60 + 20 + Math.floor(rand() * 30) : minuteOfDay;
      const time = `${String(Math.floor(start / 60)).padStart(2, "0")}:${String(start % 60).padStart(2, "0")}`;
      const takenOutAt = localInstant(timezone, date, time);
      const minutes = 15 + Math.floor(rand() * 75);
      const returnedAt = new Date(takenOutAt.getTime() + minutes * 60_000);
      if (returnedAt >= options.now) continue; // today's later slots have not happened yet
      const vehicle = pick(drivable);
      const who = pick(staff).id;
      rows.push({
        dealershipId,
        clientType: "new",
        ...client(),
        email: null,
        phone: null,
        vehicleType: "vehicle",
        vehicleId: vehicle.id,
        vehicleDriven: vehicleName(vehicle),
        stockNumber: vehicle.stockNumber,
        testDriveDate: date,
        testDriveTime: time,
        status: rand() < 0.04 ? "cancelled" : "completed",
        takenOutBy: who,
        takenOutAt,
        returnedBy: who,
        returnedAt,
        duration: minutes,
        createdBy: who,
      });
    }
  }
  // Bookings for the coming days, one on an inventory vehicle (its "booked" icon).
  for (let ahead = 1; ahead <= 4; ahead++) {
    const vehicle = drivable[ahead % drivable.length] as VehicleFixture;
    const who = pick(staff).id;
    rows.push({
      dealershipId,
      clientType: "new",
      ...client(),
      vehicleType: ahead === 1 ? "vehicle" : "manual",
      vehicleId: ahead === 1 ? vehicle.id : null,
      vehicleDriven: vehicleName(vehicle),
      stockNumber: vehicle.stockNumber,
      testDriveDate: addDays(today, ahead),
      testDriveTime: ["10:00", "13:30", "15:00", "11:30"][ahead - 1] as string,
      status: "scheduled",
      notes: ahead === 1 ? "Wants to compare with the hybrid" : null,
      createdBy: who,
    });
  }
  for (let i = 0; i < rows.length; i += 500) await db.insert(testDrives).values(rows.slice(i, i + 500));

  // Vehicles out right now.
  for (const [index, minutesAgo] of options.out) {
    const vehicle = drivable[index] as VehicleFixture;
    const who = staff[index % staff.length]?.id ?? createdBy;
    const takenOutAt = new Date(options.now.getTime() - minutesAgo * 60_000);
    const shown = localMoment(timezone, takenOutAt);
    const person = client();
    const [drive] = await db
      .insert(testDrives)
      .values({
        dealershipId,
        clientType: "new",
        ...person,
        vehicleType: "vehicle",
        vehicleId: vehicle.id,
        vehicleDriven: vehicleName(vehicle),
        stockNumber: vehicle.stockNumber,
        testDriveDate: shown.date,
        testDriveTime: shown.time,
        status: "out",
        takenOutBy: who,
        takenOutAt,
        createdBy: who,
      })
      .returning();
    if (!drive) continue;
    await db
      .update(vehicles)
      .set({ testDriveStatus: "out", currentTestDriveId: drive.id, currentClientName: `${person.firstName} ${person.lastName}`, takenOutAt, takenOutBy: who })
      .where(eq(vehicles.id, vehicle.id));
  }
}

export async function seedDemoTestDrives(world: DemoWorld, now: Date = new Date()): Promise<void> {
  const { db, dealerships: d, users: u } = world;
  await seedDealership(db, d.northside.id, NORTHSIDE_STOCK, [u.sales, u.sales2, u.management, u.multi], u.management.id, { seed: 9, perDay: 4, now, out: [[0, 25], [3, 50]] });
  await seedDealership(db, d.lakeshore.id, LAKESHORE_STOCK, [u.multi], u.multi.id, { seed: 11, perDay: 1, now, out: [[0, 35]] });
}
