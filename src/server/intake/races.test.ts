import { request as httpRequest } from "node:http";
import { createConnection, type AddressInfo, type Socket } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealership, makeUser } from "../db/factories";
import { intakeCredentials, intakeDocuments } from "../db/schema/intake";
import { leads } from "../db/schema/leads";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { raceRounds } from "../../../tests/helpers/races";
import { startIntakeSmtp, type IntakeSmtp } from "./smtp";

// Intake credentials changing while documents arrive (issue 14; decision 154). The parallel cases really overlap on
// the PostgreSQL server (TEST_DATABASE_URL; on PGlite requests run one after another); the "in the middle" cases stop
// a document between its credential check and its transaction on purpose, so they show the order on both databases.

const ROUNDS = raceRounds(10);
let t: TestApp;
let dealershipId: string;
let manager: Agent;
let httpPort: number;
let smtp: IntakeSmtp;

beforeAll(async () => {
  t = await createTestApp({ intake: { smtpHost: "127.0.0.1", domain: "intake.test" } });
  dealershipId = (await makeDealership(t.db)).id;
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  httpPort = (t.app.server.address() as AddressInfo).port;
  smtp = await startIntakeSmtp({ db: t.db, logger: pino({ level: "silent" }), port: 0, host: "127.0.0.1", domain: "intake.test" });
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await t.close();
});

const TWO = (tag: string) =>
  `<adf>${["One", "Two"]
    .map((n) => `<prospect><customer><contact><name part="first">${n}</name><name part="last">${tag}</name></contact></customer></prospect>`)
    .join("")}</adf>`;

type Credential = { id: string; secret: string; mailAddress: string };

async function newCredential(name: string): Promise<Credential> {
  const response = await manager.post(`/api/dealerships/${dealershipId}/intake/credentials`, { name });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json<{ credential: { id: string; mailAddress: string }; secret: string }>();
  return { id: body.credential.id, secret: body.secret, mailAddress: body.credential.mailAddress };
}

const rotate = (id: string) => manager.post(`/api/dealerships/${dealershipId}/intake/credentials/${id}/rotate`);
const revoke = (id: string) => manager.delete(`/api/dealerships/${dealershipId}/intake/credentials/${id}`);
const postAdf = (xml: string, secret: string) =>
  anonymous(t.app).request({ method: "POST", url: "/api/intake/adf", headers: { "content-type": "application/xml", authorization: `Bearer ${secret}` }, payload: xml });
const leadsNamed = (lastName: string) => t.db.select().from(leads).where(and(eq(leads.dealershipId, dealershipId), eq(leads.lastName, lastName)));

/**
 * POSTs a document over a real socket in two halves: the headers and the first half go (the credential is checked
 * in onRequest, before the body is read), then `between` runs, then the rest is sent.
 */
function postInTwoHalves(xml: string, secret: string, between: () => Promise<void>): Promise<{ status: number; body: string }> {
  const body = Buffer.from(xml, "utf8");
  const half = Math.floor(body.length / 2);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: httpPort,
        method: "POST",
        path: "/api/intake/adf",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/xml", "content-length": body.length },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.write(body.subarray(0, half));
    setTimeout(() => {
      between().then(() => req.end(body.subarray(half)), reject);
    }, 400);
  });
}

/** A bare SMTP conversation: each command answers the server's (last) reply line. */
async function smtpConversation(port: number) {
  const socket: Socket = createConnection({ host: "127.0.0.1", port });
  socket.setEncoding("utf8");
  let buffer = "";
  let waiting: ((line: string) => void) | null = null;
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split("\r\n");
    buffer = lines.pop()!;
    for (const line of lines) if (/^\d{3} /.test(line) && waiting) {
      const w = waiting;
      waiting = null;
      w(line);
    }
  });
  const reply = () => new Promise<string>((resolve) => (waiting = resolve));
  const greeting = await reply();
  expect(greeting).toMatch(/^220 /);
  return {
    async send(text: string): Promise<string> {
      const answer = reply();
      socket.write(`${text}\r\n`);
      return answer;
    },
    close: () => socket.destroy(),
  };
}

describe("rotating one credential twice at once", () => {
  it("leaves exactly one working secret, the one whose answer carries the address in effect; the old one refused", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const credential = await newCredential(`Rotated twice ${round}`);
      const [a, b] = await Promise.all([rotate(credential.id), rotate(credential.id)]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      const answers = [a, b].map((r) => r.json<{ secret: string; credential: { mailAddress: string } }>());
      expect(answers[0]!.secret).not.toBe(answers[1]!.secret);
      expect((await postAdf(TWO(`OldSecret${round}`), credential.secret)).statusCode).toBe(401);
      const outcomes = await Promise.all(answers.map(async (answer, i) => (await postAdf(TWO(`Rotated${round}x${i}`), answer.secret)).statusCode));
      expect(outcomes.filter((s) => s === 201), `round ${round}: ${outcomes.join(",")}`).toHaveLength(1);
      expect(outcomes.filter((s) => s === 401)).toHaveLength(1);
      // One row, live, showing the winner's address (its secret and mailbox were written by one statement).
      const winner = answers[outcomes.indexOf(201)]!;
      const listed = (await manager.get(`/api/dealerships/${dealershipId}/intake/credentials`)).json<Array<{ id: string; name: string; mailAddress: string | null; revokedAt: string | null }>>();
      expect(listed.filter((c) => c.name === `Rotated twice ${round}`)).toEqual([
        expect.objectContaining({ id: credential.id, mailAddress: winner.credential.mailAddress, revokedAt: null }),
      ]);
    }
  });
});

