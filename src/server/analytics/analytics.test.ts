import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { ANALYTICS_ERRORS, salesRepAnalyticsSchema, testDriveAnalyticsSchema } from "../../shared/schemas/analytics";
import { makeAppointment } from "../db/factories-appointments";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { makeTestDrive, makeUnit, makeVehicle } from "../db/factories-test-drives";
import { dealershipUsers } from "../db/schema/dealerships";
import { and, eq } from "drizzle-orm";
import { salesRepAnalytics, testDriveAnalytics, type AnalyticsViewer } from "./queries";

/** The figures as management of the dealership reads them (the routes answer anyone else 403). */
const managementOf = (dealershipId: string): AnalyticsViewer => ({ dealershipId, role: "management" });

// Both analytics against hand counts on a seeded week around the start of daylight-saving time in Toronto
// (2026-03-08: 02:00 EST becomes 03:00 EDT, a 23-hour day), with drives across midnight and at the period's edges.
// The period is the seven local days 2026-03-03 to 2026-03-09; the queries take "today" so no test reads the clock.

const TZ = "America/Toronto";
const PERIOD = { today: "2026-03-09", days: 7, timezone: TZ };
const at = (iso: string) => new Date(iso);

let t: TestApp;
let dealershipId: string;
let alice: MadeUser;
let bob: MadeUser;
let mona: MadeUser;
let fran: MadeUser;
let ids: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const ours = await makeDealership(t.db, { name: "Clock Motors", timezone: TZ });
  const theirs = await makeDealership(t.db, { name: "Elsewhere", timezone: TZ });
  dealershipId = ours.id;
  alice = await makeUser(t.db, { firstName: "Alice", lastName: "Adams", memberships: [{ dealershipId, role: "sales" }] });
  bob = await makeUser(t.db, { firstName: "Bob", lastName: "Brown", memberships: [{ dealershipId, role: "sales" }] });
  mona = await makeUser(t.db, { firstName: "Mona", lastName: "Manager", memberships: [{ dealershipId, role: "management" }] });
  // Front desk without activity is no rep; a removed sales member is not either, whatever they did.
  fran = await makeUser(t.db, { firstName: "Fran", lastName: "Desk", memberships: [{ dealershipId, role: "frontDesk" }] });
  const gone = await makeUser(t.db, { firstName: "Gone", lastName: "Rep", memberships: [{ dealershipId, role: "sales" }] });
  await t.db.update(dealershipUsers).set({ active: false }).where(and(eq(dealershipUsers.userId, gone.id), eq(dealershipUsers.dealershipId, dealershipId)));

  const civic = await makeVehicle(t.db, { dealershipId, year: "2024", make: "Honda", model: "Civic", stockNumber: "V1" });
  const camry = await makeVehicle(t.db, { dealershipId, year: "2023", make: "Toyota", model: "Camry", stockNumber: "V2" });
  const unit = await makeUnit(t.db, { dealershipId, year: "2025", make: "Kia", model: "EV6", stockNumber: "U1" });
  const drive = (values: Parameters<typeof makeTestDrive>[1]) => makeTestDrive(t.db, values);
  const civicDrive = { vehicleType: "vehicle" as const, vehicleId: civic.id, vehicleDriven: "2024 Honda Civic", stockNumber: "V1" };
  ids = {
    // Mar 8 00:30 EST: the DST day, before the change.
    a: (await drive({ dealershipId, ...civicDrive, firstName: "Ann", lastName: "A", takenOutBy: alice.id, takenOutAt: at("2026-03-08T05:30:00Z"), returnedAt: at("2026-03-08T06:00:00Z") })).id,
    // Mar 8 23:30 EDT: still the DST day locally, already Mar 9 in UTC.
    b: (await drive({ dealershipId, ...civicDrive, firstName: "Ben", lastName: "B", takenOutBy: alice.id, takenOutAt: at("2026-03-09T03:30:00Z"), returnedAt: at("2026-03-09T04:15:00Z") })).id,
    // Mar 9 00:30 EDT: a 24-hour "day" from Mar 8 00:00 EST would wrongly hold it.
    c: (await drive({ dealershipId, vehicleType: "tdu", tduId: unit.id, vehicleDriven: "2025 Kia EV6", stockNumber: "U1", firstName: "Cat", lastName: "C", takenOutBy: mona.id, takenOutAt: at("2026-03-09T04:30:00Z") })).id,
    // Across midnight: out Mar 6 23:50 EST, back Mar 7 00:40; it is Mar 6's drive, 50 minutes long.
    d: (await drive({ dealershipId, vehicleType: "manual", vehicleDriven: "Ford F-150", stockNumber: "M-1", firstName: "Dan", lastName: "D", takenOutBy: mona.id, takenOutAt: at("2026-03-07T04:50:00Z"), returnedAt: at("2026-03-07T05:40:00Z") })).id,
    // The first instant of the period: Mar 3 00:00 EST.
    f: (await drive({ dealershipId, vehicleType: "vehicle", vehicleId: camry.id, vehicleDriven: "2023 Toyota Camry", stockNumber: "V2", firstName: "Fay", lastName: "F", takenOutBy: mona.id, takenOutAt: at("2026-03-03T05:00:00Z"), returnedAt: at("2026-03-03T05:20:00Z") })).id,
  };
  // Outside: a minute before the period (Mar 2 23:59 EST), the first instant after it (Mar 10 00:00 EDT), a booking
  // never taken out, another dealership's drive.
  await drive({ dealershipId, ...civicDrive, takenOutBy: alice.id, takenOutAt: at("2026-03-03T04:59:00Z"), returnedAt: at("2026-03-03T05:30:00Z") });
  await drive({ dealershipId, ...civicDrive, takenOutBy: alice.id, takenOutAt: at("2026-03-10T04:00:00Z") });
  await drive({ dealershipId, ...civicDrive, testDriveDate: "2026-03-08", testDriveTime: "10:00" });
  await drive({ dealershipId: theirs.id, vehicleDriven: "Other", takenOutAt: at("2026-03-08T15:00:00Z") });

  // Leads claimed: two of Alice's in the period (one on the DST evening), one before it; Bob's lead claimed by nobody.
  await makeLead(t.db, { dealershipId, firstName: "Lee", lastName: "Late", claimedBy: alice.id, status: "claimed", claimedAt: at("2026-03-09T03:45:00Z") });
  await makeLead(t.db, { dealershipId, firstName: "Lou", lastName: "Early", claimedBy: alice.id, status: "contacted", claimedAt: at("2026-03-04T15:00:00Z") });
  await makeLead(t.db, { dealershipId, claimedBy: alice.id, status: "claimed", claimedAt: at("2026-03-03T04:59:00Z") });
  await makeLead(t.db, { dealershipId, status: "new" });
  // Appointments scheduled (created) in the period: one by Alice, one by Mona; one of Bob's created before it.
  await makeAppointment(t.db, { dealershipId, userId: alice.id, date: "2026-03-12", title: "Trade-in", firstName: "Tia", lastName: "T", createdAt: at("2026-03-05T15:00:00Z") });
  await makeAppointment(t.db, { dealershipId, userId: mona.id, date: "2026-03-12", createdAt: at("2026-03-06T15:00:00Z") });
  await makeAppointment(t.db, { dealershipId, userId: bob.id, date: "2026-03-12", createdAt: at("2026-03-02T15:00:00Z") });
});
afterAll(() => t.close());

