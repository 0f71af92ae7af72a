import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { vinCheckDigit } from "../../shared/schemas/vehicle";
import type { LinkedVehicle } from "../../shared/schemas/vehicle-of-interest";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeVehicle } from "../db/factories-test-drives";
import { leads } from "../db/schema/leads";
import { vehiclesOfInterest } from "../db/schema/vehicles-of-interest";

// ADF vehicles of interest linked to the dealership's inventory (issue 29, decision 188), through the API on a real
// database: at intake by VIN or stock number, later when the vehicle is added, never across dealerships.

let t: TestApp;
let ours: string;
let theirs: string;
let people: Record<"sales" | "sales2" | "frontDesk" | "management" | "outsider", MadeUser>;
let as: Record<keyof typeof people, Agent>;
let secret: string;

/** A VIN with its check digit: 16 characters with "_" where the check digit goes (position 9). */
function vin(pattern: string): string {
  const check = vinCheckDigit(pattern.replace("_", "0"));
  if (!check) throw new Error(`not a VIN pattern: ${pattern}`);
  return pattern.replace("_", check);
}

let serial = 100000;
/** A fresh 2025 Hyundai VIN (year code S). */
const freshVin = () => vin(`KM8JC3D1_SU${++serial}`);

function adf(vehicles: string, name = "Vera"): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<adf><prospect>
  ${vehicles}
  <customer><contact><name part="first">${name}</name><name part="last">Interest</name><email>${name.toLowerCase()}@example.com</email></contact></customer>
  <provider><name>AutoTrader</name></provider>
