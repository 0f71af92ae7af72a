import { and, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealership, makeUser } from "../db/factories";
import { leads } from "../db/schema/leads";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { startIntakeSmtp, type IntakeSmtp } from "./smtp";

// ADF documents in the encodings providers send (issue 29; decision 180), over HTTP, as a mail attachment and as a mail
// body through the real SMTP listener: the stored names are exactly the accented ones, never "J�rgen".

type Person = [first: string, last: string];
const EVERYONE: Person[] = [
  ["Jürgen", "Müller"],
  ["Françoise", "Lefèvre"],
  ["Zoë", "O’Brien"],
];
/** ISO-8859-1 has no ’ (only Windows-1252 puts one at 0x92). */
const LATIN1_PEOPLE: Person[] = [...EVERYONE.slice(0, 2), ["Zoë", "O'Brien"]];

function adf(declared: string | null, people: Person[]): string {
  const prospects = people.map(
    ([first, last]) => `<prospect><customer><contact><name part="first">${first}</name><name part="last">${last}</name></contact></customer></prospect>`,
  );
  return `${declared ? `<?xml version="1.0" encoding="${declared}"?>\n` : ""}<adf>\n${prospects.join("\n")}\n</adf>`;
}

const utf16le = (text: string) => Buffer.from(text, "utf16le");
const withBom = (bom: number[], bytes: Buffer) => Buffer.concat([Buffer.from(bom), bytes]);

interface Encoded {
  name: string;
  /** The XML declaration's encoding, and the charset a transport would name. */
  declared: string;
  charset: string;
  people: Person[];
  encode(text: string): Buffer;
}

const ENCODED: Encoded[] = [
  { name: "UTF-8", declared: "UTF-8", charset: "utf-8", people: EVERYONE, encode: (text) => Buffer.from(text, "utf8") },
  { name: "ISO-8859-1", declared: "ISO-8859-1", charset: "iso-8859-1", people: LATIN1_PEOPLE, encode: (text) => Buffer.from(text, "latin1") },
  { name: "Windows-1252", declared: "windows-1252", charset: "windows-1252", people: EVERYONE, encode: (text) => Buffer.from(text.replaceAll("’", "\x92"), "latin1") },
  { name: "UTF-16LE with a BOM", declared: "UTF-16", charset: "utf-16", people: EVERYONE, encode: (text) => withBom([0xff, 0xfe], utf16le(text)) },
  { name: "UTF-16BE with a BOM", declared: "UTF-16", charset: "utf-16", people: EVERYONE, encode: (text) => withBom([0xfe, 0xff], utf16le(text).swap16()) },
  { name: "UTF-16BE without a BOM", declared: "UTF-16", charset: "utf-16", people: EVERYONE, encode: (text) => utf16le(text).swap16() },
  { name: "UTF-16LE without a BOM", declared: "UTF-16", charset: "utf-16le", people: EVERYONE, encode: utf16le },
];

let t: TestApp;
let smtp: IntakeSmtp;
let dealershipId: string;
let manager: Agent;

