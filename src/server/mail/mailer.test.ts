import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import type { Database } from "../db/client";
import { emailsLog } from "../db/schema/notifications";
import { createMailer } from "./mailer";

// The one mail module (decision 006): SMTP when configured, otherwise the recorded outbox.

let database: Database & { drop(): Promise<void> };
let smtp: SmtpReceiver;
const logger = pino({ level: "silent" });
const mail = (to: string) => ({ to, subject: "Your code", text: "Your code is 123456", emailType: "verification" });

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await smtp.close();
  await database.drop();
});

const logged = (to: string) => database.db.select().from(emailsLog).where(eq(emailsLog.to, to));

describe("the mailer", () => {
  it("delivers through SMTP and records the send without keeping a readable copy of the body", async () => {
    const mailer = createMailer({ db: database.db, logger, smtpUrl: smtp.url, from: "Showroom <no-reply@showroom.test>" });
    const result = await mailer.send(mail("ana@example.com"));
    mailer.close();
    expect(result).toEqual({ status: "sent" });
    expect((await smtp.waitFor("ana@example.com")).text).toContain("123456");
    const [row] = await logged("ana@example.com");
    expect(row).toMatchObject({ status: "sent", subject: "Your code", emailType: "verification", body: null, errorMessage: null });
  });

  it("without SMTP keeps the body in emails_log, so a local user can read it", async () => {
    const mailer = createMailer({ db: database.db, logger, from: "Showroom <no-reply@showroom.test>" });
    expect(await mailer.send(mail("ben@example.com"))).toEqual({ status: "sent" });
    const [row] = await logged("ben@example.com");
    expect(row?.body).toBe("Your code is 123456");
  });

  it("records a failed delivery with its error instead of throwing", async () => {
    const mailer = createMailer({ db: database.db, logger, smtpUrl: "smtp://127.0.0.1:1", from: "Showroom <no-reply@showroom.test>" });
    const result = await mailer.send(mail("cy@example.com"));
    mailer.close();
    expect(result.status).toBe("failed");
    const [row] = await logged("cy@example.com");
    expect(row?.status).toBe("failed");
    expect(row?.errorMessage).toBeTruthy();
  });
});
