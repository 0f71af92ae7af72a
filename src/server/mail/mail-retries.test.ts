import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { rowsOf, type Database } from "../db/client";
import { emailsLog } from "../db/schema/notifications";
import { MAIL_RETRY } from "./mail-queue";
import { createMailer, type MailerOptions } from "./mailer";

// A failing SMTP server: mail is tried again with growing waits, and emails_log gets one row, the final outcome
// (decision 045). Retries here wait 0 s, so drain() sees every try; only the last test uses the real schedule.

let database: Database & { drop(): Promise<void> };
const logger = pino({ level: "silent" });
const mail = (to: string) => ({ to, subject: "Invitation", text: "Join us", emailType: "invitation" });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** An SMTP server that refuses the first `refusals` recipients with a temporary error, then accepts. */
async function startBusySmtp(refusals: number) {
  let tries = 0;
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      tries += 1;
      if (tries <= refusals) return callback(Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 }));
      callback();
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => {
        accepted += 1;
        callback();
      });
    },
  });
  // A client hanging up mid-session is an "error" event: unheard, it would end the test worker.
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    tries: () => tries,
    accepted: () => accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function startedMailer(options: Partial<MailerOptions> & { smtpUrl: string }) {
  const mailer = createMailer({ database, logger, from: "Showroom <no-reply@showroom.test>", worker: false, ...options });
  await mailer.start();
  return mailer;
}

const logged = (to: string) => database.db.select().from(emailsLog).where(eq(emailsLog.to, to));

describe("when the SMTP server fails", () => {
  it("tries again and records one sent mail when a later try gets through", async () => {
    const smtp = await startBusySmtp(2);
    const mailer = await startedMailer({ smtpUrl: smtp.url, retry: { tries: 3, delaySeconds: 0, backoff: false } });
    await mailer.queue(mail("ana@example.com"));
    await mailer.drain();
    await mailer.close();
    await smtp.close();

    expect(smtp.tries()).toBe(3);
    expect(smtp.accepted()).toBe(1);
    // Failed tries before the last are not outcomes: emails_log holds the one that counts.
    expect((await logged("ana@example.com")).map((r) => r.status)).toEqual(["sent"]);
  });

  it("gives up after the last try and records failed with the server's error, once", async () => {
    const smtp = await startBusySmtp(Infinity);
    const mailer = await startedMailer({ smtpUrl: smtp.url, retry: { tries: 4, delaySeconds: 0, backoff: false } });
    await mailer.queue(mail("ben@example.com"));
    await mailer.drain();
    await mailer.close();
    await smtp.close();

    expect(smtp.tries()).toBe(4);
    const rows = await logged("ben@example.com");
    expect(rows).toEqual([expect.objectContaining({ status: "failed", body: null })]);
    expect(rows[0]?.errorMessage).toContain("Mailbox busy");
    // Given up is final: the job is gone with its payload.
    const jobs = rowsOf(await database.db.execute(sql`select id from pgboss.job where data->>'to' = 'ben@example.com'`));
    expect(jobs).toEqual([]);
  });

  it("by default waits at least 30 seconds before the second try instead of retrying at once", async () => {
    const smtp = await startBusySmtp(Infinity);
    const mailer = await startedMailer({ smtpUrl: smtp.url });
    await mailer.queue(mail("cy@example.com"));
    await mailer.drain();
    await mailer.close();
    await smtp.close();

    // drain() delivers what is due now: one try, and the next is scheduled, not yet recorded as an outcome.
    expect(smtp.tries()).toBe(1);
    expect(await logged("cy@example.com")).toEqual([]);
    const [job] = rowsOf<{ state: string; retry_limit: number; wait: number }>(
      await database.db.execute(
        sql`select state, retry_limit, extract(epoch from start_after - now())::float as wait from pgboss.job where data->>'to' = 'cy@example.com'`,
      ),
    );
    expect(job).toMatchObject({ state: "retry", retry_limit: MAIL_RETRY.tries - 1 });
    expect(job!.wait).toBeGreaterThan(MAIL_RETRY.delaySeconds - 5);
  });
});
