import type { Agent } from "node:https";
import { and, count, eq } from "drizzle-orm";
import type { JobWithMetadata, SendOptions } from "pg-boss";
import type { Logger } from "pino";
import webpush, { WebPushError } from "web-push";
import type { Config } from "../config";
import type { Database, Tx } from "../db/client";
import { pushNotifications } from "../db/schema/notifications";
import { pushDeliveries } from "../db/schema/push";
import { createJobQueue } from "../jobs/job-queue";
import { existingLeadIdSql } from "../leads/lead-rows";
import { pushTargets, retireSubscription, type PushTarget } from "./subscriptions";
import { loadVapidKeys, type VapidKeys } from "./vapid-keys";

// Web push through the durable job queue (issue 11; decisions 112 and 113). A notification is a push_notifications
// row and a pg-boss job written in the transaction that dispatches its event; whichever process polls first sends it
// to every signed-in browser of its recipients, retries the push services that fail, and records the outcome.

export const PUSH_QUEUE = "push";

/** What one event tells its recipients' phones (the in-app notification's words, from the notification plan). */
export interface PushNotice {
  type: string;
  title: string;
  message: string;
  url: string | null;
  leadId: string | null;
  dealershipId: string;
  targetRoles: string[];
  recipientIds: string[];
}

/** What the service worker receives, decrypted (documented for the client in decision 112). */
export interface PushPayload {
  title: string;
  body: string;
  message: string;
  url: string | null;
  type: string;
  /** The push_notifications id: a service worker showing it with this tag never shows one notification twice. */
  tag: string;
}

export interface PushRetry {
  tries: number;
  delaySeconds: number;
  backoff: boolean;
}

/** Four tries in about 1 to 2 minutes (10-20 s, 20-40 s, 40-80 s): a notification later than that is news no more. */
export const PUSH_RETRY: PushRetry = { tries: 4, delaySeconds: 10, backoff: true };

/** How long a push service keeps a push for a phone that is off (TTL, seconds): after an hour a lead alert is stale. */
export const PUSH_TTL_SECONDS = 3600;
/** One push service request; the job as a whole may run for TRY_LIMIT_SECONDS. */
const REQUEST_TIMEOUT_MS = 10_000;
const TRY_LIMIT_SECONDS = 60;
/** New leads go to whoever claims first: wake the phone. The rest may wait for the phone's next wake-up. */
const HIGH_URGENCY = new Set(["lead_created"]);

export interface PushServiceOptions {
  database: Database;
  logger: Logger;
  config: Config;
  retry?: PushRetry;
  /** Whether this process polls the queue and sends on its own (default true; tests drain by hand). */
  worker?: boolean;
  pollingIntervalSeconds?: number;
  /** The https agent for push services (tests: one that trusts the local push endpoint's certificate). */
  agent?: Agent;
}

export interface PushService {
  /** Starts the queue (and this process's worker) in the background; queue() and drain() wait for it. */
  start(): Promise<void>;
  /** The VAPID public key browsers subscribe with. */
  publicKey(): Promise<string>;
  /**
   * Records the notice and queues its push in `tx` (the dispatcher's transaction). Nothing is written when none of the
   * recipients has a signed-in, subscribed browser. Answers whether a push was queued.
   */
  queue(tx: Tx, notice: PushNotice): Promise<boolean>;
  /** Sends every push due now (retries due at once included) and resolves when none is left. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

interface PushJob {
  pushNotificationId: string;
}

type SendOutcome = "delivered" | "gone" | "failed";

export function createPushService(options: PushServiceOptions): PushService {
  const { database, logger, config } = options;
  const retry = options.retry ?? PUSH_RETRY;
  const worker = options.worker ?? true;
  const jobs = createJobQueue(database, logger);
  const { boss } = jobs;
  const jobOptions: SendOptions = {
    retryLimit: Math.max(0, retry.tries - 1),
    retryDelay: retry.delaySeconds,
    retryBackoff: retry.backoff,
    expireInSeconds: TRY_LIMIT_SECONDS,
  };
  let keys: Promise<VapidKeys> | null = null;
  let running: Promise<void> | null = null;
  let closed = false;

  function vapidKeys(): Promise<VapidKeys> {
    keys ??= loadVapidKeys(database.db, config).then(
      (loaded) => {
        if (loaded.replaced) logger.warn("the kept VAPID keys could not be read with this APP_SECRET: new keys made, browsers must subscribe again");
        return loaded.keys;
      },
      (error: unknown) => {
        keys = null; // try again at the next use
        throw error;
      },
    );
    return keys;
  }

  async function sendTo(target: PushTarget, payload: string, urgency: "high" | "normal", vapid: VapidKeys): Promise<SendOutcome> {
    try {
      await webpush.sendNotification({ endpoint: target.url, keys: target.keys }, payload, {
        vapidDetails: vapid,
        TTL: PUSH_TTL_SECONDS,
        urgency,
        timeout: REQUEST_TIMEOUT_MS,
        ...(options.agent ? { agent: options.agent } : {}),
      });
      return "delivered";
    } catch (error) {
      const status = error instanceof WebPushError ? error.statusCode : undefined;
      // 404 and 410: the browser unsubscribed or the subscription expired (RFC 8030 §7.3). Anything else may pass.
      if (status === 404 || status === 410) return "gone";
      logger.warn({ status, err: error instanceof Error ? error.message : String(error) }, "push delivery failed");
      return "failed";
    }
  }

  /** Subscriptions kept before their endpoint was checked as it is now (decision 171): never sent to, and retired. */
  async function retireRefused(endpoints: string[]): Promise<void> {
    if (endpoints.length === 0) return;
    for (const endpoint of endpoints) await retireSubscription(database.db, endpoint);
    logger.warn({ count: endpoints.length }, "push subscriptions with an endpoint no longer accepted were retired");
  }

