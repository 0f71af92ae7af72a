import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { addDays, localToday } from "../../shared/dealership-clock";
import { agendaSchema, type AgendaItem } from "../../shared/schemas/responses/tasks";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { makeLead } from "../db/factories-leads";
import { makeTestDrive } from "../db/factories-test-drives";
import { appointments } from "../db/schema/appointments";
import { tasks } from "../db/schema/tasks";
import { testDrives } from "../db/schema/test-drives";

// GET /api/dealerships/{id}/agenda (issue 27): a day's tasks, appointments and test drives in time order, with
// today's overdue tasks first; scope=mine for everyone, scope=all for front desk and management.

const TZ = "America/Vancouver";
let t: TestApp;
let ours: string;
let theirs: string;
let people: Record<"sales" | "sales2" | "frontDesk" | "outsider", MadeUser>;
let as: Record<keyof typeof people, Agent>;
let ownLead: string;
let colleagueLead: string;
let today: string;

const agenda = (who: Agent, query: string) => who.get(`/api/dealerships/${ours}/agenda${query}`);
const kinds = (items: AgendaItem[]) => items.map((i) => `${i.type}:${i.title}`);

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db, { name: "Coastline", timezone: TZ })).id;
  theirs = (await makeDealership(t.db, { name: "Elsewhere", timezone: TZ })).id;
  const member = (role: "sales" | "frontDesk") => [{ dealershipId: ours, role }];
  people = {
    sales: await makeUser(t.db, { firstName: "Sam", lastName: "Sales", memberships: member("sales") }),
    sales2: await makeUser(t.db, { firstName: "Riley", lastName: "Chen", memberships: member("sales") }),
    frontDesk: await makeUser(t.db, { firstName: "Fran", lastName: "Desk", memberships: member("frontDesk") }),
    outsider: await makeUser(t.db, { memberships: [{ dealershipId: theirs, role: "management" }] }),
  };
  as = {
    sales: await signIn(t.app, people.sales),
    sales2: await signIn(t.app, people.sales2),
    frontDesk: await signIn(t.app, people.frontDesk),
    outsider: await signIn(t.app, people.outsider),
  };
  ownLead = (await makeLead(t.db, { dealershipId: ours, firstName: "Guadalupe", lastName: "Wojciechowski", claimedBy: people.sales.id })).id;
  colleagueLead = (await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales2.id })).id;
  today = localToday(TZ);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(tasks);
  await t.db.delete(appointments);
  await t.db.delete(testDrives);
});

