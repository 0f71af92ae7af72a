import type { AddressInfo } from "node:net";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { createMailer } from "./mailer";

// Closing the mailer (SIGTERM, decision 173): once close() resolves the mailer no longer uses the database, which the
// process closes next. A try still waiting for SMTP then writes nothing; its mail stays queued for the next start.

/** An SMTP server that holds every message's reply until `open()`. */
async function startGatedSmtp() {
  let held = 0;
  let opened = false;
  const waiting: Array<() => void> = [];
  const heldWaiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => {
        held += 1;
        heldWaiters.splice(0).forEach((wake) => wake());
        if (opened) callback();
        else waiting.push(() => callback());
      });
    },
  });
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    /** Resolves once a message is being held. */
    async holding(): Promise<void> {
      while (held === 0) await new Promise<void>((resolve) => heldWaiters.push(resolve));
    },
    open() {
      opened = true;
      waiting.splice(0).forEach((reply) => reply());
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("closing the mailer while a try waits for SMTP", () => {
  it("leaves nothing running that uses the database after close() resolves", async () => {
    const database = await createTestDatabase();
    const smtp = await startGatedSmtp();
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const mailer = createMailer({ database, logger, smtpUrl: smtp.url, from: "Showroom <no-reply@showroom.test>", worker: false, closeDrainMs: 0 });
    let dropped = false;
    try {
      await mailer.start();
      for (let i = 0; i < 5; i++) await mailer.queue({ to: `late${i}@close.example`, subject: "New Lead", text: "A lead", emailType: "lead_created", notification: true });
      const draining = mailer.drain();
      await smtp.holding();

      // As main.ts does at SIGTERM: close the mailer, then the database; SMTP answers only after both.
      await mailer.close();
      await database.drop();
      dropped = true;
      smtp.open();

      // The drain comes back from SMTP to a closed database: it must end without touching it.
      expect(await draining.then(() => "ended", (error: Error) => `failed: ${error.message}`)).toBe("ended");
      expect(lines.filter((line) => line.includes('"level":50'))).toEqual([]);
    } finally {
      smtp.open();
      await smtp.close();
      if (!dropped) await database.drop();
    }
  }, 30_000);
});
