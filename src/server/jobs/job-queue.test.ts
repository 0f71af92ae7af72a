import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/helpers/test-app";
import { emailsLog } from "../db/schema/notifications";
import { startUnattendedLeadsJob } from "../leads/unattended-leads";
import { startTaskRemindersJob } from "../tasks/reminders";
import { createJobQueue, jobQueueInstancesMade } from "./job-queue";

// One pg-boss instance per process and database (decision 187): the mail queue, web push and the scheduled checks
// each take a handle on it; stopping one handle stops only its own workers.

let t: TestApp;
let madeBefore: number;

beforeAll(async () => {
  madeBefore = jobQueueInstancesMade();
  t = await createTestApp();
});
afterAll(() => t.close());

describe("the job queue", () => {
  it("the mail queue, push and both scheduled checks run on one instance, and one stopping leaves the others working", async () => {
    const logger = pino({ level: "silent" });
    const unattended = await startUnattendedLeadsJob(t.database, logger);
    const reminders = await startTaskRemindersJob(t.database, logger);
    try {
      expect(jobQueueInstancesMade() - madeBefore).toBe(1);
      expect((await unattended.schedules()).map((s) => s.cron)).toEqual(["* * * * *"]);
      expect((await reminders.schedules()).map((s) => s.cron)).toEqual(["* * * * *"]);
    } finally {
      await unattended.stop(0);
    }
    // The reminders' worker and the mail queue still run on the instance the stopped job shared.
    await reminders.checkNow();
    await t.app.mailer.queue({ to: "still.working@example.com", subject: "Still working", text: "Mail after a job stopped", emailType: "test" });
    await t.app.mailer.drain();
    const sent = await t.db.select().from(emailsLog).where(eq(emailsLog.to, "still.working@example.com"));
    expect(sent.map((row) => row.status)).toEqual(["sent"]);
    await reminders.stop(0);
  });

  it("a handle started again after every handle stopped starts the one instance again", async () => {
    const logger = pino({ level: "silent" });
    const other = createJobQueue(t.database, logger);
    await other.start();
    await other.stop(0);
    await other.start();
    await other.boss.createQueue("job-queue-test");
    const id = await other.boss.send("job-queue-test", { ok: true });
    expect(id).toBeTruthy();
    await other.stop(0);
    expect(jobQueueInstancesMade() - madeBefore).toBe(1);
  });
});
