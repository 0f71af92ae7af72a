import type { JobWithMetadata, SendOptions } from "pg-boss";
import type { Logger } from "pino";
import type { Database, Db, Tx } from "../db/client";
import { createJobQueue, type JobQueue } from "../jobs/job-queue";
import type { Delivery, Outcome } from "./delivery";
import type { DeliveryHook, OutgoingMail } from "./mailer";

// Mail as pg-boss jobs (decision 045): committed with the change that caused it, delivered by whichever app process
// polls first, retried with growing waits, and recorded in emails_log once, with its final outcome.
//
// Throughput and order (decision 173): workers take mail in batches, send a batch at once over pooled SMTP
// connections and record its outcomes in one transaction. Mail a person waits for (codes, invitations, password
// resets) has a higher pg-boss priority than notifications, so every fetch takes it first, and one worker takes only
// that mail: it never waits behind a notification backlog.

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

/** pg-boss fetches the highest priority first (then the oldest). */
export const URGENT_PRIORITY = 10;
const NOTIFICATION_PRIORITY = 0;

/** Mails a worker takes per fetch; while fetches come back full it fetches again at once instead of polling. */
const BATCH = 10;
/** Workers taking any mail, urgent first: two, so one batch is sent while the other's outcomes are recorded. */
const WORKERS = 2;
/** The worker that takes only urgent mail: it has a batch of its own in flight when the others are busy. */
const URGENT_BATCH = 5;

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
  /** Work that commits with the record of final outcomes (Mailer.afterDelivery). */
  hooks?: DeliveryHook[];
  retry: MailRetry;
  /** Whether this process polls the queue and delivers on its own (tests that simulate a crash turn it off). */
  worker: boolean;
  pollingIntervalSeconds: number;
}

export interface MailQueue {
  start(): Promise<void>;
  add(mail: OutgoingMail, executor?: Db | Tx): Promise<void>;
  /** Delivers every mail due now, urgent first, one try each (more when a retry is due at once); waits for tries in flight. */
  drain(): Promise<void>;
  /**
   * Stops polling and draining. Work in flight gets `graceMs` to finish; a try still waiting for SMTP after that
   * records nothing (its job is tried again later), so nothing touches the database once this resolves.
   */
  stop(graceMs: number): Promise<void>;
}

type MailJob = JobWithMetadata<OutgoingMail>;

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
  /** Batches being tried (by a worker or by drain). */
  const batches = new Set<Promise<unknown>>();
  /** drain() loops under way. */
  const drains = new Set<Promise<unknown>>();
  /** Outcomes being written: stop() always waits for these, so no write outlives the database. */
  const writes = new Set<Promise<unknown>>();
  let started = false;
  let stopped = false;
  /** Set by stop() once its grace is over: a try that comes back from SMTP after this writes nothing. */
  let abandoned = false;

  function track<T>(set: Set<Promise<unknown>>, promise: Promise<T>): Promise<T> {
    set.add(promise);
    void promise.finally(() => set.delete(promise)).catch(() => undefined);
    return promise;
  }

  /**
   * One try of each mail of a batch, at once. Final outcomes (sent, or failed on the last try) are recorded and their
   * jobs deleted in one transaction, so a mail is either still queued or recorded, never both; a failed try before
   * the last goes back to pg-boss, which schedules the next one.
   */
  async function deliverBatch(batch: MailJob[]): Promise<void> {
    const results = await Promise.all(batch.map((job) => delivery.attempt(job.data)));
    if (abandoned) return;
    const final: Array<Outcome & { job: MailJob }> = [];
    const retries: Array<{ job: MailJob; error: string }> = [];
    batch.forEach((job, i) => {
      const mail = job.data;
      const result = results[i]!;
      const lastTry = job.retryCount >= job.retryLimit;
      if (result.status === "failed") {
        const attempt = { to: mail.to, emailType: mail.emailType, try: job.retryCount + 1, of: job.retryLimit + 1, err: result.errorMessage };
        logger.warn(attempt, lastTry ? "mail delivery failed; giving up" : "mail delivery failed; will retry");
        if (!lastTry) return void retries.push({ job, error: result.errorMessage ?? "delivery failed" });
      }
      final.push({ job, mail, result });
    });
    await track(writes, settle(final, retries));
  }

  async function settle(final: Array<Outcome & { job: MailJob }>, retries: Array<{ job: MailJob; error: string }>): Promise<void> {
    if (final.length > 0) {
      await database.db.transaction(async (tx) => {
        await delivery.record(tx, final);
        for (const hook of options.hooks ?? []) await hook(tx, final);
        await boss.deleteJob(
          MAIL_QUEUE,
          final.map(({ job }) => job),
          { db: jobs.within(tx) },
        );
      });
    }
    for (const { job, error } of retries) await boss.fail(MAIL_QUEUE, job, { message: error });
  }

  /** A batch drain() fetched: if trying it fails as a whole (the database), its jobs go back to pg-boss as failed tries. */
  async function deliverFetched(batch: MailJob[]): Promise<void> {
    try {
      await deliverBatch(batch);
    } catch (error) {
      if (abandoned) return;
      await track(writes, boss.fail(MAIL_QUEUE, batch, { message: error instanceof Error ? error.message : String(error) }));
    }
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

  async function drainLoop(): Promise<void> {
    while (started && !stopped) {
      const due = await boss.fetch<OutgoingMail>(MAIL_QUEUE, { batchSize: BATCH, includeMetadata: true });
      if (due.length > 0) {
        await track(batches, deliverFetched(due));
      } else if (batches.size > 0) {
        // A try in flight may fail into a retry that is due at once.
        await Promise.allSettled([...batches]);
      } else if (await tryUnderWay()) {
        // A worker has taken a job and not yet started its try (or another process is trying one).
        await new Promise((resolve) => setTimeout(resolve, 50));
      } else {
        return;
      }
    }
  }

  /** A worker's batch; pg-boss fails the batch's jobs (each a try) when this throws. */
  const work = (batch: MailJob[]) => track(batches, deliverBatch(batch));

  return {
    async start() {
      if (started) return;
      await jobs.start();
      await boss.createQueue(MAIL_QUEUE);
      if (options.worker) {
        const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds, includeMetadata: true as const, burstWhenBatchFull: true };
        await boss.work(MAIL_QUEUE, { ...polling, batchSize: BATCH, localConcurrency: WORKERS }, work);
        await boss.work(MAIL_QUEUE, { ...polling, batchSize: URGENT_BATCH, minPriority: URGENT_PRIORITY }, work);
      }
      started = true;
    },
    async add(mail, executor) {
      if (!started || stopped) throw new Error("The mail queue is not running: start the mailer first");
      const priority = mail.notification ? NOTIFICATION_PRIORITY : URGENT_PRIORITY;
      await boss.send(MAIL_QUEUE, mail, { ...jobOptions, priority, ...(executor ? { db: jobs.within(executor) } : {}) });
    },
    drain() {
      return track(drains, drainLoop());
    },
    async stop(graceMs) {
      if (!started || stopped) return;
      stopped = true;
      const deadline = Date.now() + graceMs;
      // pg-boss stops fetching and waits (within the grace) for its workers' batches; drain loops end after their step.
      await jobs.stop(graceMs);
      await settledWithin([...batches, ...drains], deadline - Date.now());
      abandoned = true;
      await Promise.allSettled([...writes]);
    },
  };
}

/** Waits for the promises, but no longer than `ms`. */
async function settledWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0 || ms <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.allSettled(promises), deadline]);
  clearTimeout(timer);
}