describe("a revoke racing an ADF post", () => {
  it("either accepts the whole document (before the revoke) or refuses it with 401 and saves nothing", async () => {
    const seen = new Set<number>();
    for (let round = 0; round < ROUNDS; round++) {
      const credential = await newCredential(`Revoked racing ${round}`);
      const tag = `RevokeRace${round}`;
      const [posted, revoked] = await Promise.all([postAdf(TWO(tag), credential.secret), revoke(credential.id)]);
      expect(revoked.statusCode).toBe(200);
      seen.add(posted.statusCode);
      const made = await leadsNamed(tag);
      const docs = await t.db.select().from(intakeDocuments).where(eq(intakeDocuments.credentialId, credential.id));
      if (posted.statusCode === 201) {
        expect(made.map((l) => l.firstName).sort()).toEqual(["One", "Two"]);
        expect(docs).toEqual([expect.objectContaining({ outcome: "accepted", leadsCreated: 2 })]);
      } else {
        expect(posted.statusCode, posted.body).toBe(401);
        expect(made).toEqual([]);
        expect(docs.filter((d) => d.outcome === "accepted")).toEqual([]);
      }
      expect((await postAdf(TWO(`${tag}After`), credential.secret)).statusCode).toBe(401);
    }
    expect([...seen].every((s) => s === 201 || s === 401)).toBe(true);
  });

  it("lets several documents of one credential in at once (their share locks never wait on each other) and marks it used", async () => {
    const credential = await newCredential("Busy sender");
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => postAdf(TWO(`Busy${i}`), credential.secret)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
    const [row] = await t.db.select().from(intakeCredentials).where(eq(intakeCredentials.id, credential.id));
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it("refuses with 401 a document whose credential is revoked between its check and its save, creating nothing", async () => {
    const credential = await newCredential("Revoked mid-upload");
    const posted = await postInTwoHalves(TWO("MidRevoke"), credential.secret, async () => {
      expect((await revoke(credential.id)).statusCode).toBe(200);
    });
    expect(posted.status, posted.body).toBe(401);
    expect(await leadsNamed("MidRevoke")).toEqual([]);
  });

  it("refuses with 401 a document sent with the secret a rotate replaced mid-upload; the new secret works", async () => {
    const credential = await newCredential("Rotated mid-upload");
    let fresh = "";
    const posted = await postInTwoHalves(TWO("MidRotate"), credential.secret, async () => {
      fresh = (await rotate(credential.id)).json<{ secret: string }>().secret;
    });
    expect(posted.status, posted.body).toBe(401);
    expect(await leadsNamed("MidRotate")).toEqual([]);
    expect((await postAdf(TWO("AfterRotate"), fresh)).statusCode).toBe(201);
  });

  it("refuses at the end of DATA a mail whose address was revoked after RCPT, creating nothing", async () => {
    const credential = await newCredential("Mail revoked mid-session");
    const session = await smtpConversation(smtp.port);
    try {
      expect(await session.send("EHLO provider.example")).toMatch(/^250 /);
      expect(await session.send("MAIL FROM:<leads@provider.example>")).toMatch(/^250 /);
      expect(await session.send(`RCPT TO:<${credential.mailAddress}>`)).toMatch(/^250 /);
      expect((await revoke(credential.id)).statusCode).toBe(200);
      expect(await session.send("DATA")).toMatch(/^354 /);
      const message = ["From: leads@provider.example", `To: ${credential.mailAddress}`, "Subject: Lead", "", TWO("MidMail"), "."].join("\r\n");
      expect(await session.send(message)).toMatch(/^5\d\d /);
    } finally {
      session.close();
    }
    expect(await leadsNamed("MidMail")).toEqual([]);
    const [row] = await t.db.select().from(intakeCredentials).where(eq(intakeCredentials.id, credential.id));
    expect(row!.revokedAt).not.toBeNull();
    expect(await t.db.select({ n: sql<number>`count(*)::int` }).from(intakeDocuments).where(and(eq(intakeDocuments.credentialId, credential.id), eq(intakeDocuments.outcome, "accepted")))).toEqual([{ n: 0 }]);
  });
});
