import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { DEFAULT_BUSINESS_HOURS, WEEKDAY_LABELS, weekdayOf } from "../../shared/business-hours";
import { localToday, addDays } from "../../shared/dealership-clock";
import { TAKE_OUT_MESSAGES, TEST_DRIVE_ERRORS, testDriveSchema, type TestDrive } from "../../shared/schemas/test-drive";
import { vehicleSchema, type Vehicle } from "../../shared/schemas/vehicle";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { grantPlatformAdminByEmail } from "../platform/admins";
import { makeUnit, makeVehicle } from "../db/factories-test-drives";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { testDriveUnits, testDrives, vehicles } from "../db/schema/test-drives";

// Taking out, returning, booking, editing and the detail screen's statuses (part 2 §2, §4, §5, §7; decisions 062-064).

let t: TestApp;
let dealershipId: string;
let people: Record<"sales" | "sales2" | "frontDesk" | "management", MadeUser>;
let agents: Record<"sales" | "sales2" | "frontDesk" | "management", Agent>;
let today: string;

beforeAll(async () => {
  t = await createTestApp();
  const ours = await makeDealership(t.db, { name: "Drive Motors" });
  dealershipId = ours.id;
  const member = (role: "sales" | "frontDesk" | "management", firstName: string) => ({
    firstName,
    memberships: [{ dealershipId, role }],
  });
  people = {
    sales: await makeUser(t.db, member("sales", "Sally")),
    sales2: await makeUser(t.db, member("sales", "Sam")),
    frontDesk: await makeUser(t.db, member("frontDesk", "Fran")),
    management: await makeUser(t.db, member("management", "Maggie")),
  };
  agents = {
    sales: await signIn(t.app, people.sales),
    sales2: await signIn(t.app, people.sales2),
    frontDesk: await signIn(t.app, people.frontDesk),
    management: await signIn(t.app, people.management),
  };
  today = localToday("America/Toronto");
});
afterAll(() => t.close());

const newClient = { clientType: "new", firstName: "Casey", lastName: "Driver", email: "casey@example.com", phone: "416-555-0199" };

async function takeOut(who: Agent, vehicleId: string, client: Record<string, unknown> = newClient) {
  return who.post("/api/test-drives", { dealershipId, ...client, vehicleType: "vehicle", vehicleId, status: "out" });
}

async function eventsOf(type: string) {
  return t.db.select().from(domainEvents).where(eq(domainEvents.type, type)).orderBy(asc(domainEvents.id));
}

