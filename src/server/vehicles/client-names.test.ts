import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { vehicleSchema, type Vehicle } from "../../shared/schemas/vehicle";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { makeTestDrive, makeVehicle } from "../db/factories-test-drives";
import { vehicles } from "../db/schema/test-drives";

// The inventory names a client only to those who may open the client's lead (decision 177): "Out with <client>"
// (currentClientName) and the booking's clientName are null for a sales rep when the drive is a colleague's client's,
// as the lead itself is a 404 to them. Each role, and a person who is a rep here and a manager elsewhere.

type Whose = "colleague's" | "own" | "unclaimed" | "no lead";
const WHOSE: Whose[] = ["colleague's", "own", "unclaimed", "no lead"];

let t: TestApp;
let ours: string;
let theirs: string;
let people: Record<"rep" | "colleague" | "frontDesk" | "management" | "outsider", MadeUser>;
const agents = {} as Record<keyof typeof people, Agent>;
/** The client's name on each kind of drive, out now and booked. */
const names = { out: {} as Record<Whose, string>, booked: {} as Record<Whose, string> };
const stock = (kind: "out" | "booked", whose: Whose) => `${kind}-${whose}`.replace(/[^a-z-]/g, "");

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db, { name: "Ours" })).id;
  theirs = (await makeDealership(t.db, { name: "Theirs" })).id;
  const member = (role: "sales" | "frontDesk" | "management") => ({ memberships: [{ dealershipId: ours, role }] });
  people = {
    rep: await makeUser(t.db, { memberships: [{ dealershipId: ours, role: "sales" }, { dealershipId: theirs, role: "management" }] }),
    colleague: await makeUser(t.db, member("sales")),
    frontDesk: await makeUser(t.db, member("frontDesk")),
    management: await makeUser(t.db, member("management")),
    outsider: await makeUser(t.db, { memberships: [{ dealershipId: theirs, role: "management" }] }),
  };
  for (const who of Object.keys(people) as Array<keyof typeof people>) agents[who] = await signIn(t.app, people[who]);

  let n = 0;
  const leadOf = async (dealershipId: string, whose: Whose) => {
    if (whose === "no lead") return null;
    const claimedBy = whose === "own" ? people.rep.id : whose === "colleague's" ? people.colleague.id : null;
    return (await makeLead(t.db, { dealershipId, claimedBy })).id;
  };
  for (const dealershipId of [ours, theirs]) {
    for (const whose of WHOSE) {
      // Out now: the vehicle points at an open drive, as a take-out leaves it.
      const outName = { firstName: `Out${++n}`, lastName: "Client" };
      const v = await makeVehicle(t.db, { dealershipId, stockNumber: stock("out", whose) });
      const leadId = await leadOf(dealershipId, whose);
      const drive = await makeTestDrive(t.db, { dealershipId, leadId, ...outName, vehicleType: "vehicle", vehicleId: v.id, takenOutAt: new Date(), takenOutBy: people.colleague.id });
      await t.db
        .update(vehicles)
        .set({ testDriveStatus: "out", currentTestDriveId: drive.id, currentClientName: `${outName.firstName} ${outName.lastName}`, takenOutAt: new Date() })
        .where(eq(vehicles.id, v.id));
      // Booked: a scheduled drive from today on.
      const bookedName = { firstName: `Booked${++n}`, lastName: "Client" };
      const b = await makeVehicle(t.db, { dealershipId, stockNumber: stock("booked", whose) });
      await makeTestDrive(t.db, { dealershipId, leadId: await leadOf(dealershipId, whose), ...bookedName, vehicleType: "vehicle", vehicleId: b.id, testDriveDate: "2099-01-01", testDriveTime: "10:00" });
      if (dealershipId === ours) {
        names.out[whose] = `${outName.firstName} ${outName.lastName}`;
        names.booked[whose] = `${bookedName.firstName} ${bookedName.lastName}`;
      }
    }
  }
});
afterAll(() => t.close());

async function inventory(agent: Agent, dealershipId: string): Promise<Map<string, Vehicle>> {
  const res = await agent.get(`/api/dealerships/${dealershipId}/vehicles?limit=100`);
  expect(res.statusCode).toBe(200);
  const list = (res.json() as unknown[]).map((v) => vehicleSchema.parse(v));
  return new Map(list.map((v) => [v.stockNumber, v]));
}

function seen(list: Map<string, Vehicle>) {
  const out = {} as Record<Whose, string | null>;
  const booked = {} as Record<Whose, string | null>;
  for (const whose of WHOSE) {
    out[whose] = list.get(stock("out", whose))!.currentClientName;
    booked[whose] = list.get(stock("booked", whose))!.booking!.clientName;
  }
  return { out, booked };
}

describe("client names on the inventory", () => {
  it("a sales rep reads null for a colleague's client, out or booked, and every other name", async () => {
    const body = (await agents.rep.get(`/api/dealerships/${ours}/vehicles?limit=100`)).body;
    expect(body).not.toContain(names.out["colleague's"]);
    expect(body).not.toContain(names.booked["colleague's"]);
    expect(seen(await inventory(agents.rep, ours))).toEqual({
      out: { ...names.out, "colleague's": null },
      booked: { ...names.booked, "colleague's": null },
    });
  });

  for (const who of ["frontDesk", "management"] as const) {
    it(`${who} reads every client's name`, async () => {
      expect(seen(await inventory(agents[who], ours))).toEqual(names);
    });
  }

  it("the same person, a manager in another dealership, reads every name there", async () => {
    const there = seen(await inventory(agents.rep, theirs));
    for (const whose of WHOSE) {
      expect(there.out[whose], whose).toMatch(/^Out\d+ Client$/);
      expect(there.booked[whose], whose).toMatch(/^Booked\d+ Client$/);
    }
  });

  it("another dealership's manager gets a 403, no names", async () => {
    const res = await agents.outsider.get(`/api/dealerships/${ours}/vehicles?limit=100`);
    expect(res.statusCode).toBe(403);
    for (const whose of WHOSE) expect(res.body).not.toContain(names.out[whose]);
  });
});
