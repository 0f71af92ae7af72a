import { eq, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { DEALERSHIP_ROLES, type DealershipRole } from "../../shared/constants";
import { systemViewer, type Viewer } from "../auth/tenancy";
import { rowsOf } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { makeAppointment, type AppointmentFixture } from "../db/factories-appointments";
import { makeLead, type LeadFixture } from "../db/factories-leads";
import { makeTestDrive, makeUnit, makeVehicle, type TestDriveFixture } from "../db/factories-test-drives";
import { appointments } from "../db/schema/appointments";
import { leads } from "../db/schema/leads";
import { notifications } from "../db/schema/notifications";
import { testDriveUnits, testDrives, vehicles } from "../db/schema/test-drives";
import { mayReadAnalyticsRow, mayReadAnalyticsRowSql } from "./analytics";
import { mayOpenAppointment, mayOpenAppointmentSql, openAppointmentSql, opensAppointment } from "./appointments";
import { mayOpenInventory, mayOpenInventorySql } from "./inventory";
import { mayOpenLead, mayOpenLeadSql, openLeadSql, opensLead } from "./leads";
import { mayReadNotification, mayReadNotificationSql } from "./notifications";
import { mayOpenTestDrive, mayOpenTestDriveSql, namesDriveClient, namesDriveClientSql, openTestDriveSql, opensTestDrive } from "./test-drives";

// Each access rule's two forms agree (decisions 178, 221): every role × whose row (the viewer's own, a colleague's,
// nobody's) × which dealership (the viewer's, another), each SQL form run on a real database against the pure
// function, and the pure function against a hand-written expectation (so agreeing on a wrong rule fails too).
// Leads, appointments, test drives (and whose client a drive names), vehicles and units, notifications, analytics rows.

type Ownership = "unclaimed" | "own" | "colleague's" | "own, moved on" | "unclaimed, moved on";

type Where = "same" | "other";
type AppointmentCase = "own" | "assigned to me" | "made by me" | "colleague's";
type DriveCase = "walk-in" | "taken out by me" | "booked by me" | "pool lead" | "my client" | "colleague's client" | "nobody's client";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let me: string;
let colleague: string;
let ours: string;
const made: Array<{ lead: LeadFixture; ownership: Ownership; dealership: Where }> = [];
const madeAppointments: Array<{ row: AppointmentFixture; ownership: AppointmentCase; dealership: Where }> = [];
const madeDrives: Array<{ row: TestDriveFixture; ownership: DriveCase; dealership: Where }> = [];
const madeInventory: Array<{ id: string; dealershipId: string; dealership: Where }> = [];
const madeNotifications: Array<{ id: string; userId: string; dealershipId: string; ownership: "mine" | "colleague's" }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const a = await makeDealership(db, { name: "Ours" });
  const b = await makeDealership(db, { name: "Theirs" });
  ours = a.id;
  me = (await makeUser(db, { memberships: [{ dealershipId: a.id, role: "sales" }] })).id;
  colleague = (await makeUser(db, { memberships: [{ dealershipId: a.id, role: "sales" }, { dealershipId: b.id, role: "sales" }] })).id;
  for (const [dealership, id] of [["same", a.id], ["other", b.id]] as const) {
    const add = async (ownership: Ownership, values: Parameters<typeof makeLead>[1]) =>
      made.push({ lead: await makeLead(db, values), ownership, dealership });
    await add("unclaimed", { dealershipId: id });
    await add("own", { dealershipId: id, claimedBy: me });
    await add("colleague's", { dealershipId: id, claimedBy: colleague });
    await add("own, moved on", { dealershipId: id, claimedBy: me, status: "contacted" });
    // Put back into the pool by hand would be "new"; a lead past "new" without a claimer is nobody's client.
    await add("unclaimed, moved on", { dealershipId: id, status: "lost" });
  }
  const leadOf = (ownership: Ownership, dealership: Where) => made.find((m) => m.ownership === ownership && m.dealership === dealership)!.lead.id;
  for (const [dealership, id] of [["same", a.id], ["other", b.id]] as const) {
    const date = "2026-03-02";
    const appointment = async (ownership: AppointmentCase, assignedTo: string, createdBy: string) => {
      const row = await makeAppointment(db, { dealershipId: id, userId: assignedTo, date });
      const [changed] = await db.update(appointments).set({ createdBy }).where(eq(appointments.id, row.id)).returning();
      madeAppointments.push({ row: changed!, ownership, dealership });
    };
    await appointment("own", me, me);
    await appointment("assigned to me", me, colleague);
    await appointment("made by me", colleague, me);
    await appointment("colleague's", colleague, colleague);

    const drive = async (ownership: DriveCase, values: Omit<Parameters<typeof makeTestDrive>[1], "dealershipId">) =>
      madeDrives.push({ row: await makeTestDrive(db, { dealershipId: id, createdBy: colleague, takenOutBy: colleague, ...values }), ownership, dealership });
    await drive("walk-in", { leadId: null });
    await drive("taken out by me", { leadId: leadOf("colleague's", dealership), takenOutBy: me });
    await drive("booked by me", { leadId: leadOf("colleague's", dealership), createdBy: me, takenOutBy: null });
    await drive("pool lead", { leadId: leadOf("unclaimed", dealership) });
    await drive("my client", { leadId: leadOf("own, moved on", dealership) });
    await drive("colleague's client", { leadId: leadOf("colleague's", dealership) });
    await drive("nobody's client", { leadId: leadOf("unclaimed, moved on", dealership) });

    madeInventory.push({ ...(await makeVehicle(db, { dealershipId: id })), dealership });
    madeInventory.push({ ...(await makeUnit(db, { dealershipId: id })), dealership });
  }
  for (const [ownership, userId, dealershipId] of [["mine", me, a.id], ["colleague's", colleague, a.id], ["mine", me, b.id]] as const) {
    const [row] = await db.insert(notifications).values({ userId, dealershipId, type: "lead_created", title: "New Lead", message: "A lead" }).returning();
    madeNotifications.push({ id: row!.id, userId, dealershipId, ownership });
  }
});
afterAll(() => database.drop());

