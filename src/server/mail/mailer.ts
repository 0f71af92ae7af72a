import type { Logger } from "pino";
import type { Database, Db, Tx } from "../db/client";
import { createDelivery } from "./delivery";
import { createMailQueue, MAIL_RETRY, type MailRetry } from "./mail-queue";

// The one way any area sends mail (decisions 006, 045 and 173). Mail is queued in the database and delivered by a
// worker, retried while SMTP fails, and its final outcome recorded in emails_log; mail a person waits for goes ahead
// of notifications. Only the verification code is sent while the person waits, because its screen says "sent" only
// when it was.

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What kind of mail this is (invitation, verification, lead_reminder, ...), kept in emails_log. */
  emailType: string;
  dealershipId?: string | null;
  /**
   * A notification to subscribers or to a team (New Lead, reminders): sent after every mail a person is waiting for.
   * Mail without it (sign-up codes, invitations, password resets) goes first (decision 173).
   */
  notification?: boolean;
  /**
   * A mail to a customer from the dealership (issue 26, decision 228): the sender's display name (MAIL_FROM's address
   * stays), the lead's reply address, this mail's Message-ID and the message it answers.
   */
  fromName?: string;
  replyTo?: string;
  messageId?: string;
  inReplyTo?: string;
  /** The lead_emails row this mail is: its final outcome is handed to the afterDelivery hooks. */
  leadEmailId?: string;
}

/** Runs in the transaction that records mails' final outcomes (sent, or failed on their last try). */
export type DeliveryHook = (tx: Tx, outcomes: Array<{ mail: OutgoingMail; result: MailResult }>) => Promise<void>;

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
  /**
   * Adds work to the transaction that records queued mails' final outcomes (the e-mail conversation's delivery
   * status): it commits with the record, once per mail.
   */
  afterDelivery(hook: DeliveryHook): void;
  /** Connects the queue and, unless turned off, starts this process's workers. */
  start(): Promise<void>;
  /**
   * Delivers what is due for a moment (`closeDrainMs`), then stops and waits for its work in flight (CLOSE_GRACE_MS at
   * most): once this resolves, the mailer no longer uses the database. Mail still queued waits there.
   */
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
  /** How often an idle worker looks for due mail (default 2 s: one cheap query, even on the embedded database). */
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
  const hooks: DeliveryHook[] = [];
  const mailQueue = createMailQueue({
    hooks,
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
      await delivery.record(database.db, [{ mail, result }]);
      return result;
    },
    drain,
    afterDelivery: (hook) => void hooks.push(hook),
    start: () => mailQueue.start(),
    async close() {
      if (closed) return;
      closed = true;
      // The drain goes on past its deadline until stop(), which waits for it: nothing it does outlives the database.
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
