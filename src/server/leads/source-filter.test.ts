import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import type { LeadStatus } from "../../shared/constants";
import { LEAD_SOURCES, type LeadSource } from "../../shared/lead-source";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leads } from "../db/schema/leads";

// The lists' source filter (issue 14; decision 130): `?source=` on the lists and on their CSV export, for every role,
// within the dealership; anything but a known source is a 400 that names the field.

let t: TestApp;
let ours: string;
let sam: MadeUser;
let sue: MadeUser;
let rep: Agent;
let colleague: Agent;
let desk: Agent;
let manager: Agent;
let outsider: Agent;

async function lead(dealershipId: string, firstName: string, source: LeadSource, status: LeadStatus = "new", claimedBy: string | null = null) {
  const made = await makeLead(t.db, { dealershipId, firstName, lastName: "Lead", status, claimedBy });
  await t.db.update(leads).set({ source, sourceProvider: source === "adf" ? "AutoTrader" : null }).where(eq(leads.id, made.id));
}

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db)).id;
  const theirs = (await makeDealership(t.db)).id;
  sam = await makeUser(t.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
  sue = await makeUser(t.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
  rep = await signIn(t.app, sam);
  colleague = await signIn(t.app, sue);
  desk = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: ours, role: "frontDesk" }] }));
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: ours, role: "management" }] }));
  outsider = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: theirs, role: "management" }] }));

  await lead(ours, "AdfNew1", "adf");
  await lead(ours, "AdfNew2", "adf");
  await lead(ours, "PhoneNew", "phone");
  await lead(ours, "WalkNew", "walk-in");
  await lead(ours, "AdfSams", "adf", "contacted", sam.id);
  await lead(ours, "PhoneSams", "phone", "claimed", sam.id);
  await lead(ours, "PhoneSues", "phone", "closed", sue.id);
  await lead(theirs, "AdfTheirs", "adf");
  await lead(theirs, "PhoneTheirs", "phone", "claimed");
}, 60_000);
afterAll(() => t.close());

const names = (body: Array<{ firstName: string }>) => body.map((l) => l.firstName).sort();
const list = async (who: Agent, query: string) => {
  const res = await who.get(`/api/dealerships/${ours}/leads?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return names(res.json());
};

describe("?source= on the leads lists", () => {
  it("shows New Leads of one source only, to every role", async () => {
    for (const who of [rep, desk, manager]) {
      expect(await list(who, "type=new&source=adf")).toEqual(["AdfNew1", "AdfNew2"]);
      expect(await list(who, "type=new&source=phone")).toEqual(["PhoneNew"]);
      expect(await list(who, "type=new&source=website")).toEqual([]);
    }
  });

  it("filters My Clients within the rep's own clients and All Clients within the dealership", async () => {
    expect(await list(rep, "type=my&source=phone")).toEqual(["PhoneSams"]);
    expect(await list(colleague, "type=my&source=phone")).toEqual(["PhoneSues"]);
    expect(await list(colleague, "type=my&source=adf")).toEqual([]);
    for (const who of [desk, manager]) {
      expect(await list(who, "type=my&source=phone")).toEqual(["PhoneSams", "PhoneSues"]);
      // Combined with the status filter and the search (AND).
      expect(await list(who, "type=my&source=phone&status=closed")).toEqual(["PhoneSues"]);
      expect(await list(who, "type=my&source=adf&q=adfsams")).toEqual(["AdfSams"]);
    }
  });

  it("keeps the source on the next page's link", async () => {
    const first = await desk.get(`/api/dealerships/${ours}/leads?type=new&source=adf&limit=1`);
    expect(first.json()).toHaveLength(1);
    const link = /<([^>]+)>;\s*rel="next"/.exec(String(first.headers.link))?.[1];
    expect(link).toContain("source=adf");
    const second = await desk.get(link!);
    expect(names([...first.json(), ...second.json()])).toEqual(["AdfNew1", "AdfNew2"]);
  });

  it("refuses an unknown or doubled source with 400 naming the field", async () => {
    for (const bad of ["carrier-pigeon", "ADF", "adf'%20or%201=1--", "adf&source=phone", ""]) {
      const res = await manager.get(`/api/dealerships/${ours}/leads?type=new&source=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().fields.source, bad).toBe(`source must be one of: ${LEAD_SOURCES.join(", ")}`);
    }
    // A control character is refused before the choice is looked at, still on the field.
    const nul = await manager.get(`/api/dealerships/${ours}/leads?type=new&source=adf%00`);
    expect(nul.statusCode).toBe(400);
    expect(nul.json().fields.source).toBe("must not contain control characters");
  });

  it("answers another dealership's manager 403 whatever the source", async () => {
    expect((await outsider.get(`/api/dealerships/${ours}/leads?type=new&source=adf`)).statusCode).toBe(403);
  });
});

describe("?source= on the CSV export of the list on screen", () => {
  const exported = async (who: Agent, query: string) => {
    const res = await who.get(`/api/dealerships/${ours}/leads/export?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  it("exports only the chosen source's leads, for front desk and management", async () => {
    for (const who of [desk, manager]) {
      const csv = await exported(who, "type=new&source=adf");
      expect(csv).toContain("AdfNew1");
      expect(csv).toContain("AdfNew2");
      expect(csv).not.toContain("PhoneNew");
      expect(csv).not.toContain("AdfTheirs");
      const phones = await exported(who, "type=my&source=phone");
      expect(phones).toContain("PhoneSams");
      expect(phones).toContain("PhoneSues");
      expect(phones).not.toContain("AdfSams");
    }
  });

  it("refuses an unknown source with 400 naming the field, a rep and another dealership with 403", async () => {
    const res = await desk.get(`/api/dealerships/${ours}/leads/export?source=fax`);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.source).toBe(`source must be one of: ${LEAD_SOURCES.join(", ")}`);
    expect((await rep.get(`/api/dealerships/${ours}/leads/export?source=adf`)).statusCode).toBe(403);
    expect((await outsider.get(`/api/dealerships/${ours}/leads/export?source=adf`)).statusCode).toBe(403);
  });
});