async function task(who: Agent, leadId: string, dueAt: string, note: string) {
  const response = await who.post(`/api/leads/${leadId}/tasks`, { type: "call", dueAt, note });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

describe("GET /api/dealerships/{id}/agenda", () => {
  it("puts a day's tasks, appointments and test drives in time order, on the dealership's clock", async () => {
    const day = addDays(today, 2);
    await task(as.sales, ownLead, `${day}T15:00`, "afternoon call");
    await task(as.sales, ownLead, `${day}T08:30`, "early call");
    await task(as.sales, ownLead, `${addDays(day, 1)}T08:00`, "next day");
    await makeAppointment(t.db, { dealershipId: ours, userId: people.sales.id, date: day, time: "10:00", title: "Walkaround", leadId: ownLead });
    await makeTestDrive(t.db, { dealershipId: ours, leadId: ownLead, createdBy: people.sales.id, testDriveDate: day, testDriveTime: "11:30", vehicleDriven: "2025 Toyota RAV4 Hybrid XSE" });
    // A colleague's: not in Sam's.
    await makeAppointment(t.db, { dealershipId: ours, userId: people.sales2.id, date: day, time: "09:00", title: "Riley's" });

    const response = await agenda(as.sales, `?date=${day}&scope=mine`);
    expect(response.statusCode).toBe(200);
    const body = agendaSchema.parse(response.json());
    expect(kinds(body.items)).toEqual(["task:Call: early call", "appointment:Walkaround", "test_drive:2025 Toyota RAV4 Hybrid XSE", "task:Call: afternoon call"]);
    const at = (i: number) => new Intl.DateTimeFormat("en-CA", { timeZone: TZ, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(body.items[i]!.at));
    expect([at(0), at(1), at(2), at(3)]).toEqual(["08:30", "10:00", "11:30", "15:00"]);
    expect(body.items[1]).toMatchObject({ leadId: ownLead, name: expect.any(String), overdue: false });
    expect(body.items[0]).toMatchObject({ name: "Guadalupe Wojciechowski", taskType: "call", assignee: { id: people.sales.id, name: "Sam Sales" } });
  });

  it("shows today's open overdue tasks, from any earlier day, as overdue", async () => {
    const old = await task(as.sales, ownLead, new Date(Date.now() - 3 * 86_400_000).toISOString(), "three days late");
    const doneLate = await task(as.sales, ownLead, new Date(Date.now() - 2 * 86_400_000).toISOString(), "done");
    await as.sales.patch(`/api/tasks/${doneLate}`, { status: "done" });
    const body = agendaSchema.parse((await agenda(as.sales, "")).json());
    expect(body.date).toBe(today);
    expect(body.items.map((i) => [i.id, i.overdue])).toEqual([[old, true]]);
    // Another day's agenda does not carry them.
    expect((await agenda(as.sales, `?date=${addDays(today, 1)}`)).json().items).toEqual([]);
  });

  it("gives front desk everyone's with scope=all; refuses scope=all to sales (403) and another dealership (403)", async () => {
    const day = addDays(today, 1);
    await task(as.sales, ownLead, `${day}T09:00`, "Sam's");
    await task(as.sales2, colleagueLead, `${day}T10:00`, "Riley's");
    expect(kinds((await agenda(as.frontDesk, `?date=${day}&scope=all`)).json().items)).toEqual(["task:Call: Sam's", "task:Call: Riley's"]);
    expect((await agenda(as.frontDesk, `?date=${day}`)).json().items).toEqual([]);
    expect(kinds((await agenda(as.sales2, `?date=${day}`)).json().items)).toEqual(["task:Call: Riley's"]);
    expect((await agenda(as.sales, `?date=${day}&scope=all`)).statusCode).toBe(403);
    expect((await agenda(as.outsider, `?date=${day}`)).statusCode).toBe(403);
    expect((await agenda(anonymous(t.app), "")).statusCode).toBe(401);
  });

  it("gives the calendar's day its appointments with their length and its drives, for each role (decision 230)", async () => {
    const day = addDays(today, 3);
    await makeAppointment(t.db, { dealershipId: ours, userId: people.sales.id, date: day, time: "10:00", title: "Walkaround", leadId: ownLead, duration: 90 });
    await makeAppointment(t.db, { dealershipId: ours, userId: people.sales2.id, date: day, time: "10:00", title: "Riley's visit" });
    const drives = [
      await makeTestDrive(t.db, { dealershipId: ours, leadId: ownLead, createdBy: people.sales.id, testDriveDate: day, testDriveTime: "10:30", vehicleDriven: "2025 Toyota RAV4 Hybrid XSE" }),
      await makeTestDrive(t.db, { dealershipId: ours, leadId: ownLead, createdBy: people.sales.id, testDriveDate: day, testDriveTime: "13:00", vehicleDriven: "2024 Ford F-150 Lariat" }),
    ];
    // Another dealership's booking on the same day is nobody's here.
    const outsiderLead = (await makeLead(t.db, { dealershipId: theirs })).id;
    await makeTestDrive(t.db, { dealershipId: theirs, leadId: outsiderLead, createdBy: people.outsider.id, testDriveDate: day, testDriveTime: "10:00", vehicleDriven: "Elsewhere's" });

    const line = (i: AgendaItem) => `${i.type}:${i.title}:${i.duration}:${i.assignee?.name}`;
    const sams = agendaSchema.parse((await agenda(as.sales, `?date=${day}&scope=mine`)).json()).items;
    expect(sams.map(line)).toEqual([
      "appointment:Walkaround:90:Sam Sales",
      "test_drive:2025 Toyota RAV4 Hybrid XSE:null:Sam Sales",
      "test_drive:2024 Ford F-150 Lariat:null:Sam Sales",
    ]);
    expect(sams.filter((i) => i.type === "test_drive").map((i) => i.id)).toEqual(drives.map((d) => d.id));
    // Front desk's calendar: everyone's, both reps' appointments and Sam's drives; a colleague sees only their own.
    const desk = agendaSchema.parse((await agenda(as.frontDesk, `?date=${day}&scope=all`)).json()).items;
    expect(desk.map(line).sort()).toEqual([...sams.map(line), "appointment:Riley's visit:60:Riley Chen"].sort());
    expect((await agenda(as.sales2, `?date=${day}&scope=mine`)).json().items.map(line)).toEqual(["appointment:Riley's visit:60:Riley Chen"]);
    expect((await agenda(as.sales2, `?date=${day}&scope=all`)).statusCode).toBe(403);
    // Another dealership's member cannot read ours; asking for their own, they see only theirs.
    expect((await agenda(as.outsider, `?date=${day}&scope=all`)).statusCode).toBe(403);
    const elsewhere = await as.outsider.get(`/api/dealerships/${theirs}/agenda?date=${day}&scope=all`);
    expect(elsewhere.json().items.map((i: AgendaItem) => i.title)).toEqual(["Elsewhere's"]);
  });

  it.each([
    ["?date=2026-02-30", "date"],
    ["?date=tomorrow", "date"],
    ["?date=1999-12-31", "date"],
    ["?scope=everyone", "scope"],
  ])("refuses %s with 400 naming %s", async (query, field) => {
    const response = await agenda(as.sales, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty(field);
  });
});