async function idsWhere(condition: SQL): Promise<string[]> {
  const rows = await database.db.select({ id: leads.id }).from(leads).where(condition);
  return rows.map((r) => r.id).sort();
}

async function idsOfAlias(condition: (l: { dealershipId: SQL; status: SQL; claimedBy: SQL }) => SQL): Promise<string[]> {
  const where = condition({ dealershipId: sql`l.dealership_id`, status: sql`l.status`, claimedBy: sql`l.claimed_by` });
  const result = await database.db.execute(sql`select l.id from ${leads} l where ${where}`);
  return rowsOf<{ id: string }>(result).map((r) => r.id).sort();
}

const EXPECTED: Record<DealershipRole, Ownership[]> = {
  sales: ["unclaimed", "own", "own, moved on"],
  frontDesk: ["unclaimed", "own", "colleague's", "own, moved on", "unclaimed, moved on"],
  management: ["unclaimed", "own", "colleague's", "own, moved on", "unclaimed, moved on"],
};

describe("who may open a lead: the SQL form and the pure function agree", () => {
  for (const role of DEALERSHIP_ROLES) {
    it(`${role}: every ownership in the same and another dealership`, async () => {
      const viewer: Viewer = { userId: me, dealershipId: ours, role, isPlatformAdmin: false };
      const pure = made.filter((m) => mayOpenLead(viewer, m.lead)).map((m) => m.lead.id).sort();

      // The hand-written expectation, so agreeing on a wrong rule fails too.
      const expected = made.filter((m) => m.dealership === "same" && EXPECTED[role].includes(m.ownership)).map((m) => m.lead.id).sort();
      expect(pure).toEqual(expected);

      expect(await idsWhere(mayOpenLeadSql(viewer, leads))).toEqual(pure);
      expect(await idsOfAlias((l) => mayOpenLeadSql(viewer, l))).toEqual(pure);
      // The dealership-less forms, with the dealership matched by the caller.
      const inOurs = made.filter((m) => m.lead.dealershipId === ours);
      expect(inOurs.filter((m) => opensLead(viewer, m.lead)).map((m) => m.lead.id).sort()).toEqual(pure);
      expect(await idsOfAlias((l) => sql`l.dealership_id = ${ours} and ${openLeadSql(viewer, l)}`)).toEqual(pure);
      // The role and the user as SQL values (as roleSql or a membership's column gives them).
      expect(
        await idsOfAlias((l) => sql`l.dealership_id = ${ours} and ${openLeadSql({ userId: sql`${me}::text`, role: sql`${role}::text` }, l)}`),
      ).toEqual(pure);
    });
  }

  it("a role that is SQL NULL (no access) opens nothing", async () => {
    expect(await idsOfAlias((l) => openLeadSql({ userId: sql`${me}::text`, role: sql`null::text` }, l))).toEqual([]);
  });
});

