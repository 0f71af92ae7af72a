import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { makeTestDrive, makeUnit, makeVehicle } from "../db/factories-test-drives";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { testDriveUnits, testDrives, vehicles } from "../db/schema/test-drives";

// Every vehicle, unit, test-drive and analytics route × signed out / sales / front desk / management / a manager of
// another dealership (issue 9). A refused call must change nothing: vehicles, units, drives, leads and the outbox are
// compared before and after.

type Actor = "signedOut" | "sales" | "frontDesk" | "management" | "otherDealership";
const ACTORS: Actor[] = ["signedOut", "sales", "frontDesk", "management", "otherDealership"];

let t: TestApp;
let dealershipId: string;
let people: Record<"sales" | "sales2" | "frontDesk" | "management" | "outsider", MadeUser>;
const agents = {} as Record<Actor, Agent>;

beforeAll(async () => {
  t = await createTestApp();
  const ours = await makeDealership(t.db, { name: "Ours" });
  const theirs = await makeDealership(t.db, { name: "Theirs" });
  dealershipId = ours.id;
  const member = (role: "sales" | "frontDesk" | "management") => ({ memberships: [{ dealershipId: ours.id, role }] });
  people = {
    sales: await makeUser(t.db, member("sales")),
    sales2: await makeUser(t.db, member("sales")),
    frontDesk: await makeUser(t.db, member("frontDesk")),
    management: await makeUser(t.db, member("management")),
    outsider: await makeUser(t.db, { memberships: [{ dealershipId: theirs.id, role: "management" }] }),
  };
  agents.signedOut = anonymous(t.app);
  agents.sales = await signIn(t.app, people.sales);
  agents.frontDesk = await signIn(t.app, people.frontDesk);
  agents.management = await signIn(t.app, people.management);
  agents.otherDealership = await signIn(t.app, people.outsider);
});
afterAll(() => t.close());

async function snapshot() {
  return {
    vehicles: await t.db.select().from(vehicles).orderBy(asc(vehicles.id)),
    units: await t.db.select().from(testDriveUnits).orderBy(asc(testDriveUnits.id)),
    drives: await t.db.select().from(testDrives).orderBy(asc(testDrives.id)),
    leads: await t.db.select().from(leads).orderBy(asc(leads.id)),
    events: (await t.db.select({ id: domainEvents.id }).from(domainEvents)).length,
  };
}

interface Case {
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  prepare(): Promise<{ url: string; body?: unknown }>;
  expected: Record<Actor, number>;
}

const vehicle = () => makeVehicle(t.db, { dealershipId });
const unit = () => makeUnit(t.db, { dealershipId });
/** A vehicle out on an open drive whose client is nobody's lead. */
async function outVehicle() {
  const v = await vehicle();
  const d = await makeTestDrive(t.db, { dealershipId, vehicleType: "vehicle", vehicleId: v.id, takenOutAt: new Date(), takenOutBy: people.sales2.id });
  await t.db.update(vehicles).set({ testDriveStatus: "out", currentTestDriveId: d.id }).where(eq(vehicles.id, v.id));
  return { vehicle: v, drive: d };
}
/** A booked drive of another rep's client: hidden from a sales rep, like the lead (decision 064). */
async function colleaguesDrive() {
  const lead = await makeLead(t.db, { dealershipId, claimedBy: people.sales2.id, status: "claimed" });
  return makeTestDrive(t.db, { dealershipId, leadId: lead.id, clientType: "existing", createdBy: people.sales2.id, testDriveDate: "2030-01-01", testDriveTime: "10:00" });
}
/** A booked drive without a lead, made by the second rep: everyone in the dealership sees it. */
const openDrive = () => makeTestDrive(t.db, { dealershipId, createdBy: people.sales2.id, testDriveDate: "2030-01-01", testDriveTime: "10:00" });
let sequence = 0;
const takeOutBody = async () => ({
  dealershipId,
  clientType: "new",
  firstName: "New",
  lastName: "Client",
  email: `client${++sequence}@example.com`,
  phone: "416-555-0100",
  vehicleType: "vehicle",
  vehicleId: (await vehicle()).id,
});

