import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { rowsOf, type Database } from "../db/client";
import { emailsLog } from "../db/schema/notifications";
import { createMailer, type MailerOptions } from "./mailer";

// The one mail module (decisions 006 and 045): mail is queued in the database, delivered by SMTP when configured,
// otherwise printed to the log and kept in emails_log.

let database: Database & { drop(): Promise<void> };
let smtp: SmtpReceiver;
const logger = pino({ level: "silent" });
const FROM = "Showroom <no-reply@showroom.test>";
const mail = (to: string) => ({ to, subject: "Your code", text: "Your code is 123456", emailType: "verification" });

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await smtp.close();
  await database.drop();
});

/** A started mailer whose worker stays off, so only drain() delivers: what a test sees does not depend on timing. */
async function startedMailer(options: Partial<MailerOptions> = {}) {
  const mailer = createMailer({ database, logger, smtpUrl: smtp.url, from: FROM, worker: false, ...options });
  await mailer.start();
  return mailer;
}

const logged = (to: string) => database.db.select().from(emailsLog).where(eq(emailsLog.to, to));

async function jobsFor(to: string): Promise<Array<{ state: string }>> {
  return rowsOf(await database.db.execute(sql`select state from pgboss.job where name = 'mail' and data->>'to' = ${to}`));
}

describe("a queued mail", () => {
  it("is delivered through SMTP and recorded as sent, with no readable copy left in the database", async () => {
    const mailer = await startedMailer();
    await mailer.queue(mail("ana@example.com"));
    await mailer.drain();
    await mailer.close();

    expect(smtp.mailsTo("ana@example.com").map((m) => m.text.trim())).toEqual(["Your code is 123456"]);
    const rows = await logged("ana@example.com");
    expect(rows).toEqual([expect.objectContaining({ status: "sent", subject: "Your code", emailType: "verification", body: null, errorMessage: null })]);
    // The job (and with it the code) is gone once the outcome is recorded.
    expect(await jobsFor("ana@example.com")).toEqual([]);
  });

  it("without SMTP is printed to the log and kept in emails_log with its body, so a local user can read it", async () => {
    const lines: string[] = [];
    const mailer = await startedMailer({ smtpUrl: undefined, logger: pino({ level: "info" }, { write: (line: string) => lines.push(line) }) });
    await mailer.queue(mail("ben@example.com"));
    await mailer.drain();
    await mailer.close();

    const [row] = await logged("ben@example.com");
    expect(row).toMatchObject({ status: "sent", body: "Your code is 123456" });
    const printed = lines.map((line) => JSON.parse(line) as { msg: string; to?: string; body?: string });
    expect(printed).toContainEqual(expect.objectContaining({ msg: "mail recorded (no SMTP_URL)", to: "ben@example.com", body: "Your code is 123456" }));
  });

  it("inside a transaction that rolls back is never sent", async () => {
    const mailer = await startedMailer();
    await expect(
      database.db.transaction(async (tx) => {
        await mailer.queue(mail("cy@example.com"), tx);
        tx.rollback();
      }),
    ).rejects.toThrow();
    await mailer.drain();
    await mailer.close();

    expect(smtp.mailsTo("cy@example.com")).toEqual([]);
    expect(await logged("cy@example.com")).toEqual([]);
    expect(await jobsFor("cy@example.com")).toEqual([]);
  });

  it("inside a transaction is sent once that transaction commits", async () => {
    const mailer = await startedMailer();
    await database.db.transaction(async (tx) => {
      await mailer.queue(mail("dee@example.com"), tx);
    });
    await mailer.drain();
    await mailer.close();

    expect(smtp.mailsTo("dee@example.com")).toHaveLength(1);
    expect((await logged("dee@example.com")).map((r) => r.status)).toEqual(["sent"]);
  });

  it("is delivered by the worker without anyone draining", async () => {
    const mailer = await startedMailer({ worker: true, pollingIntervalSeconds: 0.5 });
    try {
      await mailer.queue(mail("eve@example.com"));
      await smtp.waitFor("eve@example.com");
    } finally {
      await mailer.close();
    }
  });

  it("that is due when the mailer closes is delivered before it stops", async () => {
    // The worker looks once at start, then not for an hour: after that first look, only close() can deliver it.
    const mailer = await startedMailer({ worker: true, pollingIntervalSeconds: 3600 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await mailer.queue(mail("fay@example.com"));
    await mailer.close();

    expect((await logged("fay@example.com")).map((r) => r.status)).toEqual(["sent"]);
  });

  it("is refused once the mailer is closed, instead of being silently dropped", async () => {
    const mailer = await startedMailer();
    await mailer.close();
    await expect(mailer.queue(mail("gus@example.com"))).rejects.toThrow(/not running/);
  });
});

describe("sending now", () => {
  it("delivers through SMTP and answers sent", async () => {
    const mailer = createMailer({ database, logger, smtpUrl: smtp.url, from: FROM });
    const result = await mailer.send(mail("hal@example.com"));
    await mailer.close();
    expect(result).toEqual({ status: "sent" });
    expect((await smtp.waitFor("hal@example.com")).text).toContain("123456");
    expect(await logged("hal@example.com")).toEqual([expect.objectContaining({ status: "sent", body: null })]);
  });

  it("answers failed and records the error instead of throwing when SMTP is down", async () => {
    const mailer = createMailer({ database, logger, smtpUrl: `smtp://127.0.0.1:${await closedPort()}`, from: FROM });
    const result = await mailer.send(mail("ida@example.com"));
    await mailer.close();
    expect(result.status).toBe("failed");
    const [row] = await logged("ida@example.com");
    expect(row?.status).toBe("failed");
    expect(row?.errorMessage).toBeTruthy();
  });
});
