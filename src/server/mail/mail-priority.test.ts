import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { anonymous, createTestApp, createTestDatabase } from "../../../tests/helpers/test-app";
import { rowsOf, type Database } from "../db/client";
import { makeUser } from "../db/factories";
import { NOTIFICATION_POOL, URGENT_POOL } from "./delivery";
import { createMailer, type OutgoingMail } from "./mailer";

// Mail a person waits for goes ahead of notifications, and many mails share a few SMTP connections (decision 173).
// Order and counts only: nothing here depends on how fast this machine is.

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(() => smtp.close());

const notification = (to: string, i: number): OutgoingMail => ({
  to,
  subject: `New Lead: Buyer ${i}`,
  text: `Lead ${i}`,
  emailType: "lead_created",
  notification: true,
});

async function queuedNotifications(database: Database, to: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pgboss.job where name = 'mail' and data->>'to' = ${to}`));
  return row!.n;
}

describe("a password reset queued behind 1,000 notifications", () => {
  it("is delivered by the app's own workers while notifications are still queued, not after the backlog", async () => {
    const t = await createTestApp({ smtpUrl: smtp.url });
    try {
      const backlog = "backlog@priority.example";
      await t.db.transaction(async (tx) => {
        for (let i = 0; i < 1000; i++) await t.app.mailer.queue(notification(backlog, i), tx);
      });
      const user = await makeUser(t.db, { email: "forgot@priority.example" });
      const asked = await anonymous(t.app).post("/api/auth/password-reset/request", { email: user.email });
      expect(asked.statusCode).toBe(200);

      await smtp.waitFor(user.email, { subject: /Reset your Showroom password/, timeoutMs: 30_000 });
      // When the reset arrived, the notification backlog had not drained: it went ahead of it.
      expect(smtp.mailsTo(backlog).length).toBeLessThan(1000);
      expect(await queuedNotifications(t.database, backlog)).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe("draining the queue", () => {
  it("sends urgent mail in the first batch even when 30 notifications were queued before it", async () => {
    const database = await createTestDatabase();
    const mailer = createMailer({ database, logger: pino({ level: "silent" }), smtpUrl: smtp.url, from: "Showroom <no-reply@showroom.test>", worker: false });
    try {
      await mailer.start();
      const to = "order@priority.example";
      for (let i = 0; i < 30; i++) await mailer.queue(notification(to, i));
      await mailer.queue({ to, subject: "Your invitation", text: "Join us", emailType: "invitation" });
      const before = smtp.inbox.length;
      await mailer.drain();

      const arrived = smtp.inbox.slice(before).map((m) => m.subject);
      expect(arrived).toHaveLength(31);
      // A batch is sent at once, so within the first batch the order is SMTP's; the invitation is in it.
      expect(arrived.indexOf("Your invitation")).toBeLessThan(10);
    } finally {
      await mailer.close();
      await database.drop();
    }
  });

  it("delivers 100 notifications and 10 invitations over a few pooled connections, not one connection each", async () => {
    const database = await createTestDatabase();
    const mailer = createMailer({ database, logger: pino({ level: "silent" }), smtpUrl: smtp.url, from: "Showroom <no-reply@showroom.test>", worker: false });
    try {
      await mailer.start();
      const to = "pool@priority.example";
      for (let i = 0; i < 100; i++) await mailer.queue(notification(to, i));
      for (let i = 0; i < 10; i++) await mailer.queue({ to, subject: `Invitation ${i}`, text: "Join us", emailType: "invitation" });
      const connectionsBefore = smtp.connections();
      await mailer.drain();

      expect(smtp.mailsTo(to)).toHaveLength(110);
      const opened = smtp.connections() - connectionsBefore;
      expect(opened).toBeGreaterThan(0);
      expect(opened).toBeLessThanOrEqual(NOTIFICATION_POOL.maxConnections + URGENT_POOL.maxConnections);
    } finally {
      await mailer.close();
      await database.drop();
    }
  });
});