  /** One try. Throws to have pg-boss try again later (for the subscriptions not yet reached). */
  async function tryToSend(job: JobWithMetadata<PushJob>): Promise<void> {
    const db = database.db;
    const id = job.data.pushNotificationId;
    const [record] = await db.select().from(pushNotifications).where(eq(pushNotifications.id, id)).limit(1);
    if (!record || record.status !== "pending") return;
    const vapid = await vapidKeys();
    const reached = new Set(
      (await db.select({ token: pushDeliveries.token }).from(pushDeliveries).where(eq(pushDeliveries.pushNotificationId, id))).map((r) => r.token),
    );
    const subscribed = await pushTargets(db, record.targetUserIds, config.pushLocalEndpoints);
    await retireRefused(subscribed.refused);
    const targets = subscribed.targets.filter((t) => !reached.has(t.endpoint));
    const payload: PushPayload = { title: record.title, body: record.message, message: record.message, url: record.url, type: record.type ?? "", tag: id };
    const urgency = HIGH_URGENCY.has(record.type ?? "") ? "high" : "normal";
    const outcomes = await Promise.all(targets.map((target) => sendTo(target, JSON.stringify(payload), urgency, vapid)));

    let failed = 0;
    for (const [i, outcome] of outcomes.entries()) {
      const target = targets[i]!;
      if (outcome === "delivered") {
        await db.insert(pushDeliveries).values({ pushNotificationId: id, token: target.endpoint }).onConflictDoNothing();
      } else if (outcome === "gone") {
        await retireSubscription(db, target.endpoint);
      } else {
        failed++;
      }
    }
    const lastTry = job.retryCount >= job.retryLimit;
    if (failed > 0 && !lastTry) throw new Error(`${failed} of ${targets.length} push services failed`);

    const [delivered] = await db.select({ n: count() }).from(pushDeliveries).where(eq(pushDeliveries.pushNotificationId, id));
    const sentCount = delivered?.n ?? 0;
    await db
      .update(pushNotifications)
      .set({ status: sentCount > 0 ? "sent" : "failed", sentCount })
      .where(and(eq(pushNotifications.id, id), eq(pushNotifications.status, "pending")));
  }

  return {
    start() {
      // In the background: starting the process's job queue (or joining it, decision 187) and its queue costs a moment
      // (seconds on a busy embedded database), which the app's start-up need not wait for. Queueing and draining wait
      // for it instead.
      running ??= (async () => {
        await jobs.start();
        await boss.createQueue(PUSH_QUEUE);
        if (worker) {
          await boss.work(PUSH_QUEUE, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, includeMetadata: true, batchSize: 1 }, async ([job]: JobWithMetadata<PushJob>[]) => {
            if (job) await tryToSend(job);
          });
        }
        // Made (or read) now, so every process agrees from the start and the first browser to ask is answered at once.
        await vapidKeys().catch((error: unknown) => logger.error({ err: error }, "VAPID keys unavailable; web push is off until they are"));
      })();
      running.catch((error: unknown) => logger.error({ err: error }, "the push queue did not start"));
      return Promise.resolve();
    },
    async publicKey() {
      return (await vapidKeys()).publicKey;
    },
    async queue(tx, notice) {
      if (!running || closed) throw new Error("The push queue is not running: start it first");
      await running;
      const recipients = [...new Set(notice.recipientIds)];
      if ((await pushTargets(tx, recipients, config.pushLocalEndpoints)).targets.length === 0) return false;
      const [record] = await tx
        .insert(pushNotifications)
        .values({
          title: notice.title,
          message: notice.message,
          type: notice.type,
          url: notice.url,
          status: "pending",
          targetUserIds: recipients,
          targetRoles: notice.targetRoles,
          // The plan's lead may be gone already (a deletion, a merge): keep the link only while the row exists, read
          // with the foreign key's own lock, so a merge deleting the lead at this moment is waited for (null after).
          leadId: notice.leadId ? existingLeadIdSql(notice.leadId) : null,
          dealershipId: notice.dealershipId,
        })
        .returning({ id: pushNotifications.id });
      await boss.send(PUSH_QUEUE, { pushNotificationId: record!.id } satisfies PushJob, { ...jobOptions, db: jobs.within(tx) });
      return true;
    },
    async drain() {
      if (!running) return;
      await running;
      while (!closed) {
        const due = await boss.fetch<PushJob>(PUSH_QUEUE, { batchSize: 10, includeMetadata: true });
        if (due.length === 0) return;
        for (const job of due) {
          try {
            await tryToSend(job);
            await boss.complete(PUSH_QUEUE, job);
          } catch (error) {
            await boss.fail(PUSH_QUEUE, job, { message: error instanceof Error ? error.message : String(error) });
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