describe("test drive analytics on the dealership's clock", () => {
  it("counts the drives taken out in the seven local days, a DST day and a drive across midnight included", async () => {
    const result = testDriveAnalyticsSchema.parse(await testDriveAnalytics(t.db, managementOf(dealershipId), PERIOD));
    expect(result.totalTestDrives).toBe(5);
    // The Civic twice, the Camry, the unit, the hand-entered F-150.
    expect(result.vehiclesUsed).toBe(4);
    // (30 + 45 + 50 + 20) / 4 = 36.25 minutes; the drive still out has no duration yet.
    expect(result.avgDuration).toBe(36);
    expect(result.topVehicles).toEqual([
      { vehicle: "2024 Honda Civic", stockNumber: "V1", count: 2 },
      { vehicle: "2023 Toyota Camry", stockNumber: "V2", count: 1 },
      { vehicle: "2025 Kia EV6", stockNumber: "U1", count: 1 },
      { vehicle: "Ford F-150", stockNumber: "M-1", count: 1 },
    ]);
    expect(result.dailyBreakdown).toEqual([
      { date: "2026-03-03", count: 1, vehicles: ["2023 Toyota Camry"] },
      { date: "2026-03-04", count: 0, vehicles: [] },
      { date: "2026-03-05", count: 0, vehicles: [] },
      { date: "2026-03-06", count: 1, vehicles: ["Ford F-150"] },
      { date: "2026-03-07", count: 0, vehicles: [] },
      { date: "2026-03-08", count: 2, vehicles: ["2024 Honda Civic"] },
      { date: "2026-03-09", count: 1, vehicles: ["2025 Kia EV6"] },
    ]);
    expect(result.recentTestDrives.map((d) => d.id)).toEqual([ids.c, ids.b, ids.a, ids.d, ids.f]);
    expect(result.recentTestDrives[3]).toEqual({
      id: ids.d,
      vehicleDriven: "Ford F-150",
      stockNumber: "M-1",
      clientName: "Dan D",
      takenOutAt: "2026-03-07T04:50:00.000Z",
      returnedAt: "2026-03-07T05:40:00.000Z",
      duration: 50,
      salesAssociate: "Mona Manager",
    });
    expect(result.recentTestDrives[0]).toMatchObject({ returnedAt: null, duration: null });
  });

  it("counts one local day for a period of 1: the DST day holds its 23 hours", async () => {
    const result = await testDriveAnalytics(t.db, managementOf(dealershipId), { ...PERIOD, today: "2026-03-08", days: 1 });
    expect(result.totalTestDrives).toBe(2);
    expect(result.dailyBreakdown).toEqual([{ date: "2026-03-08", count: 2, vehicles: ["2024 Honda Civic"] }]);
  });

  it("answers zeros and empty lists for a period without drives", async () => {
    const result = await testDriveAnalytics(t.db, managementOf(dealershipId), { ...PERIOD, today: "2026-01-10", days: 7 });
    expect(result).toMatchObject({ totalTestDrives: 0, vehiclesUsed: 0, avgDuration: 0, topVehicles: [], recentTestDrives: [] });
    expect(result.dailyBreakdown).toHaveLength(7);
  });
});

