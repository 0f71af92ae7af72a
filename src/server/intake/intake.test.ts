import { and, eq, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealership, makeUser } from "../db/factories";
import { domainEvents } from "../db/schema/events";
import { intakeCredentials, intakeDocuments } from "../db/schema/intake";
import { leads } from "../db/schema/leads";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { ADF_SAMPLE } from "../../shared/adf-sample";
import { startIntakeSmtp, type IntakeSmtp } from "./smtp";

// Lead intake (issue 14): credentials, ADF over HTTP and by mail, the audit of received documents.

const SEVERAL = `<?xml version="1.0" encoding="UTF-8"?>
<?adf version="1.0"?>
<adf>
  <prospect status="new">
    <id sequence="1" source="AutoTrader">AT-1001</id>
    <requestdate>2026-03-02T10:15:00-05:00</requestdate>
    <vehicle interest="buy" status="used">
      <year>2021</year><make>Honda</make><model>Civic</model><trim>EX</trim>
      <vin>2HGFC2F59MH512345</vin><stock>U1234</stock>
    </vehicle>
    <customer>
      <contact primarycontact="1">
        <name part="first">Marie-Claire</name>
        <name part="last">O'Brien &amp; Fils</name>
        <email>Marie@Example.com</email>
        <phone type="voice" time="day">+1 (905) 555-1212</phone>
      </contact>
      <comments><![CDATA[Looking for <low> mileage, trade-in a 2012 Corolla]]></comments>
    </customer>
    <vendor><vendorname>Northside Motors</vendorname></vendor>
    <provider><name part="full">AutoTrader</name><service>Used car leads</service></provider>
  </prospect>
  <prospect>
    <requestdate>2026-03-02T11:00:00-05:00</requestdate>
    <customer>
      <contact><name part="full">Sam Lee</name><phone>416.555.0199</phone></contact>
    </customer>
    <provider><name>Cars.com</name></provider>
  </prospect>
</adf>`;