</prospect></adf>`;
}

const vehicleXml = (fields: { vin?: string; stock?: string; interest?: string }) =>
  `<vehicle interest="${fields.interest ?? "buy"}" status="new"><year>2025</year><make>Hyundai</make><model>Tucson</model><trim>Preferred</trim>` +
  `${fields.vin ? `<vin>${fields.vin}</vin>` : ""}${fields.stock ? `<stock>${fields.stock}</stock>` : ""}</vehicle>`;

/** Posts an ADF document; answers the one lead it made. */
async function receive(xml: string): Promise<string> {
  const response = await anonymous(t.app).request({
    method: "POST",
    url: "/api/intake/adf",
    headers: { "content-type": "application/xml", authorization: `Bearer ${secret}` },
    payload: xml,
  });
  expect(response.statusCode, response.body).toBe(201);
  const [leadId] = response.json<{ leadIds: string[] }>().leadIds;
  return leadId!;
}

async function linked(who: Agent, leadId: string): Promise<LinkedVehicle[]> {
  const response = await who.get(`/api/leads/${leadId}/vehicles`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LinkedVehicle[]>();
}

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db, { name: "Northside Motors" })).id;
  theirs = (await makeDealership(t.db, { name: "Elsewhere Auto" })).id;
  const member = (role: "sales" | "frontDesk" | "management", dealershipId = ours) => ({ memberships: [{ dealershipId, role }] });
  people = {
    sales: await makeUser(t.db, member("sales")),
    sales2: await makeUser(t.db, member("sales")),
    frontDesk: await makeUser(t.db, member("frontDesk")),
    management: await makeUser(t.db, member("management")),
    outsider: await makeUser(t.db, member("management", theirs)),
  };
  as = {
    sales: await signIn(t.app, people.sales),
    sales2: await signIn(t.app, people.sales2),
    frontDesk: await signIn(t.app, people.frontDesk),
    management: await signIn(t.app, people.management),
    outsider: await signIn(t.app, people.outsider),
  };
  const credential = await as.management.post(`/api/dealerships/${ours}/intake/credentials`, { name: "AutoTrader" });
  expect(credential.statusCode, credential.body).toBe(201);
  secret = credential.json<{ secret: string }>().secret;
}, 60_000);
afterAll(() => t.close());

describe("at intake", () => {
  it("links a vehicle of interest whose VIN is in the inventory, however the document writes the VIN", async () => {
    const wanted = freshVin();
    const car = await makeVehicle(t.db, { dealershipId: ours, year: "2025", make: "Hyundai", model: "Tucson", vin: wanted, stockNumber: "T-1001" });
    const spaced = `${wanted.slice(0, 8).toLowerCase()} ${wanted.slice(8)}`;
    const leadId = await receive(adf(vehicleXml({ vin: spaced })));
    expect(await linked(as.frontDesk, leadId)).toEqual([
      expect.objectContaining({ interest: "buy", matchedOn: "vin", vehicle: expect.objectContaining({ id: car.id, vin: wanted, stockNumber: "T-1001" }) }),
    ]);
  });

  it("links by stock number (any case), for a lease and a test drive too", async () => {
    const car = await makeVehicle(t.db, { dealershipId: ours, stockNumber: "U-2002" });
    const leadId = await receive(adf(vehicleXml({ stock: "u-2002", interest: "lease" })));
    expect(await linked(as.management, leadId)).toEqual([expect.objectContaining({ interest: "lease", matchedOn: "stockNumber", vehicle: expect.objectContaining({ id: car.id }) })]);
    const drive = await receive(adf(vehicleXml({ stock: "U-2002", interest: "test-drive" }), "Tess"));
    expect((await linked(as.management, drive)).map((v) => v.interest)).toEqual(["test-drive"]);
  });

  it("links nothing when neither the VIN nor the stock number is in the inventory", async () => {
    await makeVehicle(t.db, { dealershipId: ours, vin: freshVin(), stockNumber: "N-3003" });
    const leadId = await receive(adf(vehicleXml({ vin: freshVin(), stock: "N-9999" })));
    expect(await linked(as.frontDesk, leadId)).toEqual([]);
    // What the customer asked for is kept, to link when the vehicle arrives.
    expect(await t.db.select({ vehicleId: vehiclesOfInterest.vehicleId }).from(vehiclesOfInterest).where(eq(vehiclesOfInterest.leadId, leadId))).toEqual([{ vehicleId: null }]);
  });

  it("never links another dealership's vehicle, by VIN or by stock number", async () => {
    const wanted = freshVin();
    await makeVehicle(t.db, { dealershipId: theirs, vin: wanted, stockNumber: "X-4004" });
    const byVin = await receive(adf(vehicleXml({ vin: wanted })));
    const byStock = await receive(adf(vehicleXml({ stock: "X-4004" }), "Stan"));
    expect(await linked(as.management, byVin)).toEqual([]);
    expect(await linked(as.management, byStock)).toEqual([]);
  });

  it("does not link a trade-in or a car the customer sells, even when its VIN is in the inventory", async () => {
    const wanted = freshVin();
    await makeVehicle(t.db, { dealershipId: ours, vin: wanted, stockNumber: "TI-5005" });
    const leadId = await receive(adf(`${vehicleXml({ vin: wanted, interest: "trade-in" })}${vehicleXml({ stock: "TI-5005", interest: "sell" })}`));
    expect(await linked(as.management, leadId)).toEqual([]);
  });

  it("does not take a recycled stock number for the car: the VINs differ", async () => {
    await makeVehicle(t.db, { dealershipId: ours, vin: freshVin(), stockNumber: "R-6006" });
    const leadId = await receive(adf(vehicleXml({ vin: freshVin(), stock: "R-6006" })));
    expect(await linked(as.management, leadId)).toEqual([]);
  });
});

describe("later and elsewhere", () => {
  it("links an open lead when its vehicle is added to the inventory, not a closed one; a removal unlinks", async () => {
    const wanted = freshVin();
    const open = await receive(adf(vehicleXml({ vin: wanted }), "Olive"));
    const closed = await receive(adf(vehicleXml({ vin: wanted }), "Clara"));
    await t.db.update(leads).set({ status: "closed" }).where(eq(leads.id, closed));
    const added = await as.management.post(`/api/dealerships/${ours}/vehicles`, { year: "2025", make: "Hyundai", model: "Tucson", stockNumber: "L-7007", condition: "new", vin: wanted });
    expect(added.statusCode, added.body).toBe(201);
    const carId = added.json<{ id: string }>().id;
    expect((await linked(as.frontDesk, open)).map((v) => v.vehicle.id)).toEqual([carId]);
    expect(await linked(as.frontDesk, closed)).toEqual([]);
    expect((await as.management.delete(`/api/vehicles/${carId}`)).statusCode).toBe(200);
    expect(await linked(as.frontDesk, open)).toEqual([]);
  });

  it("shows the linked vehicle to whoever may open the lead: 404 for another rep's client and another dealership", async () => {
    const car = await makeVehicle(t.db, { dealershipId: ours, stockNumber: "A-8008" });
    const leadId = await receive(adf(vehicleXml({ stock: "A-8008" }), "Ava"));
    // In the pool every rep may open it; claimed by one, the other rep gets 404 like GET /api/leads/{id}.
    expect((await linked(as.sales2, leadId)).map((v) => v.vehicle.id)).toEqual([car.id]);
    expect((await as.sales.post(`/api/leads/${leadId}/claim`)).statusCode).toBe(200);
    expect((await linked(as.sales, leadId)).map((v) => v.vehicle.id)).toEqual([car.id]);
    expect((await as.sales2.get(`/api/leads/${leadId}/vehicles`)).statusCode).toBe(404);
    expect((await as.outsider.get(`/api/leads/${leadId}/vehicles`)).statusCode).toBe(404);
    expect((await anonymous(t.app).get(`/api/leads/${leadId}/vehicles`)).statusCode).toBe(401);
  });

  it("moves with a merge to the kept lead", async () => {
    const car = await makeVehicle(t.db, { dealershipId: ours, stockNumber: "M-9009" });
    const merged = await receive(adf(vehicleXml({ stock: "M-9009" }), "Mia"));
    const kept = await receive(adf("", "Mia"));
    const response = await as.frontDesk.post(`/api/leads/${kept}/merge`, { mergeLeadId: merged });
    expect(response.statusCode, response.body).toBe(200);
    expect((await linked(as.frontDesk, kept)).map((v) => v.vehicle.id)).toEqual([car.id]);
  });

  it("links every lead of documents received while their vehicle is being added, at the same moment", async () => {
    const wanted = freshVin();
    const documents = Array.from({ length: 49 }, (_, i) => receive(adf(vehicleXml({ vin: wanted }), `Racer${i}`)));
    const add = as.management.post(`/api/dealerships/${ours}/vehicles`, { year: "2025", make: "Hyundai", model: "Tucson", stockNumber: "Z-1010", condition: "new", vin: wanted });
    const [added, leadIds] = await Promise.all([add, Promise.all(documents)]);
    expect(added.statusCode, added.body).toBe(201);
    const carId = added.json<{ id: string }>().id;
    for (const leadId of leadIds) expect((await linked(as.management, leadId)).map((v) => v.vehicle.id), leadId).toEqual([carId]);
  });
});
