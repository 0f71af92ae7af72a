import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leadDuplicates } from "../db/schema/lead-duplicates";
import { leads } from "../db/schema/leads";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { neutraliseFormula } from "./csv-export";

// CSV import and export of leads (issue 14; decision 135).

let t: TestApp;
let dealershipId: string;
let manager: Agent;
let frontDesk: Agent;
let rep: Agent;
let outsider: Agent;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db)).id;
  const other = (await makeDealership(t.db)).id;
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
  frontDesk = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "frontDesk" }] }));
  rep = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] }));
  outsider = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: other, role: "management" }] }));
}, 60_000);
afterAll(() => t.close());

function upload(agent: Agent, path: string, csv: string | Buffer, mapping?: Record<string, string | null>) {
  const query = mapping ? `?mapping=${encodeURIComponent(JSON.stringify(mapping))}` : "";
  return agent.request({ method: "POST", url: `/api/dealerships/${dealershipId}/leads/${path}${query}`, headers: { "content-type": "text/csv" }, payload: csv });
}

const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(leads).where(eq(leads.dealershipId, dealershipId)))[0]!.n;

const GOOD = [
  "First Name,Last Name,E-mail,Phone Number,Notes",
  'Ana,"Smith, Jr.",ana@example.com,(416) 555-0101,"Wants ""red"", not blue"',
  "Bo,Chan,,416 555 0102,\"Two\nlines\"",
].join("\r\n");

describe("CSV import", () => {
  it("previews a file with a BOM, quotes and commas: columns, the guessed mapping, sample rows", async () => {
    const response = await upload(frontDesk, "import/preview", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(GOOD)]));
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json();
    expect(preview.columns).toEqual(["First Name", "Last Name", "E-mail", "Phone Number", "Notes"]);
    expect(preview.mapping).toEqual({ "First Name": "firstName", "Last Name": "lastName", "E-mail": "email", "Phone Number": "phone", Notes: "description" });
    expect(preview.rows).toBe(2);
    expect(preview.sample[0]).toMatchObject({ line: 2, firstName: "Ana", lastName: "Smith, Jr.", phone: "416-555-0101", description: 'Wants "red", not blue' });
    expect(preview.sample[1]).toMatchObject({ line: 3, firstName: "Bo", email: null, description: "Two\nlines" });
    expect(preview.errors).toEqual([]);
  });

  it("imports every row in one go as new leads with source import", async () => {
    const before = await count();
    const response = await upload(manager, "import", GOOD);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ message: "2 leads imported", imported: 2 });
    expect(await count()).toBe(before + 2);
    const [ana] = await t.db.select().from(leads).where(eq(leads.lastName, "Smith, Jr."));
    expect(ana).toMatchObject({ status: "new", source: "import", email: "ana@example.com" });
  });

  it("links an imported customer who is already an open lead as a possible duplicate (phone written differently)", async () => {
    const existing = await frontDesk.post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Known", lastName: "Walkin", phone: "905-555-3344" });
    expect(existing.statusCode, existing.body).toBe(201);
    const response = await upload(manager, "import", ["First Name,Last Name,Phone", "Known,Imported,+1 (905) 555-3344", "Fresh,Face,416-555-9911"].join("\n"));
    expect(response.statusCode, response.body).toBe(201);
    const [imported] = await t.db.select().from(leads).where(eq(leads.lastName, "Imported"));
    const duplicates = await frontDesk.get(`/api/leads/${imported!.id}/duplicates`);
    expect(duplicates.statusCode, duplicates.body).toBe(200);
    expect(duplicates.json<Array<{ id: string; matchedOn: string[] }>>()).toEqual([
      expect.objectContaining({ id: existing.json<{ id: string }>().id, matchedOn: ["phone"] }),
    ]);
    const [fresh] = await t.db.select().from(leads).where(eq(leads.lastName, "Face"));
    expect((await frontDesk.get(`/api/leads/${fresh!.id}/duplicates`)).json()).toEqual([]);
  });

  it("links rows of the same file that are one customer (phone written differently, e-mail in another case), later row to earlier", async () => {
    const csv = [
      "First Name,Last Name,E-mail,Phone",
      "Pat,InFileOne,,+1 (905) 555-4242",
      "Pat,InFileTwo,,905-555-4242",
      "Lee,InFileMail,LEE.INFILE@example.com,",
      "Solo,InFileAlone,solo.infile@example.com,416-555-7007",
      "Lee,InFileAgain,lee.infile@example.com,",
      "Pat,InFileThree,pat.infile@example.com,905.555.4242",
    ].join("\n");
    const response = await upload(frontDesk, "import", csv);
    expect(response.statusCode, response.body).toBe(201);
    const rows = await t.db.select({ id: leads.id, lastName: leads.lastName }).from(leads).where(sql`${leads.lastName} like 'InFile%'`);
    const id = (lastName: string) => rows.find((r) => r.lastName === lastName)!.id;
    const links = await t.db
      .select({ from: leadDuplicates.leadId, to: leadDuplicates.duplicateOfId, on: leadDuplicates.matchedOn })
      .from(leadDuplicates)
      .where(sql`${leadDuplicates.leadId} in ${rows.map((r) => r.id)} or ${leadDuplicates.duplicateOfId} in ${rows.map((r) => r.id)}`);
    const named = (n: string) => rows.find((r) => r.id === n)!.lastName;
    expect(links.map((l) => [named(l.from), named(l.to), l.on]).sort()).toEqual([
      ["InFileAgain", "InFileMail", "email"],
      ["InFileThree", "InFileOne", "phone"],
      ["InFileThree", "InFileTwo", "phone"],
      ["InFileTwo", "InFileOne", "phone"],
    ]);
    // Both leads' pages show the link; the row nobody else shares has none.
    const shown = async (lastName: string) => (await frontDesk.get(`/api/leads/${id(lastName)}/duplicates`)).json<Array<{ id: string }>>().map((d) => d.id);
    expect(await shown("InFileMail")).toEqual([id("InFileAgain")]);
    expect((await shown("InFileOne")).sort()).toEqual([id("InFileTwo"), id("InFileThree")].sort());
    expect(await shown("InFileAlone")).toEqual([]);
  });

  it("imports nothing when one row is bad, and says which line and field", async () => {
    const before = await count();
    const csv = `${GOOD}\r\nCy,,cy@example.com,,\r\nDi,Dee,not-an-email,,`;
    const preview = (await upload(manager, "import/preview", csv)).json();
    expect(preview.errors).toEqual([
      { line: 5, fields: { lastName: "Last name is required" } },
      { line: 6, fields: { email: "Please enter a valid email" } },
    ]);
    const response = await upload(manager, "import", csv);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("2 rows have errors; nothing was imported. Line 5: lastName: Last name is required");
    expect(await count()).toBe(before);
  });

  it("follows the mapping chosen in the dialog and refuses one without both names", async () => {
    const csv = "Given,Family,Other\nEve,Adams,ignored";
    expect((await upload(manager, "import/preview", csv)).json().mapping).toEqual({ Given: null, Family: null, Other: null });
    const refused = await upload(manager, "import", csv);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ mapping: "choose the columns of the first and the last name" });
    const response = await upload(manager, "import", csv, { Given: "firstName", Family: "lastName", Other: null });
    expect(response.statusCode, response.body).toBe(201);
    expect(await t.db.select({ d: leads.description }).from(leads).where(eq(leads.firstName, "Eve"))).toEqual([{ d: null }]);
    expect((await upload(manager, "import", csv, { Given: "firstName", Family: "firstName" })).statusCode).toBe(400);
    expect((await upload(manager, "import", csv, { Nope: "firstName" })).json().message).toBe('mapping: the file has no column "Nope"');
  });

  it("refuses broken CSV, an empty file, JSON and files over the caps with a clear 4xx", async () => {
    const broken = await upload(manager, "import/preview", 'First Name,Last Name\n"Ann,Lee');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^The file is not valid CSV/);
    expect((await upload(manager, "import/preview", "")).json().message).toBe("The file is empty: the first row names the columns");
    const json = await manager.post(`/api/dealerships/${dealershipId}/leads/import`, { csv: "a,b" });
    expect(json.statusCode).toBe(415);
    const rows = Array.from({ length: 5001 }, (_, i) => `A${i},B${i}`).join("\n");
    const tooMany = await upload(manager, "import", `First Name,Last Name\n${rows}`);
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().message).toBe("At most 5000 rows can be imported at once");
    const big = await upload(manager, "import/preview", `First Name,Last Name\n${"x".repeat(6 * 1024 * 1024)},y`);
    expect(big.statusCode).toBe(413);
  });

  it("is refused to sales reps and to another dealership's manager", async () => {
    expect((await upload(rep, "import/preview", GOOD)).statusCode).toBe(403);
    expect((await upload(rep, "import", GOOD)).statusCode).toBe(403);
    expect((await upload(outsider, "import", GOOD)).statusCode).toBe(403);
    expect((await rep.get(`/api/dealerships/${dealershipId}/leads/export`)).statusCode).toBe(403);
    expect((await outsider.get(`/api/dealerships/${dealershipId}/leads/export`)).statusCode).toBe(403);
  });
});