const ONE = (name = "Ada") =>
  `<adf><prospect><customer><contact><name part="first">${name}</name><name part="last">Intake</name><email>${name.toLowerCase()}@example.com</email></contact></customer></prospect></adf>`;

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<adf><prospect><customer><contact><name part="first">&lol3;</name><name part="last">B</name></contact></customer></prospect></adf>`;

const EXTERNAL_ENTITY = `<?xml version="1.0"?>
<!DOCTYPE adf [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<adf><prospect><customer><contact><name part="first">&xxe;</name><name part="last">X</name></contact></customer></prospect></adf>`;

let t: TestApp;
let dealershipId: string;
let otherDealershipId: string;
let manager: Agent;
let frontDesk: Agent;
let rep: Agent;
let outsider: Agent;

beforeAll(async () => {
  t = await createTestApp({ intake: { smtpHost: "127.0.0.1", domain: "intake.test" } });
  dealershipId = (await makeDealership(t.db)).id;
  otherDealershipId = (await makeDealership(t.db)).id;
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
  frontDesk = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "frontDesk" }] }));
  rep = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] }));
  outsider = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: otherDealershipId, role: "management" }] }));
}, 60_000);
afterAll(() => t.close());

async function newCredential(name = "Website"): Promise<{ id: string; secret: string; mailAddress: string }> {
  const response = await manager.post(`/api/dealerships/${dealershipId}/intake/credentials`, { name });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json<{ credential: { id: string; mailAddress: string }; secret: string }>();
  return { id: body.credential.id, secret: body.secret, mailAddress: body.credential.mailAddress };
}

function postAdf(xml: string, authorization?: string, contentType = "application/xml") {
  return anonymous(t.app).request({
    method: "POST",
    url: "/api/intake/adf",
    headers: { "content-type": contentType, ...(authorization ? { authorization } : {}) },
    payload: xml,
  });
}

const leadCount = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(leads).where(eq(leads.dealershipId, dealershipId)))[0]!.n;

describe("intake credentials", () => {
  it("are created by management, the secret shown once and only its hash stored", async () => {
    const { id, secret, mailAddress } = await newCredential("AutoTrader");
    expect(secret).toMatch(/^shri_[A-Za-z0-9_-]{43}$/);
    expect(mailAddress).toMatch(/^leads\+[a-z0-9]{16}@intake\.test$/);
    const [row] = await t.db.select().from(intakeCredentials).where(eq(intakeCredentials.id, id));
    expect(row!.secretHash).not.toContain(secret);
    expect(JSON.stringify((await manager.get(`/api/dealerships/${dealershipId}/intake/credentials`)).json())).not.toContain(secret);
  });

  it("are refused to front desk, sales and another dealership's manager", async () => {
    for (const agent of [frontDesk, rep, outsider]) {
      expect((await agent.post(`/api/dealerships/${dealershipId}/intake/credentials`, { name: "Nope" })).statusCode).toBe(403);
      expect((await agent.get(`/api/dealerships/${dealershipId}/intake/documents`)).statusCode).toBe(403);
    }
  });

  it("need a name", async () => {
    const response = await manager.post(`/api/dealerships/${dealershipId}/intake/credentials`, { name: " " });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { name: "Name is required" } });
  });

  it("stop working when rotated (the new secret works) and when revoked", async () => {
    const { id, secret } = await newCredential();
    const rotated = await manager.post(`/api/dealerships/${dealershipId}/intake/credentials/${id}/rotate`);
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json<{ secret: string }>().secret;
    expect((await postAdf(ONE("Old"), `Bearer ${secret}`)).statusCode).toBe(401);
    expect((await postAdf(ONE("Fresh"), `Bearer ${fresh}`)).statusCode).toBe(201);
    expect((await manager.delete(`/api/dealerships/${dealershipId}/intake/credentials/${id}`)).statusCode).toBe(200);
    expect((await postAdf(ONE("Revoked"), `Bearer ${fresh}`)).statusCode).toBe(401);
    // Another dealership's manager cannot rotate or revoke it: not found from there.
    expect((await outsider.post(`/api/dealerships/${otherDealershipId}/intake/credentials/${id}/rotate`)).statusCode).toBe(404);
  });
});

describe("POST /api/intake/adf", () => {
  it("accepts the sample the Lead Intake tab offers a web provider to copy (issue 30)", async () => {
    const { secret } = await newCredential("Sample check");
    const response = await postAdf(ADF_SAMPLE, `Bearer ${secret}`);
    expect(response.statusCode, response.body).toBe(201);
    const [lead] = await t.db.select().from(leads).where(eq(leads.id, response.json<{ leadIds: string[] }>().leadIds[0]!));
    expect(lead).toMatchObject({ firstName: "Jane", lastName: "Doe", email: "jane.doe@example.com", phone: "+14165550142", sourceProvider: "Your website" });
    expect(lead!.description).toContain("Is it still available?");
  });

  it("turns each prospect into a new lead with its source, vehicle of interest and comments, and a lead.created event", async () => {
    const { secret } = await newCredential("Website form");
    const response = await postAdf(SEVERAL, `Bearer ${secret}`);
    expect(response.statusCode, response.body).toBe(201);
    const { leadIds, message } = response.json<{ leadIds: string[]; message: string }>();
    expect(message).toBe("2 leads created");
    const rows = await t.db.select().from(leads).where(sql`${leads.id} in ${leadIds}`);
    const marie = rows.find((r) => r.firstName === "Marie-Claire")!;
    expect(marie).toMatchObject({
      lastName: "O'Brien & Fils",
      email: "marie@example.com",
      phone: "+19055551212", // E.164 (issue 29, decision 205)
      status: "new",
      claimedBy: null,
      source: "adf",
      sourceProvider: "AutoTrader",
    });
    expect(marie.description).toContain("Looking for <low> mileage, trade-in a 2012 Corolla");
    expect(marie.description).toContain("Vehicle of interest: used 2021 Honda Civic EX (VIN 2HGFC2F59MH512345, stock U1234)");
    expect(marie.description).toContain("Requested: 2 Mar 2026, 10:15 (UTC-05:00)"); // a date, not an ISO string (issue 29)
    const sam = rows.find((r) => r.firstName === "Sam")!;
    expect(sam).toMatchObject({ lastName: "Lee", phone: "+14165550199", sourceProvider: "Cars.com" });
    const events = await t.db
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.type, "lead.created"), sql`${domainEvents.payload}->'lead'->>'id' in ${leadIds}`));
    expect(events).toHaveLength(2);
    // The lead is in New Leads for the dealership's reps, with its source badge's data.
    const list = (await rep.get(`/api/dealerships/${dealershipId}/leads?type=new&source=adf`)).json<Array<{ id: string; sourceProvider: string }>>();
    expect(list.map((l) => l.id)).toEqual(expect.arrayContaining(leadIds));
  });

  it("links a prospect to an open lead of the same customer, a phone written differently matching (possible duplicate)", async () => {
    const { secret } = await newCredential("Dealer site");
    const walkIn = await frontDesk.post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Dup", lastName: "Walkin", phone: "905-555-7788" });
    expect(walkIn.statusCode, walkIn.body).toBe(201);
    const xml = `<adf><prospect><customer><contact><name part="first">Dup</name><name part="last">Website</name><phone>+1 (905) 555-7788</phone></contact></customer></prospect></adf>`;
    const response = await postAdf(xml, `Bearer ${secret}`);
    expect(response.statusCode, response.body).toBe(201);
    const [adfLeadId] = response.json<{ leadIds: string[] }>().leadIds;
    const duplicates = await frontDesk.get(`/api/leads/${adfLeadId}/duplicates`);
    expect(duplicates.statusCode, duplicates.body).toBe(200);
    expect(duplicates.json<Array<{ id: string; matchedOn: string[] }>>()).toEqual([
      expect.objectContaining({ id: walkIn.json<{ id: string }>().id, matchedOn: ["phone"] }),
    ]);
  });

  it("accepts HTTP Basic with the secret as the password, and text/plain bodies", async () => {
    const { secret } = await newCredential();
    const basic = `Basic ${Buffer.from(`anyone:${secret}`).toString("base64")}`;
    expect((await postAdf(ONE("Basic"), basic, "text/plain")).statusCode).toBe(201);
  });

  it("answers 401 without a credential, with an unknown one or a malformed header, and creates nothing", async () => {
    const before = await leadCount();
    for (const authorization of [undefined, "Bearer shri_nope", "Bearer ", "Basic !!!", "Token abc"]) {
      const response = await postAdf(ONE(), authorization);
      expect(response.statusCode).toBe(401);
      expect(response.json<{ message: string }>().message).toMatch(/intake credential/);
    }
    expect(await leadCount()).toBe(before);
  });

  it("refuses malformed XML, a non-ADF document and a prospect without a name with a 400, all or nothing, and keeps each for audit", async () => {
    const { secret } = await newCredential("Audit");
    const before = await leadCount();
    const cases: Array<[string, RegExp]> = [
      ["<adf><prospect></adf>", /^Malformed XML: Expected closing tag 'prospect'/],
      ["not xml", /^Malformed XML/],
      ["<lead><name>x</name></lead>", /root element must be <adf>/],
      [ONE("Good").replace("</adf>", "<prospect><customer><contact><email>a@b.co</email></contact></customer></prospect></adf>"), /^prospect 2: the customer's name is missing/],
      [ONE("Bad").replace("bad@example.com", "not-an-email"), /^prospect 1: email: Please enter a valid email/],
      // An ADF document with nothing in it says so, rather than that it is no ADF document (issue 29).
      ["<adf/>", /^The ADF document has no <prospect>$/],
      ['<?xml version="1.0"?>\n<adf>\n</adf>', /^The ADF document has no <prospect>$/],
    ];
    for (const [xml, message] of cases) {
      const response = await postAdf(xml, `Bearer ${secret}`);
      expect(response.statusCode, xml).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(message);
    }
    expect(await leadCount()).toBe(before);
    const docs = (await manager.get(`/api/dealerships/${dealershipId}/intake/documents`)).json<Array<{ outcome: string; error: string; credentialName: string }>>();
    expect(docs.slice(0, cases.length).every((d) => d.outcome === "rejected" && d.credentialName === "Audit")).toBe(true);
    const [kept] = await t.db.select().from(intakeDocuments).where(eq(intakeDocuments.error, docs[0]!.error)).limit(1);
    expect(kept!.rawXml.length).toBeGreaterThan(0);
  });

  it("keeps a prospect whose phone is not a phone as a lead without it, and lists the document as accepted with what was left out (issue 29)", async () => {
    const { secret } = await newCredential("Phone sender");
    const xml = ONE("Dialable").replace("</contact>", "<phone>905-555-0123</phone></contact>").replace(
      "</adf>",
      `<prospect><customer><contact><name part="first">Undialable</name><name part="last">Intake</name><phone>call me maybe</phone></contact></customer></prospect></adf>`,
    );
    const response = await postAdf(xml, `Bearer ${secret}`);
    expect(response.statusCode, response.body).toBe(201);
    const note = 'prospect 2: phone "call me maybe" left out (Please enter a valid phone number)';
    expect(response.json<{ message: string }>().message).toBe(`2 leads created; ${note}`);
    const rows = await t.db.select().from(leads).where(sql`${leads.id} in ${response.json<{ leadIds: string[] }>().leadIds}`);
    expect(rows.map((r) => [r.firstName, r.phone]).sort()).toEqual([
      ["Dialable", "+19055550123"],
      ["Undialable", null],
    ]);
    const [latest] = (await manager.get(`/api/dealerships/${dealershipId}/intake/documents`)).json<Array<{ outcome: string; leadsCreated: number; error: string | null }>>();
    expect(latest).toMatchObject({ outcome: "accepted", leadsCreated: 2, error: note });
  });

  it("refuses a billion-laughs document and an external entity with a 400 and creates nothing", async () => {
    const { secret } = await newCredential();
    const before = await leadCount();
    for (const xml of [BILLION_LAUGHS, EXTERNAL_ENTITY]) {
      const response = await postAdf(xml, `Bearer ${secret}`);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toBe("DOCTYPE and entity declarations are not accepted");
    }
    expect(await leadCount()).toBe(before);
  });

  it("refuses a document with a NUL with a 400 naming the body (the input guard reads XML bodies too; decision 172)", async () => {
    const { secret } = await newCredential();
    const before = await leadCount();
    const response = await postAdf(ONE("Nul").replace(">Nul<", ">Nu\u0000l<"), `Bearer ${secret}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toEqual({ body: "must not contain control characters" });
    expect(await leadCount()).toBe(before);
  });

  it("refuses a 10 MB document with a 413, creates nothing and lists it as rejected", async () => {
    const { secret } = await newCredential("Big sender");
    const before = await leadCount();
    const huge = ONE("Huge").replace("</adf>", `<!--${"x".repeat(10 * 1024 * 1024)}--></adf>`);
    const response = await postAdf(huge, `Bearer ${secret}`);
    expect(response.statusCode).toBe(413);
    expect(response.json<{ message: string }>().message).toBe("Request body is too large");
    expect(await leadCount()).toBe(before);
    const [latest] = (await manager.get(`/api/dealerships/${dealershipId}/intake/documents`)).json<Array<{ outcome: string; credentialName: string }>>();
    expect(latest).toMatchObject({ outcome: "rejected", credentialName: "Big sender" });
  });

  it("lists the last 20 documents, newest first, to management", async () => {
    const docs = (await manager.get(`/api/dealerships/${dealershipId}/intake/documents`)).json<Array<{ receivedAt: string }>>();
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.length).toBeLessThanOrEqual(20);
    expect([...docs].sort((a, b) => b.receivedAt.localeCompare(a.receivedAt))).toEqual(docs);
  });
});

