import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp } from "../../../tests/helpers/test-app";
import { SALES_REP_ANALYTICS_PERIODS, TEST_DRIVE_ANALYTICS_PERIODS, type SalesRepAnalytics, type TestDriveAnalytics } from "../../shared/schemas/analytics";
import type { Vehicle } from "../../shared/schemas/vehicle";
import { dealerships } from "../db/schema/dealerships";
import { DEMO_PASSWORD, seedDemo } from "../db/seed-demo";
import { localInstant } from "./demo";

// The demo inventory and drives: every chart of both analytics screens has data in every period, the inventory shows
// each icon but "unavailable" twice over, and the seed keeps to the take-out rules (one open drive per vehicle).

let t: TestApp;
let northside: string;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.db);
  const [row] = await t.db.select().from(dealerships).where(eq(dealerships.name, "Northside Motors"));
  northside = row?.id as string;
});
afterAll(() => t.close());

describe("demo test drives", () => {
  it("give the manager's analytics data in every period", async () => {
    const manager = await signIn(t.app, { email: "manager@demo.showroom", password: DEMO_PASSWORD });
    for (const days of TEST_DRIVE_ANALYTICS_PERIODS.filter((d) => d > 1)) {
      const a = (await manager.get(`/api/dealerships/${northside}/test-drives/analytics/${days}`)).json<TestDriveAnalytics>();
      expect(a.totalTestDrives, `${days} days`).toBeGreaterThan(days);
      expect(a.topVehicles.length).toBeGreaterThan(1);
      expect(a.avgDuration).toBeGreaterThan(0);
    }
    for (const days of SALES_REP_ANALYTICS_PERIODS) {
      const s = (await manager.get(`/api/dealerships/${northside}/sales-rep-analytics/${days}`)).json<SalesRepAnalytics>();
      expect(s.summary.totalTestDrivesTaken, `${days} days`).toBeGreaterThan(0);
      expect(s.salesReps.filter((r) => r.periodStats.testDrivesTaken > 0).length).toBeGreaterThan(1);
    }
  });

  it("show vehicles available, out, booked and unavailable", async () => {
    const rep = await signIn(t.app, { email: "sales@demo.showroom", password: DEMO_PASSWORD });
    const list = (await rep.get(`/api/dealerships/${northside}/vehicles`)).json<Vehicle[]>();
    expect(list.filter((v) => v.testDriveStatus === "out")).toHaveLength(2);
    expect(list.some((v) => v.booking !== null)).toBe(true);
    expect(list.some((v) => !v.isTestDriveEnabled)).toBe(true);
    expect(list.some((v) => v.testDriveStatus === "available" && v.booking === null && v.isTestDriveEnabled)).toBe(true);
  });
});

describe("localInstant", () => {
  it("finds the instant a Toronto wall clock shows, in winter and in summer", () => {
    expect(localInstant("America/Toronto", "2026-01-15", "09:30").toISOString()).toBe("2026-01-15T14:30:00.000Z");
    expect(localInstant("America/Toronto", "2026-07-15", "09:30").toISOString()).toBe("2026-07-15T13:30:00.000Z");
  });
});
