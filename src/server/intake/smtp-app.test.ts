import { createConnection, createServer } from "node:net";
import { eq, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealership, makeUser } from "../db/factories";
import { intakeDocuments } from "../db/schema/intake";
import { leads } from "../db/schema/leads";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";

// The e-mail intake as the app itself runs it (issue 14; decision 134): with INTAKE_SMTP_PORT in the config, building
// and readying the app starts the SMTP listener (routes.ts's onReady hook) and app.close() stops it. The listener's
// port cannot be read back from the app, so the test picks a free one first.

const ONE = (name: string) =>
  `<adf><prospect><customer><contact><name part="first">${name}</name><name part="last">Mailed</name><email>${name.toLowerCase()}@example.com</email></contact></customer></prospect></adf>`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether something accepts a TCP connection on the port (the listener, or nothing). */
function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

let t: TestApp | undefined;
let port: number;
let dealershipId: string;
let manager: Agent;

beforeAll(async () => {
  port = await freePort();
  t = await createTestApp({ intake: { smtpPort: port, smtpHost: "127.0.0.1", domain: "intake.test" } });
  dealershipId = (await makeDealership(t.db)).id;
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const transport = () => nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
const counts = async () => {
  const db = t!.db;
  const [l] = await db.select({ n: sql<number>`count(*)::int` }).from(leads).where(eq(leads.dealershipId, dealershipId));
  const [d] = await db.select({ n: sql<number>`count(*)::int` }).from(intakeDocuments).where(eq(intakeDocuments.dealershipId, dealershipId));
  return { leads: l!.n, documents: d!.n };
};

describe("the e-mail intake started by the app", () => {
  it("takes an ADF attachment and an ADF body sent with a real SMTP client to the credential's address", async () => {
    const created = await manager.post(`/api/dealerships/${dealershipId}/intake/credentials`, { name: "Mail provider" });
    expect(created.statusCode, created.body).toBe(201);
    const { mailAddress } = created.json<{ credential: { mailAddress: string } }>().credential;
    expect(mailAddress).toMatch(/^leads\+[a-z0-9]{16}@intake\.test$/);

    const attached = await transport().sendMail({
      from: "leads@provider.example",
      to: mailAddress,
      subject: "New lead",
      text: "The lead is attached.",
      attachments: [{ filename: "lead.xml", content: ONE("Attachie"), contentType: "application/xml" }],
    });
    expect(attached.accepted).toEqual([mailAddress]);
    const bodied = await transport().sendMail({ from: "leads@provider.example", to: mailAddress, subject: "New lead", text: ONE("Bodie") });
    expect(bodied.accepted).toEqual([mailAddress]);

    const rows = await t!.db.select().from(leads).where(eq(leads.dealershipId, dealershipId));
    expect(rows.map((r) => [r.firstName, r.lastName, r.status, r.source, r.sourceProvider]).sort()).toEqual([
      ["Attachie", "Mailed", "new", "adf", "Mail provider"],
      ["Bodie", "Mailed", "new", "adf", "Mail provider"],
    ]);
    const docs = (await manager.get(`/api/dealerships/${dealershipId}/intake/documents`)).json<Array<{ channel: string; outcome: string; leadsCreated: number }>>();
    expect(docs).toEqual([
      expect.objectContaining({ channel: "email", outcome: "accepted", leadsCreated: 1 }),
      expect.objectContaining({ channel: "email", outcome: "accepted", leadsCreated: 1 }),
    ]);
  });

  it("refuses mail to an unknown intake address at RCPT with a 5xx, creating nothing", async () => {
    const before = await counts();
    for (const to of ["leads+nosuchmailbox0@intake.test", "someone@intake.test", "leads+abc@elsewhere.example"]) {
      const error = await transport()
        .sendMail({ from: "x@provider.example", to, subject: "Lead", text: ONE("Nobody") })
        .then(() => null, (e: { command?: string; responseCode?: number }) => e);
      expect(error, to).not.toBeNull();
      expect(error!.command, to).toBe("RCPT TO");
      expect(error!.responseCode, to).toBeGreaterThanOrEqual(500);
      expect(error!.responseCode, to).toBeLessThan(600);
    }
    expect(await counts()).toEqual(before);
  });

  it("stops listening when the app closes", async () => {
    expect(await connects(port)).toBe(true);
    const app = t!;
    t = undefined;
    await app.close();
    expect(await connects(port)).toBe(false);
    await expect(transport().sendMail({ from: "x@provider.example", to: "leads+x@intake.test", text: ONE("Late") })).rejects.toThrow(/ECONNREFUSED/);
  });
});
