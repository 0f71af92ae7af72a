import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/helpers/test-app";
import { localToday } from "../../shared/dealership-clock";
import { appointments } from "../db/schema/appointments";
import { dealerships } from "../db/schema/dealerships";
import { seedDemo } from "../db/seed-demo";

// The demo's appointments: something to see on today's calendar, the days around it, and both dealerships.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.db);
});
afterAll(() => t.close());

describe("demo appointments", () => {
  it("fill today and the days around it at both demo dealerships, with consistent timestamps", async () => {
    const rows = await t.db.select().from(appointments);
    const byDealership = new Map<string, typeof rows>();
    for (const r of rows) byDealership.set(r.dealershipId, [...(byDealership.get(r.dealershipId) ?? []), r]);
    const all = await t.db.select().from(dealerships);
    for (const d of all.filter((x) => ["Northside Motors", "Lakeshore Auto Group"].includes(x.name))) {
      const mine = byDealership.get(d.id) ?? [];
      const today = localToday(d.timezone);
      expect(mine.some((a) => a.date === today)).toBe(true);
      expect(mine.some((a) => a.date > today)).toBe(true);
      expect(mine.some((a) => a.date < today)).toBe(true);
    }
    for (const r of rows) {
      if (r.status === "completed") {
        expect(r.arrivedAt).not.toBeNull();
        expect(r.completedAt!.getTime()).toBeGreaterThanOrEqual(r.arrivedAt!.getTime());
        expect(r.actualDuration).toBe(Math.round((r.completedAt!.getTime() - r.arrivedAt!.getTime()) / 60_000));
      } else if (r.status !== "arrived") {
        expect(r.arrivedAt).toBeNull();
        expect(r.completedAt).toBeNull();
      }
      expect(r.createdBy).toBe(r.assignedTo);
    }
    const [northside] = await t.db.select().from(dealerships).where(eq(dealerships.name, "Northside Motors"));
    expect(new Set(rows.filter((r) => r.dealershipId === northside!.id).map((r) => r.status)).size).toBeGreaterThanOrEqual(3);
  });
});