const viewerAs = (role: DealershipRole): Viewer => ({ userId: me, dealershipId: ours, role, isPlatformAdmin: false });
const sorted = (ids: string[]) => [...ids].sort();

async function idsFrom(table: typeof appointments | typeof testDrives | typeof vehicles | typeof testDriveUnits | typeof notifications, where: SQL): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(await database.db.execute(sql`select id from ${table} where ${where}`));
  return sorted(rows.map((r) => r.id));
}

const APPOINTMENTS_EXPECTED: Record<DealershipRole, AppointmentCase[]> = {
  sales: ["own", "assigned to me", "made by me"],
  frontDesk: ["own", "assigned to me", "made by me", "colleague's"],
  management: ["own", "assigned to me", "made by me", "colleague's"],
};

describe("who may open an appointment: the SQL form and the pure function agree", () => {
  for (const role of DEALERSHIP_ROLES) {
    it(`${role}: every ownership in the same and another dealership`, async () => {
      const viewer = viewerAs(role);
      const pure = sorted(madeAppointments.filter((m) => mayOpenAppointment(viewer, m.row)).map((m) => m.row.id));
      expect(pure).toEqual(sorted(madeAppointments.filter((m) => m.dealership === "same" && APPOINTMENTS_EXPECTED[role].includes(m.ownership)).map((m) => m.row.id)));
      expect(await idsFrom(appointments, mayOpenAppointmentSql(viewer, appointments))).toEqual(pure);
      const a = { dealershipId: sql`a.dealership_id`, assignedTo: sql`a.assigned_to`, createdBy: sql`a.created_by` };
      const aliased = rowsOf<{ id: string }>(await database.db.execute(sql`select a.id from ${appointments} a where ${mayOpenAppointmentSql(viewer, a)}`));
      expect(sorted(aliased.map((r) => r.id))).toEqual(pure);
      // Without the dealership (matched by the caller), with the role known and with the role as SQL.
      const inOurs = madeAppointments.filter((m) => m.row.dealershipId === ours);
      expect(sorted(inOurs.filter((m) => opensAppointment(viewer, m.row)).map((m) => m.row.id))).toEqual(pure);
      const here = sql`${appointments.dealershipId} = ${ours}`;
      expect(await idsFrom(appointments, sql`${here} and ${openAppointmentSql(viewer, appointments)}`)).toEqual(pure);
      expect(await idsFrom(appointments, sql`${here} and ${openAppointmentSql({ userId: sql`${me}::text`, role: sql`${role}::text` }, appointments)}`)).toEqual(pure);
    });
  }

  it("a role that is SQL NULL (no access) opens nothing", async () => {
    expect(await idsFrom(appointments, openAppointmentSql({ userId: sql`${me}::text`, role: sql`null::text` }, appointments))).toEqual([]);
  });
});

const DRIVES_EXPECTED: Record<DealershipRole, { opens: DriveCase[]; names: DriveCase[] }> = {
  sales: {
    opens: ["walk-in", "taken out by me", "booked by me", "pool lead", "my client"],
    // Taking a colleague's client out does not make their name the rep's to read elsewhere (decision 177).
    names: ["walk-in", "pool lead", "my client"],
  },
  frontDesk: { opens: ["walk-in", "taken out by me", "booked by me", "pool lead", "my client", "colleague's client", "nobody's client"], names: ["walk-in", "taken out by me", "booked by me", "pool lead", "my client", "colleague's client", "nobody's client"] },
  management: { opens: ["walk-in", "taken out by me", "booked by me", "pool lead", "my client", "colleague's client", "nobody's client"], names: ["walk-in", "taken out by me", "booked by me", "pool lead", "my client", "colleague's client", "nobody's client"] },
};