describe("sales rep analytics on the dealership's clock", () => {
  it("counts each rep's claimed leads, scheduled appointments and taken drives in the period", async () => {
    const result = salesRepAnalyticsSchema.parse(await salesRepAnalytics(t.db, managementOf(dealershipId), PERIOD));
    // Mona manages and claimed nothing in the period: her appointment and three drives are not a rep's (decision 189).
    expect(result.salesReps.map((r) => [r.firstName, r.periodStats])).toEqual([
      ["Alice", { leadsClaimed: 2, appointmentsScheduled: 1, testDrivesTaken: 2 }],
      ["Bob", { leadsClaimed: 0, appointmentsScheduled: 0, testDrivesTaken: 0 }],
    ]);
    expect(result.summary).toEqual({
      totalReps: 2,
      totalLeadsClaimed: 2,
      totalAppointmentsScheduled: 1,
      totalTestDrivesTaken: 2,
      avgLeadsPerRep: 1,
      avgAppointmentsPerRep: 0.5,
      avgTestDrivesPerRep: 1,
    });
    expect(result.topPerformers.mostLeads?.id).toBe(alice.id);
    expect(result.topPerformers.mostAppointments?.id).toBe(alice.id);
    expect(result.topPerformers.mostTestDrives?.id).toBe(alice.id);
  });

  it("lists a rep's three latest activities with descriptions, newest first", async () => {
    const result = await salesRepAnalytics(t.db, managementOf(dealershipId), PERIOD);
    const aliceRow = result.salesReps.find((r) => r.id === alice.id);
    expect(aliceRow).toMatchObject({ email: alice.email, role: "sales", lastName: "Adams" });
    expect(aliceRow?.recentActivity).toEqual([
      { type: "lead", description: "Claimed lead Lee Late", date: "2026-03-09T03:45:00.000Z" },
      { type: "testdrive", description: "Test drive: 2024 Honda Civic with Ben B", date: "2026-03-09T03:30:00.000Z" },
      { type: "testdrive", description: "Test drive: 2024 Honda Civic with Ann A", date: "2026-03-08T05:30:00.000Z" },
    ]);
    expect(result.salesReps.find((r) => r.id === bob.id)?.recentActivity).toEqual([]);
  });

  it("names no top performer when nobody did anything", async () => {
    const result = await salesRepAnalytics(t.db, managementOf(dealershipId), { ...PERIOD, today: "2026-01-10" });
    expect(result.topPerformers).toEqual({ mostLeads: null, mostAppointments: null, mostTestDrives: null });
    expect(result.summary).toMatchObject({ totalReps: 2, avgLeadsPerRep: 0 });
  });
});