describe("CSV export", () => {
  it("escapes cells a spreadsheet would run as formulas", () => {
    expect(["=1+1", "+1", "-2", "@SUM(A1)", "\tx", "plain", "a=b"].map(neutraliseFormula)).toEqual([
      "'=1+1",
      "'+1",
      "'-2",
      "'@SUM(A1)",
      "'\tx",
      "plain",
      "a=b",
    ]);
  });

  it("streams the filtered list, and what it exports imports again (round trip)", async () => {
    await makeLead(t.db, { dealershipId, firstName: "=HYPERLINK(\"http://evil\")", lastName: "Formula", description: "@cmd" });
    await makeLead(t.db, { dealershipId, firstName: "Round", lastName: "Trip, \"Quoted\"", email: "round@example.com", phone: "905-555-1212" });
    const response = await frontDesk.get(`/api/dealerships/${dealershipId}/leads/export?type=new&q=${encodeURIComponent("Trip")}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = response.body.replace(/^\uFEFF/, "");
    const lines = text.trim().split("\n");
    expect(lines[0]).toBe("First Name,Last Name,Email,Phone,Description,Status,Source,Provider,Created,Claimed By,Claimed At");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Round,"Trip, ""Quoted""",round@example.com,905-555-1212,,New,Walk-in,,/);

    const formula = (await manager.get(`/api/dealerships/${dealershipId}/leads/export?q=Formula`)).body;
    expect(formula).toContain(`"'=HYPERLINK(""http://evil"")",Formula`);
    expect(formula).toContain("'@cmd");

    const before = await count();
    const again = await upload(manager, "import", response.body);
    expect(again.statusCode, again.body).toBe(201);
    expect(await count()).toBe(before + 1);
    const copies = await t.db.select().from(leads).where(eq(leads.email, "round@example.com"));
    expect(copies.map((c) => [c.firstName, c.lastName, c.phone])).toEqual([
      ["Round", 'Trip, "Quoted"', "905-555-1212"],
      ["Round", 'Trip, "Quoted"', "905-555-1212"],
    ]);
  });
});