describe("who may open a test drive, and whose client it names: the SQL forms and the pure functions agree", () => {
  const leadOf = (row: TestDriveFixture) => {
    const lead = made.find((m) => m.lead.id === row.leadId)?.lead;
    return lead ? { status: lead.status, claimedBy: lead.claimedBy } : null;
  };
  const ownership = (row: TestDriveFixture) => ({ ...row, lead: leadOf(row) });
  const columns = {
    dealershipId: sql`"dealership_testdrives"."dealership_id"`,
    leadId: sql`"dealership_testdrives"."lead_id"`,
    takenOutBy: sql`"dealership_testdrives"."taken_out_by"`,
    createdBy: sql`"dealership_testdrives"."created_by"`,
  };

  for (const role of DEALERSHIP_ROLES) {
    it(`${role}: every ownership in the same and another dealership`, async () => {
      const viewer = viewerAs(role);
      const pure = sorted(madeDrives.filter((m) => mayOpenTestDrive(viewer, ownership(m.row))).map((m) => m.row.id));
      expect(pure).toEqual(sorted(madeDrives.filter((m) => m.dealership === "same" && DRIVES_EXPECTED[role].opens.includes(m.ownership)).map((m) => m.row.id)));
      expect(await idsFrom(testDrives, mayOpenTestDriveSql(viewer, columns))).toEqual(pure);

      const here = sql`${columns.dealershipId} = ${ours}`;
      const inOurs = madeDrives.filter((m) => m.row.dealershipId === ours);
      expect(sorted(inOurs.filter((m) => opensTestDrive(viewer, ownership(m.row))).map((m) => m.row.id))).toEqual(pure);
      expect(await idsFrom(testDrives, sql`${here} and ${openTestDriveSql({ userId: sql`${me}::text`, role: sql`${role}::text` }, columns)}`)).toEqual(pure);

      const named = sorted(inOurs.filter((m) => namesDriveClient(viewer, ownership(m.row))).map((m) => m.row.id));
      expect(named).toEqual(sorted(inOurs.filter((m) => DRIVES_EXPECTED[role].names.includes(m.ownership)).map((m) => m.row.id)));
      expect(await idsFrom(testDrives, sql`${here} and ${namesDriveClientSql(viewer, columns.leadId)}`)).toEqual(named);
    });
  }

  it("a role that is SQL NULL (no access) opens nothing", async () => {
    const columns = { leadId: testDrives.leadId, takenOutBy: testDrives.takenOutBy, createdBy: testDrives.createdBy };
    expect(await idsFrom(testDrives, openTestDriveSql({ userId: sql`${me}::text`, role: sql`null::text` }, columns))).toEqual([]);
  });
});

describe("vehicles, units, notifications and analytics rows: the SQL forms and the pure functions agree", () => {
  for (const role of DEALERSHIP_ROLES) {
    it(`${role}: the viewer's dealership and another`, async () => {
      const viewer = viewerAs(role);
      // Every member sees the inventory of their dealership, whatever the role.
      const inventory = sorted(madeInventory.filter((m) => mayOpenInventory(viewer, m)).map((m) => m.id));
      expect(inventory).toEqual(sorted(madeInventory.filter((m) => m.dealership === "same").map((m) => m.id)));
      const inventorySql = [...(await idsFrom(vehicles, mayOpenInventorySql(viewer, vehicles))), ...(await idsFrom(testDriveUnits, mayOpenInventorySql(viewer, testDriveUnits)))];
      expect(sorted(inventorySql)).toEqual(inventory);

      // Only one's own notifications in the dealership, whatever the role.
      const bell = sorted(madeNotifications.filter((m) => mayReadNotification(viewer, m)).map((m) => m.id));
      expect(bell).toEqual(madeNotifications.filter((m) => m.ownership === "mine" && m.dealershipId === ours).map((m) => m.id));
      expect(await idsFrom(notifications, mayReadNotificationSql(viewer, notifications))).toEqual(bell);

      // Analytics rows (here: the drives they count): management's, of their own dealership; nobody else's.
      const rows = sorted(madeDrives.filter((m) => mayReadAnalyticsRow(viewer, m.row)).map((m) => m.row.id));
      expect(rows).toEqual(role === "management" ? sorted(madeDrives.filter((m) => m.dealership === "same").map((m) => m.row.id)) : []);
      expect(await idsFrom(testDrives, mayReadAnalyticsRowSql(viewer, testDrives.dealershipId))).toEqual(rows);
    });
  }
});