describe("taking a vehicle out", () => {
  it("takes an available vehicle out for a new client, who becomes the rep's lead in the same transaction", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId, year: "2023", make: "Honda", model: "Civic", trim: "EX", stockNumber: "TO-1" });
    const res = await takeOut(agents.sales, vehicle.id);
    expect(res.statusCode).toBe(201);
    const drive = testDriveSchema.parse(res.json());
    expect(drive).toMatchObject({
      status: "out",
      vehicleType: "vehicle",
      vehicleId: vehicle.id,
      vehicleDriven: "2023 Honda Civic EX",
      stockNumber: "TO-1",
      firstName: "Casey",
      lastName: "Driver",
      takenOutBy: people.sales.id,
      takenOutByName: `Sally ${people.sales.lastName}`,
      testDriveDate: today,
    });
    expect(drive.takenOutAt).not.toBeNull();
    const [lead] = await t.db.select().from(leads).where(eq(leads.id, drive.leadId as string));
    expect(lead).toMatchObject({ firstName: "Casey", lastName: "Driver", email: "casey@example.com", status: "claimed", claimedBy: people.sales.id, dealershipId });
    const [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row).toMatchObject({ testDriveStatus: "out", currentTestDriveId: drive.id, currentClientName: "Casey Driver", takenOutBy: people.sales.id });
    const taken = (await eventsOf("test_drive.taken_out")).filter((e) => (e.payload as { testDrive: { id: string } }).testDrive.id === drive.id);
    expect(taken).toHaveLength(1);
  });

  it("leaves a new client's lead unclaimed in New Leads when front desk takes the vehicle out", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const drive = (await takeOut(agents.frontDesk, vehicle.id, { ...newClient, email: "fd@example.com" })).json<TestDrive>();
    const [lead] = await t.db.select().from(leads).where(eq(leads.id, drive.leadId as string));
    expect(lead).toMatchObject({ status: "new", claimedBy: null });
  });

  it("takes a vehicle out for an existing client with the lead's name and contact", async () => {
    const lead = await makeLead(t.db, { dealershipId, firstName: "Lena", lastName: "Lead", email: "lena@example.com", claimedBy: people.sales.id, status: "claimed" });
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const res = await takeOut(agents.sales, vehicle.id, { clientType: "existing", leadId: lead.id, firstName: "Ignored", lastName: "Ignored" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ clientType: "existing", leadId: lead.id, firstName: "Lena", lastName: "Lead", email: "lena@example.com" });
  });

  it("refuses a colleague's client for a sales rep with 404 and takes nothing out", async () => {
    const lead = await makeLead(t.db, { dealershipId, claimedBy: people.sales2.id, status: "claimed" });
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const res = await takeOut(agents.sales, vehicle.id, { clientType: "existing", leadId: lead.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(TEST_DRIVE_ERRORS.leadNotFound);
    const [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row?.testDriveStatus).toBe("available");
  });

  it("refuses a vehicle that is already out with 409 and keeps the first drive", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const first = (await takeOut(agents.sales, vehicle.id)).json<TestDrive>();
    const before = await t.db.select().from(leads);
    const second = await takeOut(agents.management, vehicle.id, { ...newClient, email: "second@example.com" });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(TEST_DRIVE_ERRORS.vehicleOut);
    expect(await t.db.select().from(leads)).toHaveLength(before.length);
    const [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row?.currentTestDriveId).toBe(first.id);
  });

  it("refuses a vehicle not offered for test drives with 409", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId, isTestDriveEnabled: false });
    const res = await takeOut(agents.sales, vehicle.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(TEST_DRIVE_ERRORS.vehicleUnavailable);
  });

  it("answers 404 for another dealership's vehicle", async () => {
    const elsewhere = await makeDealership(t.db);
    const vehicle = await makeVehicle(t.db, { dealershipId: elsewhere.id });
    const res = await takeOut(agents.management, vehicle.id);
    expect(res.statusCode).toBe(404);
    const [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row?.testDriveStatus).toBe("available");
  });

  it("takes a test-drive unit out and records who has it", async () => {
    const unit = await makeUnit(t.db, { dealershipId, year: "2025", make: "Kia", model: "EV6", stockNumber: "U-1" });
    const res = await agents.sales.post("/api/test-drives", { dealershipId, ...newClient, email: "u@example.com", vehicleType: "tdu", tduId: unit.id });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ vehicleType: "tdu", tduId: unit.id, vehicleDriven: "2025 Kia EV6", stockNumber: "U-1" });
    const [row] = await t.db.select().from(testDriveUnits).where(eq(testDriveUnits.id, unit.id));
    expect(row).toMatchObject({ status: "out", currentUserId: people.sales.id, currentUserName: `Sally ${people.sales.lastName}` });
  });

  it("takes a hand-entered vehicle out from its stock number, make and model", async () => {
    const res = await agents.sales.post("/api/test-drives", {
      dealershipId,
      ...newClient,
      email: "m@example.com",
      vehicleType: "manual",
      stockNumber: "HAND-9",
      make: "Subaru",
      model: "Outback",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ vehicleType: "manual", vehicleDriven: "Subaru Outback", stockNumber: "HAND-9", vehicleId: null });
  });

  it("ignores takenOutBy and takenOutAt in the body: the session's user and the server's clock decide", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const res = await agents.sales.post("/api/test-drives", {
      dealershipId,
      ...newClient,
      email: "x@example.com",
      vehicleType: "vehicle",
      vehicleId: vehicle.id,
      takenOutBy: people.management.id,
      takenOutAt: "2001-01-01T00:00:00.000Z",
    });
    expect(res.json()).toMatchObject({ takenOutBy: people.sales.id });
    expect(res.json().takenOutAt.startsWith("2001")).toBe(false);
  });
});