// Issue 29: a dealership of 2 sales reps showed "Sales Reps 5". Hand count: Sam and Sue sell; Desmond at the front desk
// books appointments for them; Max manages and takes drives but claims nothing.
describe("who counts as a sales rep (decision 189)", () => {
  let world: string;
  let sam: MadeUser, sue: MadeUser, desmond: MadeUser, max: MadeUser;
  const inPeriod = at("2026-03-05T15:00:00Z");
  const member = (firstName: string, role: "sales" | "frontDesk" | "management") =>
    makeUser(t.db, { firstName, lastName: "Counted", memberships: [{ dealershipId: world, role }] });

  beforeAll(async () => {
    world = (await makeDealership(t.db, { name: "Hand Count Motors", timezone: TZ })).id;
    [sam, sue, desmond, max] = [await member("Sam", "sales"), await member("Sue", "sales"), await member("Desmond", "frontDesk"), await member("Max", "management")];
    // Sam: 3 claims, 1 appointment, 1 drive. Sue: 1 claim, 0 appointments, 2 drives.
    for (let i = 0; i < 3; i++) await makeLead(t.db, { dealershipId: world, claimedBy: sam.id, status: "claimed", claimedAt: inPeriod });
    await makeLead(t.db, { dealershipId: world, claimedBy: sue.id, status: "claimed", claimedAt: inPeriod });
    await makeAppointment(t.db, { dealershipId: world, userId: sam.id, date: "2026-03-12", createdAt: inPeriod });
    const drive = (takenOutBy: string) => makeTestDrive(t.db, { dealershipId: world, vehicleDriven: "2025 Hyundai Tucson Preferred", takenOutBy, takenOutAt: inPeriod });
    await drive(sam.id);
    await drive(sue.id);
    await drive(sue.id);
    // Desmond books 4 appointments; Max takes 5 drives and books 2, and claimed a lead only before the period.
    for (let i = 0; i < 4; i++) await makeAppointment(t.db, { dealershipId: world, userId: desmond.id, date: "2026-03-12", createdAt: inPeriod });
    for (let i = 0; i < 5; i++) await drive(max.id);
    for (let i = 0; i < 2; i++) await makeAppointment(t.db, { dealershipId: world, userId: max.id, date: "2026-03-12", createdAt: inPeriod });
    await makeLead(t.db, { dealershipId: world, claimedBy: max.id, status: "claimed", claimedAt: at("2026-02-01T15:00:00Z") });
  });

  it("shows Sales Reps 2, divides by 2, and the manager with 5 drives is no top performer; front desk is never listed", async () => {
    const result = salesRepAnalyticsSchema.parse(await salesRepAnalytics(t.db, managementOf(world), PERIOD));
    expect(result.salesReps.map((r) => [r.firstName, r.role, r.periodStats])).toEqual([
      ["Sam", "sales", { leadsClaimed: 3, appointmentsScheduled: 1, testDrivesTaken: 1 }],
      ["Sue", "sales", { leadsClaimed: 1, appointmentsScheduled: 0, testDrivesTaken: 2 }],
    ]);
    // (3 + 1) / 2 = 2 leads, 1 / 2 = 0.5 appointments, (1 + 2) / 2 = 1.5 drives.
    expect(result.summary).toEqual({
      totalReps: 2,
      totalLeadsClaimed: 4,
      totalAppointmentsScheduled: 1,
      totalTestDrivesTaken: 3,
      avgLeadsPerRep: 2,
      avgAppointmentsPerRep: 0.5,
      avgTestDrivesPerRep: 1.5,
    });
    expect(result.topPerformers.mostLeads?.id).toBe(sam.id);
    expect(result.topPerformers.mostAppointments?.id).toBe(sam.id);
    expect(result.topPerformers.mostTestDrives?.id).toBe(sue.id);
  });

  it("counts a manager who claimed a lead in the period, with the role on the row; front desk still not", async () => {
    const meg = await member("Meg", "management");
    await makeLead(t.db, { dealershipId: world, claimedBy: meg.id, status: "claimed", claimedAt: inPeriod });
    await makeLead(t.db, { dealershipId: world, claimedBy: desmond.id, status: "claimed", claimedAt: inPeriod });
    const result = salesRepAnalyticsSchema.parse(await salesRepAnalytics(t.db, managementOf(world), PERIOD));
    expect(result.salesReps.map((r) => [r.firstName, r.role])).toEqual([
      ["Sam", "sales"],
      ["Sue", "sales"],
      ["Meg", "management"],
    ]);
    // 3 reps: (3 + 1 + 1) / 3 = 1.7 leads, 1 / 3 = 0.3 appointments, 3 / 3 = 1 drive; Desmond's claim is no rep's.
    expect(result.summary).toMatchObject({ totalReps: 3, totalLeadsClaimed: 5, avgLeadsPerRep: 1.7, avgAppointmentsPerRep: 0.3, avgTestDrivesPerRep: 1 });
  });
});

