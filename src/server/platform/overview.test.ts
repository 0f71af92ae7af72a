import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { appointments } from "../db/schema/appointments";
import { leads } from "../db/schema/leads";
import { emailsLog } from "../db/schema/notifications";
import { testDrives } from "../db/schema/test-drives";
import { grantPlatformAdminByEmail } from "./admins";

let t: TestApp;
let admin: MadeUser;
let manager: MadeUser;
let sales: MadeUser;
let frontDesk: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  const north = await makeDealership(t.db, { name: "North" });
  const south = await makeDealership(t.db, { name: "South" });
  manager = await makeUser(t.db, { memberships: [{ dealershipId: north.id, role: "management" }] });
  sales = await makeUser(t.db, { memberships: [{ dealershipId: south.id, role: "sales" }] });
  frontDesk = await makeUser(t.db, { memberships: [{ dealershipId: south.id, role: "frontDesk" }] });
  admin = await makeUser(t.db, { email: "platform@example.com" });
  await grantPlatformAdminByEmail(t.db, admin.email);

  const [lead] = await t.db
    .insert(leads)
    .values([
      { firstName: "Ada", lastName: "Lovelace", dealershipId: north.id },
      { firstName: "Bob", lastName: "Builder", dealershipId: north.id },
      { firstName: "Cy", lastName: "South", dealershipId: south.id },
    ])
    .returning();
  await t.db.insert(appointments).values([
    { title: "Visit", firstName: "Ada", lastName: "Lovelace", date: "2026-01-05", time: "10:00", dealershipId: north.id, leadId: lead!.id },
    { title: "Visit", firstName: "Cy", lastName: "South", date: "2026-01-06", time: "11:00", dealershipId: south.id },
  ]);
  await t.db.insert(testDrives).values({ clientType: "new", firstName: "Dee", lastName: "Driver", dealershipId: south.id });
  await t.db.insert(emailsLog).values([
    { to: "a@example.com", from: "x@example.com", subject: "Hi", emailType: "test", status: "sent" },
    { to: "b@example.com", from: "x@example.com", subject: "Hi", emailType: "test", status: "sent" },
    { to: "c@example.com", from: "x@example.com", subject: "Hi", emailType: "test", status: "failed" },
  ]);
});
afterAll(() => t.close());

describe("GET /api/platform/overview", () => {
  it("gives a platform admin the totals across every dealership", async () => {
    const response = await (await signIn(t.app, admin)).get("/api/platform/overview");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      totalDealerships: 2,
      totalUsers: 4,
      totalLeads: 3,
      totalAppointments: 2,
      totalTestDrives: 1,
      totalEmailsSent: 2,
    });
  });

  it("leaves a deleted dealership and its leads, appointments and test drives out of the totals", async () => {
    const adminAgent = await signIn(t.app, admin);
    const closing = await makeDealership(t.db, { name: "Closing" });
    await t.db.insert(leads).values({ firstName: "Gone", lastName: "Lead", dealershipId: closing.id });
    await t.db.insert(testDrives).values({ clientType: "new", firstName: "Gone", lastName: "Driver", dealershipId: closing.id });
    await t.db.insert(appointments).values({ title: "Visit", firstName: "Gone", lastName: "Lead", date: "2026-01-07", time: "09:00", dealershipId: closing.id });
    const before = (await adminAgent.get("/api/platform/overview")).json();
    expect(before).toMatchObject({ totalDealerships: 3, totalLeads: 4, totalAppointments: 3, totalTestDrives: 2 });
    expect((await adminAgent.delete(`/api/platform/dealerships/${closing.id}`)).statusCode).toBe(200);
    expect((await adminAgent.get("/api/platform/overview")).json()).toMatchObject({
      totalDealerships: 2,
      totalLeads: 3,
      totalAppointments: 2,
      totalTestDrives: 1,
      totalUsers: 4,
    });
  });

  it("answers 401 to a visitor who is not signed in", async () => {
    const response = await anonymous(t.app).get("/api/platform/overview");
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "Unauthorized" });
  });

  it("refuses every dealership role (management, front desk, sales) with 403 and shows them no numbers", async () => {
    for (const person of [manager, frontDesk, sales]) {
      const response = await (await signIn(t.app, person)).get("/api/platform/overview");
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: "Platform admin access required" });
    }
  });
});