describe("the take-out rules (part 2 §5)", () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ["no vehicle selected", { ...newClient, vehicleType: "vehicle" }, "vehicleId", TAKE_OUT_MESSAGES.noVehicle],
    ["no unit selected", { ...newClient, vehicleType: "tdu" }, "tduId", TAKE_OUT_MESSAGES.noVehicle],
    ["manual entry without a stock number", { ...newClient, vehicleType: "manual", make: "A", model: "B" }, "stockNumber", TAKE_OUT_MESSAGES.vehicleInformation],
    ["manual entry without a model", { ...newClient, vehicleType: "manual", stockNumber: "S", make: "A" }, "vehicleDriven", TAKE_OUT_MESSAGES.vehicleInformation],
    ["a new client without a phone", { ...newClient, phone: "", vehicleType: "manual", stockNumber: "S", vehicleDriven: "Car" }, "phone", TAKE_OUT_MESSAGES.clientInformation],
    ["a new client without an email", { ...newClient, email: "", vehicleType: "manual", stockNumber: "S", vehicleDriven: "Car" }, "email", TAKE_OUT_MESSAGES.clientInformation],
    ["a new client with a malformed email", { ...newClient, email: "nope", vehicleType: "manual", stockNumber: "S", vehicleDriven: "Car" }, "email", TAKE_OUT_MESSAGES.email],
    ["an existing client not chosen", { clientType: "existing", vehicleType: "manual", stockNumber: "S", vehicleDriven: "Car" }, "leadId", TAKE_OUT_MESSAGES.existingClient],
  ];
  for (const [name, body, field, message] of cases) {
    it(`refuses ${name} with "${message}" and writes nothing`, async () => {
      const before = await t.db.select().from(testDrives);
      const res = await agents.sales.post("/api/test-drives", { dealershipId, ...body });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[field]).toBe(message);
      expect(await t.db.select().from(testDrives)).toHaveLength(before.length);
    });
  }

  it("refuses a booking in the past on the dealership's clock", async () => {
    const res = await agents.sales.post("/api/test-drives", {
      dealershipId,
      ...newClient,
      vehicleType: "manual",
      stockNumber: "S",
      vehicleDriven: "Car",
      status: "scheduled",
      testDriveDate: addDays(today, -1),
      testDriveTime: "10:00",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.testDriveDate).toBe(TAKE_OUT_MESSAGES.datePast);
  });
});

describe("returning", () => {
  it("ends the open drive in one transaction: returnedAt, returnedBy, duration, vehicle available", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const drive = (await takeOut(agents.sales, vehicle.id)).json<TestDrive>();
    // Forty-two minutes on the road.
    await t.db.update(testDrives).set({ takenOutAt: new Date(Date.now() - 42 * 60_000) }).where(eq(testDrives.id, drive.id));
    const res = await agents.frontDesk.put(`/api/vehicles/${vehicle.id}/test-drive-status`, { status: "available", clientName: "" });
    expect(res.statusCode).toBe(200);
    const answered = vehicleSchema.parse(res.json());
    expect(answered).toMatchObject({ testDriveStatus: "available", currentTestDriveId: null, currentClientName: null, takenOutAt: null });
    const [row] = await t.db.select().from(testDrives).where(eq(testDrives.id, drive.id));
    expect(row).toMatchObject({ status: "completed", returnedBy: people.frontDesk.id, duration: 42 });
    expect(row?.returnedAt).not.toBeNull();
    const returned = (await eventsOf("test_drive.returned")).filter((e) => (e.payload as { testDrive: { id: string } }).testDrive.id === drive.id);
    expect(returned).toHaveLength(1);
  });

  it("counts a returned drive in the dashboard's Test Drives Completed for today", async () => {
    const metrics = async () => (await agents.sales.get(`/api/dealerships/${dealershipId}/metrics`)).json<{ testDrivesCompletedToday: number }>();
    const before = (await metrics()).testDrivesCompletedToday;
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const drive = (await takeOut(agents.sales, vehicle.id, { ...newClient, email: "metric@example.com" })).json<TestDrive>();
    expect((await metrics()).testDrivesCompletedToday).toBe(before);
    await agents.sales.post(`/api/test-drives/${drive.id}/return`);
    expect((await metrics()).testDrivesCompletedToday).toBe(before + 1);
  });

  it("refuses a second return with 409 and leaves the first one's figures", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const drive = (await takeOut(agents.sales, vehicle.id)).json<TestDrive>();
    expect((await agents.sales.post(`/api/test-drives/${drive.id}/return`)).statusCode).toBe(200);
    const [first] = await t.db.select().from(testDrives).where(eq(testDrives.id, drive.id));
    const again = await agents.management.post(`/api/test-drives/${drive.id}/return`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(TEST_DRIVE_ERRORS.notOut);
    const byVehicle = await agents.management.put(`/api/vehicles/${vehicle.id}/test-drive-status`, { status: "available" });
    expect(byVehicle.statusCode).toBe(409);
    expect(byVehicle.json().message).toBe(TEST_DRIVE_ERRORS.vehicleNotOut);
    const [after] = await t.db.select().from(testDrives).where(eq(testDrives.id, drive.id));
    expect(after).toEqual(first);
  });

  it("returns a unit through its status route", async () => {
    const unit = await makeUnit(t.db, { dealershipId });
    const drive = (await agents.sales.post("/api/test-drives", { dealershipId, ...newClient, email: "r@example.com", vehicleType: "tdu", tduId: unit.id })).json<TestDrive>();
    const res = await agents.sales.put(`/api/test-drive-units/${unit.id}/status`, { status: "available" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "available", currentUserId: null, currentTestDriveId: null });
    const [row] = await t.db.select().from(testDrives).where(eq(testDrives.id, drive.id));
    expect(row?.status).toBe("completed");
  });

  it("refuses to put a vehicle out without a test drive", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const res = await agents.sales.put(`/api/vehicles/${vehicle.id}/test-drive-status`, { status: "out", clientName: "Someone" });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(TEST_DRIVE_ERRORS.takeOutWithTestDrive);
    const [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row?.testDriveStatus).toBe("available");
  });
});

