import type { JobWithMetadata, SendOptions } from "pg-boss";
import type { Logger } from "pino";
import type { Database, Db, Tx } from "../db/client";
import { createJobQueue, type JobQueue } from "../jobs/job-queue";
import type { Delivery } from "./delivery";
import type { OutgoingMail } from "./mailer";

// Mail as pg-boss jobs (decision 045): committed with the change that caused it, delivered by whichever app process
// polls first, retried with growing waits, and recorded in emails_log once, with its final outcome.

export const MAIL_QUEUE = "mail";

export interface MailRetry {
  /** Delivery attempts in all, the first included. */
  tries: number;
  /** Wait before the second try; with `backoff` each later wait doubles (pg-boss adds up to as much again as jitter). */
  delaySeconds: number;
  backoff: boolean;
}

/** Five tries over roughly 8 to 15 minutes: waits of 30-60 s, 1-2, 2-4 and 4-8 minutes. */
export const MAIL_RETRY: MailRetry = { tries: 5, delaySeconds: 30, backoff: true };

/** No wait between tries grows past 10 minutes. */
const MAX_WAIT_SECONDS = 600;
/** SMTP's own timeouts add up to 40 s; a try still running after this counts as failed and is retried. */
const TRY_LIMIT_SECONDS = 60;
/**
 * A mail's job is deleted when its outcome is recorded. This only bounds what pg-boss settles itself (a try that
 * outran its limit on the last attempt): its payload, which may hold a code or a link, goes within minutes.
 */
const KEEP_SETTLED_SECONDS = 300;

export interface MailQueueOptions {
  database: Database;
  logger: Logger;
  delivery: Delivery;
  retry: MailRetry;
  /** Whether this process polls the queue and delivers on its own (tests that simulate a crash turn it off). */
  worker: boolean;
  pollingIntervalSeconds: number;
}

export interface MailQueue {
  start(): Promise<void>;
  add(mail: OutgoingMail, executor?: Db | Tx): Promise<void>;
  /** Delivers every mail due now, one try each (more when a retry is due at once), and waits for tries in flight. */
  drain(): Promise<void>;
  /** Stops polling; a try in flight gets `graceMs` to finish. Mail still queued stays in the database. */
  stop(graceMs: number): Promise<void>;
}

export function createMailQueue(options: MailQueueOptions): MailQueue {
  const { database, logger, delivery, retry } = options;
  const jobs: JobQueue = createJobQueue(database, logger);
  const { boss } = jobs;
  const jobOptions: SendOptions = {
    retryLimit: Math.max(0, retry.tries - 1),
    retryDelay: retry.delaySeconds,
    retryBackoff: retry.backoff,
    ...(retry.backoff ? { retryDelayMax: MAX_WAIT_SECONDS } : {}),
    expireInSeconds: TRY_LIMIT_SECONDS,
    deleteAfterSeconds: KEEP_SETTLED_SECONDS,
  };
  const inFlight = new Set<Promise<unknown>>();
  let started = false;
  let stopped = false;

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  /** One try. Throws to have pg-boss schedule the next one; records and deletes the job on the final outcome. */
  async function tryToDeliver(job: JobWithMetadata<OutgoingMail>): Promise<void> {
    const mail = job.data;
    const result = await delivery.attempt(mail);
    const lastTry = job.retryCount >= job.retryLimit;
    if (result.status === "failed") {
      const attempt = { to: mail.to, emailType: mail.emailType, try: job.retryCount + 1, of: job.retryLimit + 1, err: result.errorMessage };
      logger.warn(attempt, lastTry ? "mail delivery failed; giving up" : "mail delivery failed; will retry");
      if (!lastTry) throw new Error(result.errorMessage ?? "delivery failed");
    }
    // The record and the job's removal commit together: a mail is either still queued or recorded, never both.
    await database.db.transaction(async (tx) => {
      await delivery.record(tx, mail, result);
      await boss.deleteJob(MAIL_QUEUE, job, { db: jobs.within(tx) });
    });
  }

  /** Whether a mail job is being tried now: taken by a worker within the try limit (older ones died with a process). */
  async function tryUnderWay(): Promise<boolean> {
    const { rows } = await boss
      .getDb()
      .executeSql(
        "select 1 from pgboss.job where name = $1 and state = 'active' and started_on > now() - make_interval(secs => $2) limit 1",
        [MAIL_QUEUE, TRY_LIMIT_SECONDS],
      );
    return rows.length > 0;
  }

  async function tryFetched(job: JobWithMetadata<OutgoingMail>): Promise<void> {
    try {
      await tryToDeliver(job);
    } catch (error) {
      await boss.fail(MAIL_QUEUE, job, { message: error instanceof Error ? error.message : String(error) });
    }
  }

  return {
    async start() {
      if (started) return;
      await jobs.start();
      await boss.createQueue(MAIL_QUEUE);
      if (options.worker) {
        await boss.work(
          MAIL_QUEUE,
          { pollingIntervalSeconds: options.pollingIntervalSeconds, includeMetadata: true, batchSize: 1 },
          async ([job]: JobWithMetadata<OutgoingMail>[]) => {
            if (job) await track(tryToDeliver(job));
          },
        );
      }
      started = true;
    },
    async add(mail, executor) {
      if (!started || stopped) throw new Error("The mail queue is not running: start the mailer first");
      await boss.send(MAIL_QUEUE, mail, { ...jobOptions, ...(executor ? { db: jobs.within(executor) } : {}) });
    },
    async drain() {
      while (started && !stopped) {
        const due = await boss.fetch<OutgoingMail>(MAIL_QUEUE, { batchSize: 10, includeMetadata: true });
        if (due.length > 0) {
          for (const job of due) await track(tryFetched(job));
        } else if (inFlight.size > 0) {
          // A try in flight may fail into a retry that is due at once.
          await Promise.allSettled([...inFlight]);
        } else if (await tryUnderWay()) {
          // A worker has taken a job and not yet started its try (or another process is trying one).
          await new Promise((resolve) => setTimeout(resolve, 50));
        } else {
          return;
        }
      }
    },
    async stop(graceMs) {
      if (!started || stopped) return;
      stopped = true;
      await jobs.stop(graceMs);
      await settledWithin([...inFlight], graceMs);
    },
  };
}

/** Waits for the promises, but no longer than `ms`. */
async function settledWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.allSettled(promises), deadline]);
  clearTimeout(timer);
}
