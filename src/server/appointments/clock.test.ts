import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/helpers/test-app";
import { localMoment, localToday } from "../../shared/dealership-clock";
import { appointmentInputSchema } from "../../shared/schemas/appointment";
import { makeDealership, makeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { listAppointments, setAppointmentStatus, upcomingAppointments, type Viewer } from "./queries";

// "Today" and "upcoming" are on the dealership's clock (spec part 1 §2.3, §5), while the server runs in UTC.
// The clock is injected: each query gets `now`, so these tests pin the instant instead of faking timers.

const TZ = "America/Toronto"; // UTC-5 in November (EST), UTC-4 in July (EDT)
let t: TestApp;
let viewer: Viewer;
let ids: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const dealership = await makeDealership(t.db, { timezone: TZ });
  const manager = await makeUser(t.db, { memberships: [{ dealershipId: dealership.id, role: "management" }] });
  viewer = { userId: manager.id, dealershipId: dealership.id, role: "management", isPlatformAdmin: false };
  const make = async (date: string, time: string) =>
    (await makeAppointment(t.db, { dealershipId: dealership.id, userId: manager.id, date, time })).id;
  ids = {
    nov22Morning: await make("2026-11-22", "09:00"),
    nov22Ten: await make("2026-11-22", "10:00"),
    nov22Late: await make("2026-11-22", "17:30"),
    nov23Morning: await make("2026-11-23", "09:00"),
    nov24: await make("2026-11-24", "13:00"),
  };
});
afterAll(() => t.close());

const clockAt = (iso: string) => ({ now: new Date(iso), timezone: TZ });
const idsOf = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

describe("the dealership's clock", () => {
  it("reads the local date and time in Toronto, not UTC", () => {
    expect(process.env.TZ ?? "UTC").not.toBe(TZ);
    expect(localMoment(TZ, new Date("2026-11-23T04:50:00Z"))).toEqual({ date: "2026-11-22", time: "23:50" });
    expect(localMoment(TZ, new Date("2026-11-23T05:10:00Z"))).toEqual({ date: "2026-11-23", time: "00:10" });
    expect(localMoment(TZ, new Date("2026-07-15T03:30:00Z"))).toEqual({ date: "2026-07-14", time: "23:30" });
  });
});

describe("type=today around midnight in Toronto", () => {
  it("at 23:50 in Toronto (already the 23rd in UTC) is still the 22nd", async () => {
    const rows = await listAppointments(t.db, viewer, { type: "today" }, clockAt("2026-11-23T04:50:00Z"));
    expect(idsOf(rows)).toEqual([ids.nov22Morning, ids.nov22Ten, ids.nov22Late]);
  });

  it("at 00:10 in Toronto is the 23rd", async () => {
    const rows = await listAppointments(t.db, viewer, { type: "today" }, clockAt("2026-11-23T05:10:00Z"));
    expect(idsOf(rows)).toEqual([ids.nov23Morning]);
  });
});

describe("upcoming around midnight in Toronto", () => {
  it("at 09:00 in Toronto (14:00 UTC) still counts today's 10:00 and 17:30 as upcoming", async () => {
    const rows = await upcomingAppointments(t.db, viewer, clockAt("2026-11-22T14:00:00Z"));
    expect(idsOf(rows)).toEqual([ids.nov22Ten, ids.nov22Late, ids.nov23Morning, ids.nov24]);
  });

  it("treats an appointment at exactly now as no longer upcoming (later than now)", async () => {
    const rows = await upcomingAppointments(t.db, viewer, clockAt("2026-11-22T15:00:00Z")); // 10:00 Toronto
    expect(idsOf(rows)).toEqual([ids.nov22Late, ids.nov23Morning, ids.nov24]);
  });

  it("at 23:50 in Toronto shows nothing of the 22nd and everything from the 23rd", async () => {
    const rows = await upcomingAppointments(t.db, viewer, clockAt("2026-11-23T04:50:00Z"));
    expect(idsOf(rows)).toEqual([ids.nov23Morning, ids.nov24]);
  });

  it("at 00:10 in Toronto still shows the 23rd's 09:00", async () => {
    const rows = await upcomingAppointments(t.db, viewer, clockAt("2026-11-23T05:10:00Z"));
    expect(idsOf(rows)).toEqual([ids.nov23Morning, ids.nov24]);
  });

  it("stops at the limit", async () => {
    const rows = await upcomingAppointments(t.db, viewer, clockAt("2026-11-22T05:00:00Z"), 2);
    expect(idsOf(rows)).toEqual([ids.nov22Morning, ids.nov22Ten]);
  });
});

describe("the past-date rule around midnight in Toronto", () => {
  const input = (date: string) => ({ title: "Visit", firstName: "A", lastName: "B", date, time: "09:00" });

  it("at 23:50 in Toronto (the 23rd in UTC) still accepts the 22nd", () => {
    const schema = appointmentInputSchema(localToday(TZ, new Date("2026-11-23T04:50:00Z")));
    expect(schema.safeParse(input("2026-11-22")).success).toBe(true);
    expect(schema.safeParse(input("2026-11-21")).success).toBe(false);
  });

  it("at 00:10 in Toronto refuses the 22nd", () => {
    const schema = appointmentInputSchema(localToday(TZ, new Date("2026-11-23T05:10:00Z")));
    const result = schema.safeParse(input("2026-11-22"));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Date cannot be in the past");
  });
});

describe("actual duration from an injected clock", () => {
  it("is the whole minutes between arrival and completion", async () => {
    const id = ids.nov24!;
    await t.db.transaction((tx) => setAppointmentStatus(tx, viewer, id, "arrived", new Date("2026-11-24T18:02:10Z")));
    const done = (await t.db.transaction((tx) => setAppointmentStatus(tx, viewer, id, "completed", new Date("2026-11-24T18:39:40Z"))))?.row;
    expect(done).toMatchObject({ status: "completed", actualDuration: 38 });
    expect(done?.arrivedAt?.toISOString()).toBe("2026-11-24T18:02:10.000Z");
    expect(done?.completedAt?.toISOString()).toBe("2026-11-24T18:39:40.000Z");
  });
});
