import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leadDuplicates } from "../db/schema/lead-duplicates";
import { leads } from "../db/schema/leads";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { parse } from "csv-parse/sync";
import { neutraliseFormula, restoreFormula } from "./csv-export";

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

/** A dealership of its own and its manager: a case's stored leads are then exactly the dealership's. */
async function freshDealership(): Promise<{ id: string; agent: Agent }> {
  const id = (await makeDealership(t.db)).id;
  return { id, agent: await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: id, role: "management" }] })) };
}

function uploadTo(agent: Agent, id: string, path: string, csv: string | Buffer) {
  return agent.request({ method: "POST", url: `/api/dealerships/${id}/leads/${path}`, headers: { "content-type": "text/csv" }, payload: csv });
}

async function storedLeads(id: string) {
  const rows = await t.db
    .select({ firstName: leads.firstName, lastName: leads.lastName, email: leads.email, phone: leads.phone, description: leads.description, source: leads.source })
    .from(leads)
    .where(eq(leads.dealershipId, id));
  return rows.sort((a, b) => (a.firstName < b.firstName ? -1 : a.firstName > b.firstName ? 1 : 0));
}

/** Windows-1252 as Excel's "CSV (Comma/Semicolon delimited)" writes it: Latin-1, with € and ’ in the 0x80 block. */
function windows1252(text: string): Buffer {
  const extra: Record<string, number> = { "€": 0x80, "’": 0x92 };
  return Buffer.from([...text].map((c) => extra[c] ?? c.charCodeAt(0)));
}

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]);
const utf8bom = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);

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
    expect(preview.sample[0]).toMatchObject({ line: 2, firstName: "Ana", lastName: "Smith, Jr.", phone: "+14165550101", description: 'Wants "red", not blue' });
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
      { line: 4, fields: { lastName: "Last name is required" } },
      { line: 5, fields: { email: "Please enter a valid email" } },
    ]);
    const response = await upload(manager, "import", csv);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("2 rows have errors; nothing was imported. Row 4: lastName: Last name is required");
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
    const values = ["=1+1", "+1", "-2", "@SUM(A1)", "\tx", "plain", "a=b", "'=x", "''+y", "'quoted", "'"];
    const written = values.map(neutraliseFormula);
    expect(written).toEqual(["'=1+1", "'+1", "'-2", "'@SUM(A1)", "'\tx", "plain", "a=b", "''=x", "'''+y", "'quoted", "'"]);
    // The import takes off exactly what the export added, and nothing else (decision 182).
    expect(written.map(restoreFormula)).toEqual(values);
  });

  it("streams the filtered list, and what it exports imports again (round trip)", async () => {
    await makeLead(t.db, { dealershipId, firstName: "=HYPERLINK(\"http://evil\")", lastName: "Formula", description: "@cmd" });
    await makeLead(t.db, { dealershipId, firstName: "Round", lastName: "Trip, \"Quoted\"", email: "round@example.com", phone: "905-555-1212" });
    const response = await frontDesk.get(`/api/dealerships/${dealershipId}/leads/export?type=new&q=${encodeURIComponent("Trip")}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = response.body.replace(/^\uFEFF/, "");
    const lines = text.trim().split("\r\n");
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
      ["Round", 'Trip, "Quoted"', "+19055551212"],
      ["Round", 'Trip, "Quoted"', "+19055551212"],
    ]);
  });
});

type Stored = Awaited<ReturnType<typeof storedLeads>>[number];
const lead = (firstName: string, lastName: string, more: Partial<Stored> = {}): Stored => ({
  firstName,
  lastName,
  email: null,
  phone: null,
  description: null,
  source: "import",
  ...more,
});

// Files as spreadsheets write them (issue 29; decision 182), each through the real import route into a dealership of
// its own, and the stored leads compared as a whole.
const FILES: Array<{ name: string; file: Buffer; leads: Stored[] }> = [
  {
    name: "Excel, French locale: semicolons, CRLF, Windows-1252",
    file: windows1252('First Name;Last Name;Email;Phone;Notes\r\nJosé;Müller;jose@example.com;+33 1 23 45 67 89;Prix 20 000 €, l’offre\r\nZoë;Ñúñez;;;"Deux; points"\r\n'),
    leads: [
      lead("José", "Müller", { email: "jose@example.com", phone: "+33123456789", description: "Prix 20 000 €, l’offre" }),
      lead("Zoë", "Ñúñez", { description: "Deux; points" }),
    ],
  },
  {
    name: "Excel Unicode text: tabs, CRLF, UTF-16LE with BOM",
    file: utf16le('First Name\tLast Name\tE-mail\tPhone\tNotes\r\nŁukasz\tŻółć\tlz@example.com\t416 555 0199\t"Likes 😀, tabs\tand; all"\r\nAmélie\tDurand\t\t\t\r\n'),
    leads: [
      lead("Amélie", "Durand"),
      lead("Łukasz", "Żółć", { email: "lz@example.com", phone: "+14165550199", description: "Likes 😀, tabs\tand; all" }),
    ],
  },
  {
    name: "UTF-16BE with BOM, tabs",
    file: utf16be("First Name\tLast Name\r\nGrüße\tAus Köln\r\n"),
    leads: [lead("Grüße", "Aus Köln")],
  },
  {
    name: "Excel CSV UTF-8: BOM, commas, CRLF",
    file: utf8bom('First Name,Last Name,Email,Phone,Description\r\nSøren,Kierkegård,soren@example.com,+44 20 7946 0958,"Kørsel, ""snart"""\r\n'),
    leads: [lead("Søren", "Kierkegård", { email: "soren@example.com", phone: "+442079460958", description: 'Kørsel, "snart"' })],
  },
  {
    name: "LibreOffice: UTF-8 without BOM, LF, semicolons, a quote inside an unquoted cell",
    file: Buffer.from('Vorname;Last Name;First Name;Notes\nx;Weiß;Jürgen;Wants 20" wheels\n'),
    leads: [lead("Jürgen", "Weiß", { description: 'Wants 20" wheels' })],
  },
  {
    name: "a Lead Source column: kinds by name or label, anything else is import",
    file: Buffer.from("First Name,Last Name,Lead Source\r\nA,One,Walk-in\r\nB,Two,phone\r\nC,Three,WEBSITE\r\nD,Four,Facebook\r\nE,Five,\r\nF,Six,ADF\r\n"),
    leads: [
      lead("A", "One", { source: "walk-in" }),
      lead("B", "Two", { source: "phone" }),
      lead("C", "Three", { source: "website" }),
      lead("D", "Four"),
      lead("E", "Five"),
      lead("F", "Six", { source: "adf" }),
    ],
  },
];

describe("CSV files as spreadsheets write them (issue 29)", () => {
  it.each(FILES)("imports $name", async ({ file, leads: expected }) => {
    const { id, agent } = await freshDealership();
    const response = await uploadTo(agent, id, "import", file);
    expect(response.statusCode, response.body).toBe(201);
    expect(await storedLeads(id)).toEqual(expected);
  });

  it('accepts a quote inside an unquoted cell (Wants 20" wheels)', async () => {
    const { id, agent } = await freshDealership();
    const response = await uploadTo(agent, id, "import", 'First Name,Last Name,Notes\nAl,Rim,Wants 20" wheels\n');
    expect(response.statusCode, response.body).toBe(201);
    expect(await storedLeads(id)).toEqual([lead("Al", "Rim", { description: 'Wants 20" wheels' })]);
  });

  it("maps a Lead Source column by itself and shows the source in the preview", async () => {
    const { id, agent } = await freshDealership();
    const preview = await uploadTo(agent, id, "import/preview", "First Name,Last Name,Lead Source\nA,B,Phone\nC,D,Craigslist\n");
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().mapping).toEqual({ "First Name": "firstName", "Last Name": "lastName", "Lead Source": "source" });
    expect(preview.json().sample.map((row: { source: string }) => row.source)).toEqual(["phone", "import"]);
  });

  it("refuses, naming the encoding, what it cannot read, and saves nothing", async () => {
    const { id, agent } = await freshDealership();
    const refused = async (file: Buffer) => {
      const response = await uploadTo(agent, id, "import", file);
      expect(response.statusCode, response.body).toBe(400);
      return response.json<{ message: string }>().message;
    };
    expect(await refused(Buffer.from("First Name\tLast Name\r\nA\tB\r\n", "utf16le"))).toBe(
      "The file is not CSV text (UTF-16 without a byte order mark, or a workbook): save it as CSV UTF-8",
    );
    const loneSurrogate = Buffer.from([0x00, 0xd8]);
    expect(await refused(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("First Name,Last Name\n", "utf16le"), loneSurrogate]))).toBe(
      "The file is not valid UTF-16LE text",
    );
    expect(await refused(Buffer.concat([utf8bom("First Name,Last Name\nJos"), Buffer.from([0xe9]), Buffer.from(",B\n")]))).toBe("The file is not valid UTF-8 text");
    expect(await refused(Buffer.from([0xff, 0xfe, 0, 0, 0x46, 0, 0, 0]))).toBe("The file is in UTF-32, which is not read: save it as CSV UTF-8");
    expect(await refused(Buffer.from([...Buffer.from("First Name,Last Name\nA,B"), 0x81, 0x0a]))).toBe(
      "The file is neither UTF-8 nor Windows-1252 text: save it as CSV UTF-8",
    );
    expect(await storedLeads(id)).toEqual([]);
  });

  it("numbers rows as a spreadsheet does: header row 1, a cell with line breaks one row, an empty line a row", async () => {
    const { id, agent } = await freshDealership();
    const csv = 'First Name,Last Name,Notes\r\nAna,One,"two\r\nlines"\r\n\r\nBo,,x\r\nCy,Three,"a\nb\nc"\r\nDi,,y\r\n';
    const preview = await uploadTo(agent, id, "import/preview", csv);
    expect(preview.json().errors).toEqual([
      { line: 4, fields: { lastName: "Last name is required" } },
      { line: 6, fields: { lastName: "Last name is required" } },
    ]);
    expect(preview.json().sample.map((row: { line: number }) => row.line)).toEqual([2, 5]);
    const response = await uploadTo(agent, id, "import", csv);
    expect(response.json().message).toBe("2 rows have errors; nothing was imported. Row 4: lastName: Last name is required");
  });
});

describe("CSV round trip (issue 29)", () => {
  it("exports records that end in CRLF and that a strict RFC 4180 parser reads back cell for cell", async () => {
    const { id, agent } = await freshDealership();
    const made = await agent.post(`/api/dealerships/${id}/leads`, { firstName: "Crlf", lastName: "Multi", description: 'one\ntwo, "three"' });
    expect(made.statusCode, made.body).toBe(201);
    const text = (await agent.get(`/api/dealerships/${id}/leads/export`)).body;
    // No line feed outside a quoted cell that is not part of a CRLF.
    expect(text.replace(/"(?:[^"]|"")*"/g, "")).not.toMatch(/[^\r]\n/);
    expect(text.endsWith("\r\n")).toBe(true);
    const records = parse(text, { bom: true, record_delimiter: "\r\n" }) as string[][];
    expect(records).toHaveLength(2);
    expect(records[1]!.slice(0, 7)).toEqual(["Crlf", "Multi", "", "", 'one\ntwo, "three"', "New", "Walk-in"]);
  });

  it("imports its own export unchanged: export, import into another dealership, export again gives the same bytes", async () => {
    const from = await freshDealership();
    const to = await freshDealership();
    const made = [
      { firstName: "-", lastName: "Dash", phone: "+44 20 7946 0958", source: "phone" },
      { firstName: "=SUM(A1)", lastName: "'=Quoted", description: '@cmd\nsecond line, with "quotes"', source: "website" },
      { firstName: "Plain", lastName: "O'Brien", email: "ob@example.com", phone: "905-555-1212" },
      { firstName: "+Plus", lastName: "'apostrophe", description: "-5 off" },
    ];
    for (const body of made) {
      const response = await from.agent.post(`/api/dealerships/${from.id}/leads`, body);
      expect(response.statusCode, response.body).toBe(201);
    }
    const first = (await from.agent.get(`/api/dealerships/${from.id}/leads/export`)).body;
    expect(first).toContain("'+44 20 7946 0958");
    const imported = await uploadTo(to.agent, to.id, "import", first);
    expect(imported.statusCode, imported.body).toBe(201);
    const second = (await to.agent.get(`/api/dealerships/${to.id}/leads/export`)).body;
    // The import makes new leads: Created is the import's own, and leads created together are listed in id order.
    const records = (csv: string) => csv.replace(/,\d{4}-\d{2}-\d{2}T[\d:.]+Z,/g, ",<created>,").split("\r\n");
    const [header, ...rows] = records(second);
    expect(header).toBe(records(first)[0]);
    expect(rows.sort()).toEqual(records(first).slice(1).sort());
    expect(rows).toHaveLength(made.length + 1);
    const stored = await storedLeads(to.id);
    expect(stored.map((l) => [l.firstName, l.lastName, l.phone, l.source])).toEqual([
      ["+Plus", "'apostrophe", null, "walk-in"],
      ["-", "Dash", "+442079460958", "phone"],
      ["=SUM(A1)", "'=Quoted", null, "website"],
      ["Plain", "O'Brien", "+19055551212", "walk-in"],
    ]);
  });
});