describe("the analytics routes", () => {
  let manager: Agent;
  let rep: Agent;
  beforeAll(async () => {
    manager = await signIn(t.app, mona);
    rep = await signIn(t.app, alice);
  });

  it("answers each test-drive period and refuses any other with 400", async () => {
    for (const days of [1, 7, 30, 90]) {
      const res = await manager.get(`/api/dealerships/${dealershipId}/test-drives/analytics/${days}`);
      expect(res.statusCode, String(days)).toBe(200);
      expect(testDriveAnalyticsSchema.parse(res.json()).dailyBreakdown).toHaveLength(days);
    }
    for (const days of ["2", "365", "0", "7.0", "abc"]) {
      const res = await manager.get(`/api/dealerships/${dealershipId}/test-drives/analytics/${days}`);
      expect(res.statusCode, days).toBe(400);
      expect(res.json().fields.days).toBe(ANALYTICS_ERRORS.testDrivePeriod);
    }
  });

  // Decision 177: the recent drives name every rep's clients; a sales rep got them all with a 200 before.
  it("refuses test drive analytics to a sales rep and to front desk with 403, in every period", async () => {
    const desk = await signIn(t.app, fran);
    for (const agent of [rep, desk]) {
      for (const days of [1, 7, 30, 90]) {
        const refused = await agent.get(`/api/dealerships/${dealershipId}/test-drives/analytics/${days}`);
        expect(refused.statusCode, String(days)).toBe(403);
        expect(refused.json().message).toBe(ANALYTICS_ERRORS.testDriveAccess);
        expect(refused.body).not.toContain("Ann A");
      }
    }
  });

  it("answers each sales-rep period to management, refuses other periods with 400 and a sales rep with 403", async () => {
    for (const days of [7, 30, 90, 365]) {
      const res = await manager.get(`/api/dealerships/${dealershipId}/sales-rep-analytics/${days}`);
      expect(res.statusCode, String(days)).toBe(200);
      salesRepAnalyticsSchema.parse(res.json());
    }
    expect((await manager.get(`/api/dealerships/${dealershipId}/sales-rep-analytics/1`)).statusCode).toBe(400);
    const refused = await rep.get(`/api/dealerships/${dealershipId}/sales-rep-analytics/30`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ANALYTICS_ERRORS.salesRepAccess);
  });

  it("counts a drive taken out through the API today in the one-day period", async () => {
    const before = (await manager.get(`/api/dealerships/${dealershipId}/test-drives/analytics/1`)).json().totalTestDrives as number;
    const res = await rep.post("/api/test-drives", {
      dealershipId,
      clientType: "new",
      firstName: "Now",
      lastName: "Client",
      email: "now@example.com",
      phone: "416-555-0100",
      vehicleType: "manual",
      stockNumber: "NOW-1",
      vehicleDriven: "2020 VW Golf",
    });
    expect(res.statusCode).toBe(201);
    const after = (await manager.get(`/api/dealerships/${dealershipId}/test-drives/analytics/1`)).json();
    expect(after.totalTestDrives).toBe(before + 1);
    expect(after.recentTestDrives[0]).toMatchObject({ vehicleDriven: "2020 VW Golf", clientName: "Now Client", returnedAt: null });
  });
});
