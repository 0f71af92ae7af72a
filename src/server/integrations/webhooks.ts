import { and, eq, sql } from "drizzle-orm";
import { nanoid } from "nanoid";
import type { JobWithMetadata } from "pg-boss";
import type { Logger } from "pino";
import { DOMAIN_EVENT_VERSIONS, type DomainEvent } from "../../shared/events";
import { decryptSecret, type SecretSource } from "../auth/two-factor-secrets";
import type { Database, Tx } from "../db/client";
import { rowsOf } from "../db/client";
import { dealershipUsers } from "../db/schema/dealerships";
import { webhookDeliveries, webhooks } from "../db/schema/integrations";
import { users } from "../db/schema/users";
import { createJobQueue } from "../jobs/job-queue";
import type { Mailer } from "../mail/mailer";
import { sendWebhook } from "./webhook-sender";

// Webhook delivery (issue 28, decision 227). A subscriber of every domain event writes, in the dispatching transaction,
// one delivery row per matching webhook and its job: sent after the event's commit, from the outbox, through the
// durable job queue, at least once. Each attempt is one job; a failed one queues the next with exponential backoff
// (30 s, 1 min, 2 min, ... at most 4 h apart) for 24 hours, always with the delivery's id as webhook-id. An endpoint
// whose deliveries have all failed for 3 days is turned off and the dealership's management is e-mailed.

export const WEBHOOK_QUEUE = "webhook-delivery";
const RETRY_FOR_MS = 24 * 3600_000;
const DISABLE_AFTER_MS = 3 * 24 * 3600_000;
/**
 * How long a due attempt counts as queued for a redeliver (decision 232): longer than a job's three tries of at most
 * 60 s each, 30 s apart, take.
 */
const QUEUED_FOR_AT_MOST_SECONDS = 300;
/**
 * Attempts a worker takes per fetch, sent side by side, and workers per process (decision 233): one attempt per poll
 * sent one delivery every 2 s, whatever the backlog. An attempt holds a database connection only for its two short
 * statements, not while it waits for the endpoint.
 */
const BATCH = 10;
const WORKERS = 2;

/** Seconds before retry n (1 = the first retry): 30 s, doubling, at most 4 hours. */
export function backoffSeconds(retry: number): number {
  return Math.min(30 * 2 ** (retry - 1), 4 * 3600);
}

export interface WebhookServiceOptions {
  database: Database;
  logger: Logger;
  config: SecretSource & { webhooksAllowPrivate?: boolean | undefined };
  mailer: Mailer;
  /** Seconds before retry n (tests: 0). */
  retryDelaySeconds?: (retry: number) => number;
  /** Whether this process polls the queue (default true; tests may drain by hand). */
  worker?: boolean;
  pollingIntervalSeconds?: number;
}

export interface WebhookService {
  start(): Promise<void>;
  /** Writes the event's deliveries and their jobs in `tx` (the dispatcher's transaction). */
  enqueue(tx: Tx, event: DomainEvent & { id: number; createdAt: Date }): Promise<number>;
  /**
   * Sends a delivery once more (same webhook-id), in `tx`, whose caller holds the delivery's row (FOR UPDATE). False
   * when its attempt is already queued to go now: nothing more is queued (decision 232).
   */
  redeliver(tx: Tx, deliveryId: string): Promise<boolean>;
  /** Runs every attempt due now, and resolves when none is left (tests). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

interface DeliveryJob {
  deliveryId: string;
  /** The attempts the delivery had when this job was queued: a job that finds another count is stale. */
  attempt: number;
}

/** The body of a delivery: the event as management reads it (decision 227), with its payload version. */
export function webhookBody(event: DomainEvent & { createdAt: Date }): string {
  return JSON.stringify({ type: event.type, version: DOMAIN_EVENT_VERSIONS[event.type], timestamp: event.createdAt.toISOString(), data: event.payload });
}

