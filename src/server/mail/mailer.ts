import type { Logger } from "pino";
import type { Database, Db, Tx } from "../db/client";
import { createDelivery } from "./delivery";
import { createMailQueue, MAIL_RETRY, type MailRetry } from "./mail-queue";

// The one way any area sends mail (decisions 006 and 045). Mail is queued in the database and delivered by a
// worker, retried while SMTP fails, and its final outcome recorded in emails_log. Only the verification code is
// sent while the person waits, because its screen says "sent" only when it was.

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What kind of mail this is (invitation, verification, lead_reminder, ...), kept in emails_log. */
  emailType: string;
  dealershipId?: string | null;
}

export interface MailResult {
  status: "sent" | "failed";
  errorMessage?: string;
}

export interface Mailer {
  /**
   * Queues durably. With `executor` (a drizzle transaction), the job is inserted inside that transaction, so it
   * commits or rolls back with the caller's change. Resolves once the job is written (committed, without executor).
   * Inside a transaction, always pass it: on the embedded database a statement outside it waits for it to end.
   */
  queue(mail: OutgoingMail, executor?: Db | Tx): Promise<void>;
  /** Delivers now and records the outcome; never throws for a delivery failure (the result says failed). */
  send(mail: OutgoingMail): Promise<MailResult>;
  /** Delivers every queued mail that is due now and resolves when none is left (tests read mail after it). */
  drain(): Promise<void>;
  /** Connects the queue and, unless turned off, starts this process's worker. */
  start(): Promise<void>;
  /** Delivers what is due for a moment (`closeDrainMs`), then stops; mail still queued waits in the database. */
  close(): Promise<void>;
}

export interface MailerOptions {
  database: Database;
  logger: Logger;
  smtpUrl?: string;
  from: string;
  retry?: MailRetry;
  /** Whether this process delivers queued mail on its own, polling and at close (default true). */
  worker?: boolean;
  /** How often the worker looks for due mail (default 2 s: one cheap query, even on the embedded database). */
  pollingIntervalSeconds?: number;
  /** How long close() keeps delivering due mail before it stops (default 3 s, within the 10 s shutdown). */
  closeDrainMs?: number;
}

/** How long a try in flight may finish after close() stops taking new ones. */
const CLOSE_GRACE_MS = 3_000;

export function createMailer(options: MailerOptions): Mailer {
  const { database, logger } = options;
  const worker = options.worker ?? true;
  const closeDrainMs = options.closeDrainMs ?? 3_000;
  const delivery = createDelivery({ logger, smtpUrl: options.smtpUrl, from: options.from });
  const mailQueue = createMailQueue({
    database,
    logger,
    delivery,
    retry: options.retry ?? MAIL_RETRY,
    worker,
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
  });
  let closed = false;
  const drain = () => mailQueue.drain();

  return {
    queue: (mail, executor) => mailQueue.add(mail, executor),
    async send(mail) {
      const result = await delivery.attempt(mail);
      if (result.status === "failed") logger.warn({ to: mail.to, emailType: mail.emailType, err: result.errorMessage }, "mail delivery failed");
      await delivery.record(database.db, mail, result);
      return result;
    },
    drain,
    start: () => mailQueue.start(),
    async close() {
      if (closed) return;
      closed = true;
      if (worker && closeDrainMs > 0) await within(drain(), closeDrainMs, logger);
      await mailQueue.stop(CLOSE_GRACE_MS);
      delivery.close();
    },
  };
}

/** Waits for `work`, but no longer than `ms`; a failure is logged, not thrown (closing goes on). */
async function within(work: Promise<void>, ms: number, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([work.catch((error: unknown) => logger.error({ err: error }, "mail delivery at close failed")), deadline]);
  clearTimeout(timer);
}