beforeAll(async () => {
  t = await createTestApp({ intake: { smtpHost: "127.0.0.1", domain: "intake.test" } });
  smtp = await startIntakeSmtp({ db: t.db, logger: pino({ level: "silent" }), port: 0, host: "127.0.0.1", domain: "intake.test" });
  dealershipId = (await makeDealership(t.db)).id;
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

let credentials = 0;
/** A fresh credential: its name is the leads' source provider, so each case finds its own leads. */
async function newCredential(): Promise<{ name: string; secret: string; mailAddress: string }> {
  const name = `Sender ${++credentials}`;
  const response = await manager.post(`/api/dealerships/${dealershipId}/intake/credentials`, { name });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json<{ credential: { mailAddress: string }; secret: string }>();
  return { name, secret: body.secret, mailAddress: body.credential.mailAddress };
}

async function namesFrom(provider: string): Promise<Person[]> {
  const rows = await t.db.select().from(leads).where(and(eq(leads.dealershipId, dealershipId), eq(leads.sourceProvider, provider)));
  return rows.map((r): Person => [r.firstName, r.lastName]).sort();
}

async function latestDocument(): Promise<{ channel: string; outcome: string; error: string | null; credentialName: string }> {
  const docs = (await manager.get(`/api/dealerships/${dealershipId}/intake/documents`)).json<Array<{ channel: string; outcome: string; error: string | null; credentialName: string }>>();
  return docs[0]!;
}

function postAdf(bytes: Buffer, secret: string, contentType: string) {
  return anonymous(t.app).request({ method: "POST", url: "/api/intake/adf", headers: { "content-type": contentType, authorization: `Bearer ${secret}` }, payload: bytes });
}

const transport = () => nodemailer.createTransport({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true });

/** A single-part text message as it goes over the wire, its body in base64 so its bytes arrive as they are. */
function rawTextMail(to: string, contentType: string, body: Buffer): string {
  const lines = body.toString("base64").match(/.{1,76}/g) ?? [];
  return [
    "From: leads@provider.example",
    `To: ${to}`,
    "Subject: New lead",
    `Message-ID: <${Math.random().toString(36).slice(2)}@provider.example>`,
    "MIME-Version: 1.0",
    `Content-Type: ${contentType}`,
    "Content-Transfer-Encoding: base64",
    "",
    ...lines,
    "",
  ].join("\r\n");
}

const sendRaw = (to: string, raw: string) =>
  transport()
    .sendMail({ envelope: { from: "leads@provider.example", to: [to] }, raw })
    .then(() => null, (error: { responseCode?: number; response?: string }) => error);

describe("ADF in the encodings providers send", () => {
  for (const encoded of ENCODED) {
    const sorted = [...encoded.people].sort();

    it(`${encoded.name} over HTTP: by its XML declaration (no charset), and by the Content-Type charset (no declaration)`, async () => {
      const declared = await newCredential();
      const byDeclaration = await postAdf(encoded.encode(adf(encoded.declared, encoded.people)), declared.secret, "application/xml");
      expect(byDeclaration.statusCode, byDeclaration.body).toBe(201);
      expect(await namesFrom(declared.name)).toEqual(sorted);

      const labelled = await newCredential();
      const byCharset = await postAdf(encoded.encode(adf(null, encoded.people)), labelled.secret, `text/xml; charset=${encoded.charset}`);
      expect(byCharset.statusCode, byCharset.body).toBe(201);
      expect(await namesFrom(labelled.name)).toEqual(sorted);
    });

    it(`${encoded.name} as a mail attachment, by its XML declaration`, async () => {
      const { name, mailAddress } = await newCredential();
      const content = encoded.encode(adf(encoded.declared, encoded.people));
      await transport().sendMail({
        from: "leads@provider.example",
        to: mailAddress,
        subject: "New lead",
        text: "The lead is attached.",
        attachments: [{ filename: "lead.xml", content, contentType: "application/xml" }],
      });
      expect(await namesFrom(name)).toEqual(sorted);
    });

    it(`${encoded.name} as a mail body after a line of text and before a signature, by its declaration and by the MIME charset`, async () => {
      const body = (declared: string | null) => encoded.encode(`Lead from Cars.com:\n${adf(declared, encoded.people)}\n-- \nCars.com Lead Services\n`);
      const declared = await newCredential();
      expect(await sendRaw(declared.mailAddress, rawTextMail(declared.mailAddress, "text/plain", body(encoded.declared)))).toBeNull();
      expect(await namesFrom(declared.name)).toEqual(sorted);

      const labelled = await newCredential();
      expect(await sendRaw(labelled.mailAddress, rawTextMail(labelled.mailAddress, `text/plain; charset=${encoded.charset}`, body(null)))).toBeNull();
      expect(await namesFrom(labelled.name)).toEqual(sorted);
    });
  }

  it("takes the Content-Type charset over the XML declaration, and a BOM over both", async () => {
    const { name, secret } = await newCredential();
    const latin1 = Buffer.from(adf("UTF-8", LATIN1_PEOPLE), "latin1");
    expect((await postAdf(latin1, secret, "application/xml; charset=ISO-8859-1")).statusCode).toBe(201);
    const bom = withBom([0xef, 0xbb, 0xbf], Buffer.from(adf("ISO-8859-1", [["Zoë", "O’Brien"]]), "utf8"));
    expect((await postAdf(bom, secret, "application/xml; charset=windows-1252")).statusCode).toBe(201);
    expect(await namesFrom(name)).toEqual([...LATIN1_PEOPLE, ["Zoë", "O’Brien"]].sort());
  });
});

describe("ADF the intake cannot read", () => {
  it("is refused over HTTP with a 400 naming the encoding or what is wrong, creates nothing and is listed as rejected", async () => {
    const { name, secret } = await newCredential();
    const cases: Array<[string, Buffer, string, string]> = [
      ["an unknown Content-Type charset", Buffer.from(adf(null, EVERYONE)), "application/xml; charset=x-klingon", 'The document\'s encoding "x-klingon" (the Content-Type charset) is not one the intake can read: send UTF-8, ISO-8859-1, Windows-1252 or UTF-16'],
      ["an unknown declared encoding", Buffer.from(adf("EBCDIC-037", EVERYONE)), "application/xml", 'The document\'s encoding "EBCDIC-037" (the XML declaration) is not one the intake can read: send UTF-8, ISO-8859-1, Windows-1252 or UTF-16'],
      ["ISO-8859-1 bytes that say nothing (read as UTF-8)", Buffer.from(adf(null, LATIN1_PEOPLE), "latin1"), "application/xml", "The document is not valid UTF-8 (the encoding from the default)"],
      ["ISO-8859-1 bytes declared UTF-8", Buffer.from(adf("UTF-8", LATIN1_PEOPLE), "latin1"), "application/xml", "The document is not valid UTF-8 (the encoding from the XML declaration)"],
      ["ISO-8859-1 bytes sent as charset=utf-8", Buffer.from(adf(null, LATIN1_PEOPLE), "latin1"), "text/plain; charset=utf-8", "The document is not valid UTF-8 (the encoding from the Content-Type charset)"],
      ["an 8-bit document declared UTF-16", Buffer.from(adf("UTF-16", EVERYONE)), "application/xml", "The XML declaration says UTF-16, but the document is not UTF-16"],
    ];
    for (const [what, bytes, contentType, message] of cases) {
      const response = await postAdf(bytes, secret, contentType);
      expect(response.statusCode, what).toBe(400);
      expect(response.json<{ message: string }>().message, what).toBe(message);
      expect(await latestDocument(), what).toMatchObject({ channel: "http", outcome: "rejected", error: message, credentialName: name });
    }
    expect(await namesFrom(name)).toEqual([]);
  });

  it("is refused by mail with a permanent 550 and its reason, creates nothing and is listed as rejected", async () => {
    const { name, mailAddress } = await newCredential();
    const latin1Body = Buffer.from(`Lead:\n${adf(null, LATIN1_PEOPLE)}`, "latin1");
    const cases: Array<[string, string, RegExp]> = [
      ["an undeclared ISO-8859-1 body", rawTextMail(mailAddress, "text/plain", latin1Body), /not valid UTF-8/],
      ["a body in an unknown charset", rawTextMail(mailAddress, "text/plain; charset=x-klingon", latin1Body), /"x-klingon" \(the Content-Type charset\) is not one the intake can read/],
    ];
    for (const [what, raw, message] of cases) {
      const error = await sendRaw(mailAddress, raw);
      expect(error?.responseCode, what).toBe(550);
      expect(error?.response, what).toMatch(message);
      expect(await latestDocument(), what).toMatchObject({ channel: "email", outcome: "rejected", error: expect.stringMatching(message), credentialName: name });
    }
    const attached = await transport()
      .sendMail({
        from: "leads@provider.example",
        to: mailAddress,
        text: "Attached.",
        attachments: [{ filename: "lead.xml", content: Buffer.from(adf("EBCDIC-037", EVERYONE)), contentType: "application/xml" }],
      })
      .then(() => null, (e: { responseCode?: number; response?: string }) => e);
    expect(attached?.responseCode).toBe(550);
    expect(attached?.response).toMatch(/"EBCDIC-037" \(the XML declaration\)/);
    expect(await namesFrom(name)).toEqual([]);
  });
});