const CASES: Case[] = [
  {
    name: "GET /api/dealerships/{id}/vehicles",
    method: "GET",
    prepare: async () => ({ url: `/api/dealerships/${dealershipId}/vehicles` }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 403 },
  },
  {
    name: "POST /api/dealerships/{id}/vehicles",
    method: "POST",
    prepare: async () => ({ url: `/api/dealerships/${dealershipId}/vehicles`, body: { year: "2024", make: "A", model: "B", stockNumber: `N-${++sequence}`, condition: "new" } }),
    expected: { signedOut: 401, sales: 403, frontDesk: 403, management: 201, otherDealership: 403 },
  },
  {
    name: "DELETE /api/vehicles/{id}",
    method: "DELETE",
    prepare: async () => ({ url: `/api/vehicles/${(await vehicle()).id}` }),
    expected: { signedOut: 401, sales: 403, frontDesk: 403, management: 200, otherDealership: 404 },
  },
  {
    name: "PUT /api/vehicles/{id}/test-drive-status (return)",
    method: "PUT",
    prepare: async () => ({ url: `/api/vehicles/${(await outVehicle()).vehicle.id}/test-drive-status`, body: { status: "available" } }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "GET /api/dealerships/{id}/test-drive-units",
    method: "GET",
    prepare: async () => ({ url: `/api/dealerships/${dealershipId}/test-drive-units` }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 403 },
  },
  {
    name: "POST /api/dealerships/{id}/test-drive-units",
    method: "POST",
    prepare: async () => ({ url: `/api/dealerships/${dealershipId}/test-drive-units`, body: { year: "2024", make: "A", model: "B", stockNumber: `U-${++sequence}` } }),
    expected: { signedOut: 401, sales: 403, frontDesk: 403, management: 201, otherDealership: 403 },
  },
  {
    name: "DELETE /api/test-drive-units/{id}",
    method: "DELETE",
    prepare: async () => ({ url: `/api/test-drive-units/${(await unit()).id}` }),
    expected: { signedOut: 401, sales: 403, frontDesk: 403, management: 200, otherDealership: 404 },
  },
  {
    name: "PUT /api/test-drive-units/{id}/status of a unit not out",
    method: "PUT",
    prepare: async () => ({ url: `/api/test-drive-units/${(await unit()).id}/status`, body: { status: "available" } }),
    expected: { signedOut: 401, sales: 409, frontDesk: 409, management: 409, otherDealership: 404 },
  },
  {
    name: "POST /api/test-drives (take out for a new client)",
    method: "POST",
    prepare: async () => ({ url: "/api/test-drives", body: await takeOutBody() }),
    expected: { signedOut: 401, sales: 201, frontDesk: 201, management: 201, otherDealership: 403 },
  },
  {
    name: "POST /api/test-drives for a colleague's client",
    method: "POST",
    prepare: async () => {
      const lead = await makeLead(t.db, { dealershipId, claimedBy: people.sales2.id, status: "claimed" });
      return { url: "/api/test-drives", body: { ...(await takeOutBody()), clientType: "existing", leadId: lead.id } };
    },
    expected: { signedOut: 401, sales: 404, frontDesk: 201, management: 201, otherDealership: 403 },
  },
  {
    name: "GET /api/dealerships/{id}/test-drives",
    method: "GET",
    prepare: async () => ({ url: `/api/dealerships/${dealershipId}/test-drives` }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 403 },
  },
  {
    name: "GET /api/test-drives?leadId= of a colleague's client",
    method: "GET",
    prepare: async () => ({ url: `/api/test-drives?leadId=${(await colleaguesDrive()).leadId}` }),
    expected: { signedOut: 401, sales: 404, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "GET /api/test-drives/{id} of a colleague's client",
    method: "GET",
    prepare: async () => ({ url: `/api/test-drives/${(await colleaguesDrive()).id}` }),
    expected: { signedOut: 401, sales: 404, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "PATCH /api/test-drives/{id}",
    method: "PATCH",
    prepare: async () => ({ url: `/api/test-drives/${(await colleaguesDrive()).id}`, body: { notes: "changed" } }),
    expected: { signedOut: 401, sales: 404, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "PATCH /api/test-drives/{id}/status",
    method: "PATCH",
    prepare: async () => ({ url: `/api/test-drives/${(await openDrive()).id}/status`, body: { status: "cancelled" } }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "POST /api/test-drives/{id}/return",
    method: "POST",
    prepare: async () => ({ url: `/api/test-drives/${(await outVehicle()).drive.id}/return` }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "DELETE /api/test-drives/{id} booked by another rep",
    method: "DELETE",
    prepare: async () => ({ url: `/api/test-drives/${(await openDrive()).id}` }),
    expected: { signedOut: 401, sales: 403, frontDesk: 403, management: 200, otherDealership: 404 },
  },
  {
    name: "GET /api/dealerships/{id}/test-drives/analytics/{days}",
    method: "GET",
    prepare: async () => ({ url: `/api/dealerships/${dealershipId}/test-drives/analytics/30` }),
    // Management only (decision 177): the recent drives name every rep's clients.
    expected: { signedOut: 401, sales: 403, frontDesk: 403, management: 200, otherDealership: 403 },
  },
  {
    name: "GET /api/dealerships/{id}/sales-rep-analytics/{days}",
    method: "GET",
    prepare: async () => ({ url: `/api/dealerships/${dealershipId}/sales-rep-analytics/30` }),
    expected: { signedOut: 401, sales: 403, frontDesk: 403, management: 200, otherDealership: 403 },
  },
];

describe.each(CASES)("$name", (c) => {
  it.each(ACTORS)("answers the expected status to %s, and a refusal changes nothing", async (actor) => {
    const { url, body } = await c.prepare();
    const before = await snapshot();
    const response = await agents[actor].request({ method: c.method, url, ...(body === undefined ? {} : { payload: body as object }) });
    expect(response.statusCode, `${c.method} ${url} as ${actor}: ${response.body}`).toBe(c.expected[actor]);
    if (response.statusCode >= 400) {
      expect(await snapshot()).toEqual(before);
      expect(response.json()).toHaveProperty("message");
    }
  });
});