describe("booking, editing and the detail screen", () => {
  async function book(vehicle?: Vehicle | { id: string }) {
    const res = await agents.sales.post("/api/test-drives", {
      dealershipId,
      ...newClient,
      email: `book${Math.random()}@example.com`,
      ...(vehicle ? { vehicleType: "vehicle", vehicleId: vehicle.id } : { vehicleType: "manual", stockNumber: "B-1", vehicleDriven: "2022 Kia Soul" }),
      status: "scheduled",
      testDriveDate: addDays(today, 2),
      testDriveTime: "14:30",
      notes: "Wants the sunroof",
    });
    expect(res.statusCode).toBe(201);
    return res.json<TestDrive>();
  }

  it("books a drive for a date and time on the dealership's clock without taking the vehicle out, and shows it booked", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId, stockNumber: "BOOK-1" });
    const drive = await book(vehicle);
    expect(drive).toMatchObject({ status: "scheduled", testDriveDate: addDays(today, 2), testDriveTime: "14:30", takenOutAt: null, takenOutBy: null });
    const list = await agents.frontDesk.get(`/api/dealerships/${dealershipId}/vehicles?q=BOOK-1`);
    expect(list.json()[0]).toMatchObject({
      testDriveStatus: "available",
      booking: { testDriveId: drive.id, testDriveDate: addDays(today, 2), testDriveTime: "14:30", clientName: "Casey Driver" },
    });
    const upcoming = await agents.frontDesk.get(`/api/dealerships/${dealershipId}/test-drives?status=scheduled`);
    expect(upcoming.json().map((d: TestDrive) => d.id)).toContain(drive.id);
  });

  it("lists returned drives most recently back first (the Returned list), each with its return and duration", async () => {
    const [first, second] = [await makeVehicle(t.db, { dealershipId }), await makeVehicle(t.db, { dealershipId })];
    const a = testDriveSchema.parse((await takeOut(agents.sales, first.id)).json());
    const b = testDriveSchema.parse((await takeOut(agents.sales, second.id)).json());
    expect((await agents.sales.post(`/api/test-drives/${b.id}/return`)).statusCode).toBe(200);
    expect((await agents.sales.post(`/api/test-drives/${a.id}/return`)).statusCode).toBe(200);
    const returned = (await agents.frontDesk.get(`/api/dealerships/${dealershipId}/test-drives?status=completed`)).json<TestDrive[]>();
    const ours = returned.filter((d) => d.id === a.id || d.id === b.id);
    expect(ours.map((d) => d.id)).toEqual([a.id, b.id]);
    expect(ours.every((d) => d.status === "completed" && d.returnedAt !== null && d.duration !== null)).toBe(true);
  });

  it("edits vehicleDriven, stockNumber, date, time and notes", async () => {
    const drive = await book();
    const res = await agents.sales.patch(`/api/test-drives/${drive.id}`, {
      vehicleDriven: "2021 Mazda 3",
      stockNumber: "Z-9",
      testDriveDate: addDays(today, 5),
      testDriveTime: "09:15",
      notes: "",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ vehicleDriven: "2021 Mazda 3", stockNumber: "Z-9", testDriveDate: addDays(today, 5), testDriveTime: "09:15", notes: null });
  });

  it("refuses a booking on a day the dealership is closed, new or moved, with the day named (decision 236)", async () => {
    const closedDay = addDays(today, 3);
    const weekday = weekdayOf(closedDay);
    const hours = { ...DEFAULT_BUSINESS_HOURS, [weekday]: null };
    expect((await agents.management.put(`/api/dealerships/${dealershipId}/settings`, { businessHours: hours })).statusCode).toBe(200);
    try {
      const message = `The dealership is closed on ${WEEKDAY_LABELS[weekday]}s`;
      const refused = await agents.sales.post("/api/test-drives", {
        dealershipId,
        ...newClient,
        email: `closed${Math.random()}@example.com`,
        vehicleType: "manual",
        stockNumber: "C-1",
        vehicleDriven: "2025 Hyundai Tucson Preferred",
        status: "scheduled",
        testDriveDate: closedDay,
        testDriveTime: "14:30",
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ message: `testDriveDate: ${message}`, fields: { testDriveDate: message } });
      // An open day at any time is booked: a drive before opening or after closing is an arrangement, not a slot.
      const drive = await book();
      const early = await agents.sales.patch(`/api/test-drives/${drive.id}`, { testDriveTime: "07:45" });
      expect(early.statusCode, early.body).toBe(200);
      const moved = await agents.sales.patch(`/api/test-drives/${drive.id}`, { testDriveDate: closedDay, testDriveTime: "10:00" });
      expect(moved.statusCode, moved.body).toBe(400);
      expect(moved.json().fields).toEqual({ testDriveDate: message });
      expect((await agents.sales.get(`/api/test-drives/${drive.id}`)).json()).toMatchObject({ testDriveDate: addDays(today, 2), testDriveTime: "07:45" });
      // A booking already on a day closed since keeps its day when something else of it is edited.
      await t.db.update(testDrives).set({ testDriveDate: closedDay }).where(eq(testDrives.id, drive.id));
      const kept = await agents.sales.patch(`/api/test-drives/${drive.id}`, { testDriveDate: closedDay, notes: "Customer confirmed by phone" });
      expect(kept.statusCode, kept.body).toBe(200);
    } finally {
      await agents.management.put(`/api/dealerships/${dealershipId}/settings`, { businessHours: DEFAULT_BUSINESS_HOURS });
    }
  });

  it("refuses an edit with an unknown field or a malformed time", async () => {
    const drive = await book();
    expect((await agents.sales.patch(`/api/test-drives/${drive.id}`, { status: "completed" })).statusCode).toBe(400);
    const bad = await agents.sales.patch(`/api/test-drives/${drive.id}`, { testDriveTime: "25:00" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.testDriveTime).toBe(TAKE_OUT_MESSAGES.timeFormat);
  });

  it("sets in_progress on a booking: the vehicle goes out on it; completed returns it with a duration", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const drive = await book(vehicle);
    const started = await agents.sales.patch(`/api/test-drives/${drive.id}/status`, { status: "in_progress" });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ status: "out", takenOutBy: people.sales.id });
    let [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row).toMatchObject({ testDriveStatus: "out", currentTestDriveId: drive.id });
    const done = await agents.sales.patch(`/api/test-drives/${drive.id}/status`, { status: "completed" });
    expect(done.json()).toMatchObject({ status: "completed", returnedBy: people.sales.id });
    expect(done.json().duration).toEqual(expect.any(Number));
    [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row?.testDriveStatus).toBe("available");
    const changes = (await eventsOf("test_drive.status_changed")).filter((e) => (e.payload as { testDrive: { id: string } }).testDrive.id === drive.id);
    expect(changes.map((e) => (e.payload as { previousStatus: string }).previousStatus)).toEqual(["scheduled", "out"]);
  });

  it("refuses in_progress with 409 while the booked vehicle is out with someone else", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const drive = await book(vehicle);
    await takeOut(agents.sales2, vehicle.id, { ...newClient, email: "other@example.com" });
    const res = await agents.sales.patch(`/api/test-drives/${drive.id}/status`, { status: "in_progress" });
    expect(res.statusCode).toBe(409);
    const [row] = await t.db.select().from(testDrives).where(eq(testDrives.id, drive.id));
    expect(row?.status).toBe("scheduled");
  });

  it("frees the vehicle when an open drive is cancelled, and accepts every status in any order", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const drive = (await takeOut(agents.sales, vehicle.id, { ...newClient, email: "any@example.com" })).json<TestDrive>();
    for (const status of ["cancelled", "no_show", "scheduled", "completed", "in_progress", "cancelled"]) {
      const res = await agents.sales.patch(`/api/test-drives/${drive.id}/status`, { status });
      expect(res.statusCode, status).toBe(200);
    }
    const [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row?.testDriveStatus).toBe("available");
    const bad = await agents.sales.patch(`/api/test-drives/${drive.id}/status`, { status: "out" });
    expect(bad.statusCode).toBe(400);
  });

  it("deletes a drive for whoever booked it and frees its vehicle; another rep gets 403", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const drive = (await takeOut(agents.sales, vehicle.id, { ...newClient, email: "del@example.com" })).json<TestDrive>();
    // The drive's lead is Sally's client: Sam cannot see it at all.
    expect((await agents.sales2.delete(`/api/test-drives/${drive.id}`)).statusCode).toBe(404);
    const manual = await t.db.update(testDrives).set({ leadId: null }).where(eq(testDrives.id, drive.id)).returning();
    expect(manual).toHaveLength(1);
    expect((await agents.sales2.delete(`/api/test-drives/${drive.id}`)).statusCode).toBe(403);
    const res = await agents.sales.delete(`/api/test-drives/${drive.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Test drive deleted successfully" });
    expect(await t.db.select().from(testDrives).where(eq(testDrives.id, drive.id))).toHaveLength(0);
    const [row] = await t.db.select().from(vehicles).where(eq(vehicles.id, vehicle.id));
    expect(row?.testDriveStatus).toBe("available");
  });

  it("answers 404 Test drive not found for a missing id", async () => {
    const res = await agents.sales.get("/api/test-drives/book");
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(TEST_DRIVE_ERRORS.testDriveNotFound);
  });
});

describe("the platform overview", () => {
  it("counts a drive taken out in the installation's test drives, and not a booking", async () => {
    const admin = await makeUser(t.db);
    await grantPlatformAdminByEmail(t.db, admin.email);
    const platform = await signIn(t.app, admin);
    const total = async () => (await platform.get("/api/platform/overview")).json<{ totalTestDrives: number }>().totalTestDrives;
    const before = await total();
    await agents.sales.post("/api/test-drives", { dealershipId, ...newClient, email: "ov1@example.com", vehicleType: "manual", stockNumber: "OV", vehicleDriven: "Car" });
    expect(await total()).toBe(before + 1);
    await agents.sales.post("/api/test-drives", {
      dealershipId,
      ...newClient,
      email: "ov2@example.com",
      vehicleType: "manual",
      stockNumber: "OV",
      vehicleDriven: "Car",
      status: "scheduled",
      testDriveDate: addDays(today, 1),
      testDriveTime: "10:00",
    });
    expect(await total()).toBe(before + 1);
  });
});

describe("a lead's test drives", () => {
  it("lists a lead's drives for whoever may see the lead, and 404 for a colleague's client", async () => {
    const lead = await makeLead(t.db, { dealershipId, claimedBy: people.sales.id, status: "claimed" });
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const drive = (await takeOut(agents.sales, vehicle.id, { clientType: "existing", leadId: lead.id })).json<TestDrive>();
    const mine = await agents.sales.get(`/api/test-drives?leadId=${lead.id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().map((d: TestDrive) => d.id)).toEqual([drive.id]);
    expect((await agents.management.get(`/api/test-drives?leadId=${lead.id}`)).json()).toHaveLength(1);
    const theirs = await agents.sales2.get(`/api/test-drives?leadId=${lead.id}`);
    expect(theirs.statusCode).toBe(404);
    expect((await agents.sales2.get(`/api/test-drives/${drive.id}`)).statusCode).toBe(404);
  });
});
