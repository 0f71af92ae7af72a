import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { createTestDatabase, signIn } from "../../../tests/helpers/test-app";
import { buildApp } from "../app";
import { testConfig } from "../config";
import { rowsOf } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { createMailer } from "./mailer";

// Mail survives the process (decision 045): a request's mail is committed before the request answers, so a process
// that stops right after (killed, or shut down before its worker got to it) leaves it for the next one.

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(() => smtp.close());

describe("mail queued by a process that stopped before sending it", () => {
  it("is delivered by the next process on the same database", async () => {
    const database = await createTestDatabase();
    const config = testConfig({ smtpUrl: smtp.url });
    try {
      // The first process never delivers: no worker, as if it were killed right after answering.
      const mailer = createMailer({ database, logger: pino({ level: "silent" }), smtpUrl: config.smtpUrl, from: config.mailFrom, worker: false });
      const first = await buildApp({ config, database, mailer });
      await first.mailer.start();
      await first.ready();
      const dealershipId = (await makeDealership(database.db, { name: "Restart Motors" })).id;
      const manager = await makeUser(database.db, { memberships: [{ dealershipId, role: "management" }] });
      const invited = await (await signIn(first, manager)).post(`/api/dealerships/${dealershipId}/invites`, {
        email: "late@restart.example",
        firstName: "Lee",
        lastName: "Late",
        role: "sales",
      });
      expect(invited.statusCode).toBe(201);
      await first.close();

      // The request answered with its mail committed and waiting.
      expect(smtp.mailsTo("late@restart.example")).toEqual([]);
      const waiting = rowsOf(await database.db.execute(sql`select state from pgboss.job where data->>'to' = 'late@restart.example'`));
      expect(waiting).toEqual([{ state: "created" }]);

      // The next process's worker finds it on its own.
      const second = await buildApp({ config, database });
      await second.mailer.start();
      await second.ready();
      try {
        const mail = await smtp.waitFor("late@restart.example", { subject: /invited to join Restart Motors/ });
        expect(mail.text).toContain("Restart Motors");
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