describe("the e-mail intake", () => {
  let smtp: IntakeSmtp;
  beforeAll(async () => {
    smtp = await startIntakeSmtp({ db: t.db, logger: pino({ level: "silent" }), port: 0, host: "127.0.0.1", domain: "intake.test" });
  });
  afterAll(() => smtp.close());

  const transport = () => nodemailer.createTransport({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true });

  it("turns an ADF attachment and an ADF body sent by a real SMTP client into leads", async () => {
    const { mailAddress } = await newCredential("Mailed leads");
    await transport().sendMail({
      from: "leads@provider.example",
      to: mailAddress,
      subject: "New lead",
      text: "See attached.",
      attachments: [{ filename: "lead.xml", content: ONE("Attached"), contentType: "application/xml" }],
    });
    await transport().sendMail({ from: "leads@provider.example", to: mailAddress, subject: "New lead", text: ONE("Bodied") });
    const rows = await t.db.select().from(leads).where(sql`${leads.firstName} in ('Attached', 'Bodied')`);
    expect(rows.map((r) => [r.firstName, r.source, r.sourceProvider]).sort()).toEqual([
      ["Attached", "adf", "Mailed leads"],
      ["Bodied", "adf", "Mailed leads"],
    ]);
    const docs = (await manager.get(`/api/dealerships/${dealershipId}/intake/documents`)).json<Array<{ channel: string; outcome: string }>>();
    expect(docs.slice(0, 2)).toEqual([expect.objectContaining({ channel: "email", outcome: "accepted" }), expect.objectContaining({ channel: "email", outcome: "accepted" })]);
  });

  it("rejects an unknown recipient at RCPT and a mail without ADF", async () => {
    const { mailAddress } = await newCredential();
    await expect(transport().sendMail({ from: "x@provider.example", to: "leads+nobody@intake.test", text: ONE("Nobody") })).rejects.toThrow(/550/);
    await expect(transport().sendMail({ from: "x@provider.example", to: "someone@elsewhere.example", text: ONE("Nobody") })).rejects.toThrow(/550/);
    await expect(transport().sendMail({ from: "x@provider.example", to: mailAddress, text: "Hello, call me" })).rejects.toThrow(/no ADF document/);
    const nobody = await t.db.select().from(leads).where(eq(leads.firstName, "Nobody"));
    expect(nobody).toEqual([]);
  });

  it("refuses a hostile document by mail with the same answer, creating nothing", async () => {
    const { mailAddress } = await newCredential();
    const before = await leadCount();
    await expect(
      transport().sendMail({ from: "x@provider.example", to: mailAddress, text: "x", attachments: [{ filename: "lead.xml", content: BILLION_LAUGHS }] }),
    ).rejects.toThrow(/DOCTYPE and entity declarations are not accepted/);
    expect(await leadCount()).toBe(before);
  });

  it("refuses an empty ADF body after a line of text and before a signature as having no prospect (issue 29)", async () => {
    const { mailAddress } = await newCredential();
    for (const empty of ["<adf/>", "<adf></adf>"]) {
      const body = `Lead from Cars.com:\n<?xml version="1.0"?>\n${empty}\n-- \nCars.com`;
      await expect(transport().sendMail({ from: "x@provider.example", to: mailAddress, text: body }), empty).rejects.toThrow(/550 The ADF document has no <prospect>/);
    }
  });

  /** A message as it goes over the wire, so each MIME encoding is the one under test (nodemailer's raw option). */
  function rawMail(to: string, headers: string, body: string): string {
    return [`From: leads@provider.example`, `To: ${to}`, `Message-ID: <${Math.random().toString(36).slice(2)}@provider.example>`, "MIME-Version: 1.0", headers, "", body, ""].join("\r\n");
  }
  const sendRaw = (to: string, raw: string) =>
    transport()
      .sendMail({ envelope: { from: "leads@provider.example", to: [to] }, raw })
      .then(() => null, (error: { responseCode?: number; response?: string }) => error);

  it("refuses a NUL that MIME decoding makes, in an attachment or the body, with a permanent 5xx and its reason, and lists it (decision 172)", async () => {
    const { mailAddress } = await newCredential("Mailed NULs");
    const before = await leadCount();
    // Only the name carries it: the document is otherwise valid, so before the check it reached the lead's insert.
    const withNul = ONE("Nul").replace(">Nul<", ">Nu\u0000l<");
    const cases: Array<[string, string]> = [
      [
        "an .xml attachment in base64",
        rawMail(
          mailAddress,
          'Subject: Lead\r\nContent-Type: multipart/mixed; boundary="b1"',
          [
            "--b1",
            "Content-Type: text/plain",
            "",
            "See attached.",
            "--b1",
            'Content-Type: application/xml; name="lead.xml"',
            'Content-Disposition: attachment; filename="lead.xml"',
            "Content-Transfer-Encoding: base64",
            "",
            Buffer.from(withNul).toString("base64"),
            "--b1--",
          ].join("\r\n"),
        ),
      ],
      ["a quoted-printable body (=00)", rawMail(mailAddress, "Subject: Lead\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable", withNul.replace("\u0000", "=00"))],
      ["a base64 body", rawMail(mailAddress, "Subject: Lead\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64", Buffer.from(withNul).toString("base64"))],
    ];
    for (const [what, raw] of cases) {
      const error = await sendRaw(mailAddress, raw);
      expect(error, what).not.toBeNull();
      // Permanent: a 4xx is tried again by the sending server for days, and the document never shows in the list.
      expect(error!.responseCode, what).toBeGreaterThanOrEqual(500);
      expect(error!.responseCode, what).toBeLessThan(600);
      expect(error!.response, what).toMatch(/U\+0000, a character XML does not allow/);
      const [latest] = (await manager.get(`/api/dealerships/${dealershipId}/intake/documents`)).json<Array<{ channel: string; outcome: string; error: string; credentialName: string }>>();
      expect(latest, what).toMatchObject({ channel: "email", outcome: "rejected", credentialName: "Mailed NULs", error: expect.stringMatching(/U\+0000/) });
    }
    expect(await leadCount()).toBe(before);
  });

  it("takes a good document whose subject and sender decode to a NUL: neither is kept", async () => {
    const { mailAddress } = await newCredential("Odd headers");
    const headers = [
      `From: =?UTF-8?B?${Buffer.from("Pro\u0000vider").toString("base64")}?= <leads@provider.example>`,
      "Subject: =?UTF-8?Q?New=00lead?=",
      "Content-Type: text/plain; charset=utf-8",
    ].join("\r\n");
    const raw = rawMail(mailAddress, headers, ONE("Headed")).replace("From: leads@provider.example\r\n", "");
    expect(await sendRaw(mailAddress, raw)).toBeNull();
    expect(await t.db.select().from(leads).where(eq(leads.firstName, "Headed"))).toHaveLength(1);
  });
});