export function createWebhookService(options: WebhookServiceOptions): WebhookService {
  const { database, logger, config, mailer } = options;
  const retryDelay = options.retryDelaySeconds ?? backoffSeconds;
  const jobs = createJobQueue(database, logger);
  const { boss } = jobs;
  let running: Promise<void> | null = null;
  let closed = false;

  const queueAttempt = (tx: Tx, job: DeliveryJob, delaySeconds: number) =>
    boss.send(WEBHOOK_QUEUE, job, { retryLimit: 2, retryDelay: 30, expireInSeconds: 60, startAfter: delaySeconds, db: jobs.within(tx) });

  async function attempt(job: DeliveryJob): Promise<void> {
    const db = database.db;
    const [found] = await db
      .select({ delivery: webhookDeliveries, webhook: webhooks })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(eq(webhookDeliveries.id, job.deliveryId))
      .limit(1);
    if (!found || found.delivery.status !== "pending" || found.delivery.attempts !== job.attempt) return;
    const { delivery, webhook } = found;
    const secret = decryptSecret(config, webhook.secret);
    const outcome = !webhook.active
      ? { ok: false, statusCode: null, response: "The webhook is turned off" }
      : !secret
        ? { ok: false, statusCode: null, response: "The webhook's secret cannot be read with this APP_SECRET" }
        : await sendWebhook({ url: webhook.url, secret, id: delivery.id, body: delivery.body, allowPrivate: config.webhooksAllowPrivate ?? false });
    await db.transaction(async (tx) => {
      const attempts = delivery.attempts + 1;
      const retryMore = !outcome.ok && webhook.active && Date.now() - delivery.createdAt.getTime() < RETRY_FOR_MS;
      const delay = retryMore ? retryDelay(attempts) : 0;
      const changed = await tx
        .update(webhookDeliveries)
        .set({
          attempts,
          lastStatusCode: outcome.statusCode,
          lastResponse: outcome.response,
          status: outcome.ok ? "succeeded" : retryMore ? "pending" : "failed",
          nextAttemptAt: retryMore ? sql`now() + make_interval(secs => ${delay}::float8)` : null,
          deliveredAt: outcome.ok ? sql`now()` : null,
        })
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, delivery.attempts), eq(webhookDeliveries.status, "pending")))
        .returning({ id: webhookDeliveries.id });
      if (changed.length === 0) return; // another process recorded this attempt
      if (retryMore) await queueAttempt(tx, { deliveryId: delivery.id, attempt: attempts }, delay);
      if (outcome.ok) {
        await tx.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, webhook.id));
      } else if (webhook.active) {
        await failing(tx, webhook.id);
      }
    });
  }

  /** Marks the endpoint failing since its first failure; after 3 days of it, turns it off and tells management. */
  async function failing(tx: Tx, webhookId: string): Promise<void> {
    const disabled = rowsOf<{ id: string; url: string; dealership_id: string }>(
      await tx.execute(sql`
        update ${webhooks} set
          failing_since = coalesce(failing_since, now()),
          active = case when failing_since <= now() - make_interval(secs => ${DISABLE_AFTER_MS / 1000}::float8) then false else active end,
          disabled_reason = case when failing_since <= now() - make_interval(secs => ${DISABLE_AFTER_MS / 1000}::float8)
            then 'Every delivery failed for 3 days' else disabled_reason end
        where id = ${webhookId} and active
        returning id, url, dealership_id, active`),
    ).filter((row) => !(row as { active?: boolean }).active);
    for (const row of disabled) {
      const managers = await tx
        .select({ email: users.email })
        .from(dealershipUsers)
        .innerJoin(users, eq(users.id, dealershipUsers.userId))
        .where(and(eq(dealershipUsers.dealershipId, row.dealership_id), eq(dealershipUsers.role, "management"), eq(dealershipUsers.active, true)));
      for (const manager of managers) {
        await mailer.queue(
          {
            to: manager.email,
            subject: "A webhook was turned off",
            text: `Every delivery to ${row.url} has failed for 3 days, so Showroom stopped sending to it.\n\nFix the endpoint, then turn the webhook back on in Admin Panel > API & Webhooks. Deliveries that failed can be sent again from there.`,
            emailType: "webhook_disabled",
            dealershipId: row.dealership_id,
          },
          tx,
        );
      }
      logger.warn({ webhookId: row.id }, "webhook turned off after 3 days of failures");
    }
  }

  return {
    start() {
      running ??= (async () => {
        await jobs.start();
        await boss.createQueue(WEBHOOK_QUEUE);
        if (options.worker ?? true) {
          // A batch's attempts go side by side, each job settled on its own; while fetches come back full the
          // workers fetch again at once instead of waiting for the next poll (decision 233).
          const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, burstWhenBatchFull: true };
          const work = { ...polling, includeMetadata: true as const, batchSize: BATCH, localConcurrency: WORKERS, perJobResults: true as const };
          await boss.work(WEBHOOK_QUEUE, work, async (batch: JobWithMetadata<DeliveryJob>[]) => {
            const outcomes = await Promise.allSettled(batch.map((job) => attempt(job.data)));
            return batch.map((job, i) => {
              const outcome = outcomes[i]!;
              if (outcome.status === "fulfilled") return { id: job.id, status: "completed" as const };
              const error: unknown = outcome.reason;
              return { id: job.id, status: "failed" as const, output: { message: error instanceof Error ? error.message : String(error) } };
            });
          });
        }
      })();
      running.catch((error: unknown) => logger.error({ err: error }, "the webhook queue did not start"));
      return Promise.resolve();
    },
    async enqueue(tx, event) {
      if (!event.dealershipId) return 0;
      const targets = await tx
        .select({ id: webhooks.id })
        .from(webhooks)
        .where(and(eq(webhooks.dealershipId, event.dealershipId), eq(webhooks.active, true), sql`(${webhooks.events} @> array[${event.type}]::text[] or ${webhooks.events} @> array['*']::text[])`));
      if (targets.length === 0) return 0;
      if (!running || closed) throw new Error("The webhook queue is not running: start it first");
      await running;
      const body = webhookBody(event);
      let queued = 0;
      for (const target of targets) {
        const [made] = await tx
          .insert(webhookDeliveries)
          .values({ id: `msg_${nanoid(24)}`, webhookId: target.id, eventId: event.id, eventType: event.type, body, nextAttemptAt: sql`now()` })
          .onConflictDoNothing()
          .returning({ id: webhookDeliveries.id });
        if (!made) continue; // this event was handled before (a retried dispatch)
        await queueAttempt(tx, { deliveryId: made.id, attempt: 0 }, 0);
        queued++;
      }
      return queued;
    },
    async redeliver(tx, deliveryId) {
      if (!running || closed) throw new Error("The webhook queue is not running: start it first");
      await running;
      // A delivery already pending with its attempt due (queued by its event or by a redeliver a moment ago, and not
      // yet recorded) gets no second job: that job would only find its attempt taken. One due for longer than
      // QUEUED_FOR_AT_MOST_SECONDS is queued again, in case its job was lost; a retry waiting for its backoff is
      // brought forward. clock_timestamp(), not now(): a redeliver whose transaction began before another one's
      // commit (waiting for the row) must see that one's attempt as due.
      const [row] = await tx
        .update(webhookDeliveries)
        .set({ status: "pending", nextAttemptAt: sql`now()` })
        .where(
          and(
            eq(webhookDeliveries.id, deliveryId),
            sql`not (${webhookDeliveries.status} = 'pending' and ${webhookDeliveries.nextAttemptAt} <= clock_timestamp()
              and ${webhookDeliveries.nextAttemptAt} > clock_timestamp() - make_interval(secs => ${QUEUED_FOR_AT_MOST_SECONDS}::float8))`,
          ),
        )
        .returning({ attempts: webhookDeliveries.attempts });
      if (row) await queueAttempt(tx, { deliveryId, attempt: row.attempts }, 0);
      return Boolean(row);
    },
    async drain() {
      if (!running) return;
      await running;
      while (!closed) {
        const due = await boss.fetch<DeliveryJob>(WEBHOOK_QUEUE, { batchSize: 10 });
        if (due.length === 0) return;
        for (const job of due) {
          try {
            await attempt(job.data);
            await boss.complete(WEBHOOK_QUEUE, job.id);
          } catch (error) {
            await boss.fail(WEBHOOK_QUEUE, job.id, { message: error instanceof Error ? error.message : String(error) });
          }
        }
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await running?.catch(() => undefined);
      await jobs.stop(3_000);
    },
  };
}