describe("the system viewer (a job acting for its dealership, decision 249): every rule's forms agree", () => {
  const job = systemViewer("", "unattended-leads");
  const system = () => ({ ...job, dealershipId: ours });
  const leadOf = (row: TestDriveFixture) => {
    const lead = made.find((m) => m.lead.id === row.leadId)?.lead;
    return lead ? { status: lead.status, claimedBy: lead.claimedBy } : null;
  };
  const drive = (row: TestDriveFixture) => ({ ...row, lead: leadOf(row) });

  it("sees every lead, appointment, drive (and its client), vehicle, unit and analytics row of its dealership, none of another", async () => {
    const viewer = system();
    const leadIds = sorted(made.filter((m) => mayOpenLead(viewer, m.lead)).map((m) => m.lead.id));
    expect(leadIds).toEqual(sorted(made.filter((m) => m.dealership === "same").map((m) => m.lead.id)));
    expect(await idsWhere(mayOpenLeadSql(viewer, leads))).toEqual(leadIds);
    expect(await idsOfAlias((l) => sql`l.dealership_id = ${ours} and ${openLeadSql(viewer, l)}`)).toEqual(leadIds);
    expect(sorted(made.filter((m) => m.lead.dealershipId === ours && opensLead(viewer, m.lead)).map((m) => m.lead.id))).toEqual(leadIds);

    const appointmentIds = sorted(madeAppointments.filter((m) => mayOpenAppointment(viewer, m.row)).map((m) => m.row.id));
    expect(appointmentIds).toEqual(sorted(madeAppointments.filter((m) => m.dealership === "same").map((m) => m.row.id)));
    expect(await idsFrom(appointments, mayOpenAppointmentSql(viewer, appointments))).toEqual(appointmentIds);
    expect(await idsFrom(appointments, sql`${appointments.dealershipId} = ${ours} and ${openAppointmentSql(viewer, appointments)}`)).toEqual(appointmentIds);

    const driveIds = sorted(madeDrives.filter((m) => mayOpenTestDrive(viewer, drive(m.row))).map((m) => m.row.id));
    expect(driveIds).toEqual(sorted(madeDrives.filter((m) => m.dealership === "same").map((m) => m.row.id)));
    expect(await idsFrom(testDrives, mayOpenTestDriveSql(viewer, testDrives))).toEqual(driveIds);
    expect(sorted(madeDrives.filter((m) => m.dealership === "same" && namesDriveClient(viewer, drive(m.row))).map((m) => m.row.id))).toEqual(driveIds);
    expect(await idsFrom(testDrives, sql`${testDrives.dealershipId} = ${ours} and ${namesDriveClientSql(viewer, testDrives.leadId)}`)).toEqual(driveIds);

    const inventory = sorted(madeInventory.filter((m) => mayOpenInventory(viewer, m)).map((m) => m.id));
    expect(inventory).toEqual(sorted(madeInventory.filter((m) => m.dealership === "same").map((m) => m.id)));
    expect(sorted([...(await idsFrom(vehicles, mayOpenInventorySql(viewer, vehicles))), ...(await idsFrom(testDriveUnits, mayOpenInventorySql(viewer, testDriveUnits)))])).toEqual(inventory);

    const rows = sorted(madeDrives.filter((m) => mayReadAnalyticsRow(viewer, m.row)).map((m) => m.row.id));
    expect(rows).toEqual(driveIds);
    expect(await idsFrom(testDrives, mayReadAnalyticsRowSql(viewer, testDrives.dealershipId))).toEqual(rows);
  });

  it("reads no person's notifications", async () => {
    const viewer = system();
    expect(madeNotifications.filter((m) => mayReadNotification(viewer, m))).toEqual([]);
    expect(await idsFrom(notifications, mayReadNotificationSql(viewer, notifications))).toEqual([]);
  });

  it("is named, has no user and no account of its own", () => {
    expect(job).toEqual({ userId: "", dealershipId: "", role: "system", isPlatformAdmin: false, system: "unattended-leads" });
  });
});
