import { and, asc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import pg from "pg";
import type { Logger } from "pino";
import { parseDomainEvent, type DomainEvent } from "../../shared/events";
import type { Db, Tx } from "../db/client";
import { domainEvents } from "../db/schema/events";
import { EVENTS_CHANNEL } from "./outbox";

// The dispatcher (decision 051). Every app process LISTENs on the events channel. For each committed event:
// - once-only handlers (e-mail triggers now; in-app notifications and push later) run in ONE process, inside the
//   transaction that marks the event dispatched, so their writes (queued mail jobs) commit with that mark: a process
//   killed at any point leaves the event pending, and the next sweep (any process, or this one after a restart) runs it;
// - every process's listeners (the real-time socket) hear it, to fan out to their own connections.
// A sweep also runs at start and every SWEEP_MS, for notifications missed while a connection was down.

const SWEEP_MS = 10_000;
const BATCH = 50;
const DISPATCH_DELAY_MS = 20;
/** An event whose handlers failed this often is set aside (kept, with its last error) instead of retried forever. */
export const MAX_DISPATCH_FAILURES = 5;

export type EventHandler = (tx: Tx, event: DomainEvent & { id: number }) => Promise<void>;
export type EventListener = (event: DomainEvent & { id: number }) => void;

export interface EventBus {
  /** Adds once-only work for every event; runs in the dispatching transaction. */
  handle(handler: EventHandler): void;
  /** Hears every committed event in this process (after commit). Answers a function that stops listening. */
  listen(listener: EventListener): () => void;
  /** Dispatches everything pending now; resolves when nothing is left (tests, shutdown). */
  flush(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

interface PgliteLike {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

export function createEventBus(options: { db: Db; logger: Logger }): EventBus {
  const { db, logger } = options;
  const handlers: EventHandler[] = [];
  const listeners = new Set<EventListener>();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let closed = false;

  type Row = typeof domainEvents.$inferSelect;

  async function runHandlers(tx: Tx, row: Row): Promise<void> {
    const event = { ...parseDomainEvent(row), id: row.id };
    for (const handler of handlers) await handler(tx, event);
  }

  const pendingEvents = (tx: Tx, id?: number) =>
    tx
      .select()
      .from(domainEvents)
      .where(
        and(
          isNull(domainEvents.dispatchedAt),
          lt(domainEvents.failures, MAX_DISPATCH_FAILURES),
          id === undefined ? undefined : eq(domainEvents.id, id),
        ),
      )
      .orderBy(asc(domainEvents.id));

  /**
   * Dispatches up to BATCH pending events in one transaction (a busy dealership's claims share one commit). When a
   * handler fails, the batch rolls back and its events go one by one, so one bad event cannot hold up the others; the
   * bad one counts a failure and waits for the next sweep. Answers whether to go on at once.
   */
  async function dispatchBatch(): Promise<boolean> {
    let taken: number[] = [];
    try {
      return await db.transaction(async (tx) => {
        const rows = await pendingEvents(tx).limit(BATCH).for("update", { skipLocked: true });
        taken = rows.map((r) => r.id);
        for (const row of rows) await runHandlers(tx, row);
        if (rows.length) await tx.update(domainEvents).set({ dispatchedAt: sql`now()` }).where(inArray(domainEvents.id, taken));
        return rows.length === BATCH;
      });
    } catch (error) {
      if (taken.length === 0) throw error;
      for (const id of taken) await dispatchAlone(id);
      return false;
    }
  }

  async function dispatchAlone(id: number): Promise<void> {
    try {
      await db.transaction(async (tx) => {
        const [row] = await pendingEvents(tx, id).for("update", { skipLocked: true });
        if (!row) return;
        await runHandlers(tx, row);
        await tx.update(domainEvents).set({ dispatchedAt: sql`now()` }).where(eq(domainEvents.id, id));
      });
    } catch (error) {
      logger.error({ err: error, eventId: id }, "event dispatch failed");
      await db
        .update(domainEvents)
        .set({ failures: sql`${domainEvents.failures} + 1`, lastError: error instanceof Error ? error.message.slice(0, 500) : "failed" })
        .where(eq(domainEvents.id, id));
    }
  }

  async function drainPending(): Promise<void> {
    for (let round = 0; round < 20 && !closed; round++) if (!(await dispatchBatch())) return;
    again = true; // a long backlog: go round again without holding the loop forever
  }

  function dispatch(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await drainPending();
      } while (again && !closed);
    })()
      .catch((error: unknown) => logger.error({ err: error }, "event dispatcher failed"))
      .finally(() => {
        running = null;
      });
    return running;
  }

  // A notification starts a dispatch a moment later, so a burst of events (a busy lot claiming) shares one transaction.
  let soon: NodeJS.Timeout | null = null;
  function dispatchSoon(): void {
    if (soon || closed) return;
    soon = setTimeout(() => {
      soon = null;
      void dispatch();
    }, DISPATCH_DELAY_MS);
    soon.unref();
  }

  async function hear(payload: string | undefined): Promise<void> {
    dispatchSoon();
    if (listeners.size === 0 || !payload) return;
    const id = Number(payload);
    if (!Number.isSafeInteger(id)) return;
    const [row] = await db.select().from(domainEvents).where(eq(domainEvents.id, id)).limit(1);
    if (!row) return;
    const event = { ...parseDomainEvent(row), id: row.id };
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        logger.error({ err: error, eventId: id }, "event listener failed");
      }
    }
  }

  async function subscribe(): Promise<() => Promise<void>> {
    const client = (db as unknown as { $client: pg.Pool | PgliteLike }).$client;
    const onMessage = (payload?: string) => void hear(payload).catch((error: unknown) => logger.error({ err: error }, "event read failed"));
    if (client instanceof pg.Pool) {
      // A connection of its own: LISTEN holds it for the life of the process.
      const connection = new pg.Client(client.options);
      connection.on("notification", (message) => onMessage(message.payload));
      connection.on("error", (error) => {
        logger.warn({ err: error }, "event channel lost; reconnecting");
        setTimeout(() => void reconnect(), 1000).unref();
      });
      await connection.connect();
      await connection.query(`listen ${EVENTS_CHANNEL}`);
      return () => connection.end();
    }
    return client.listen(EVENTS_CHANNEL, onMessage);
  }

  async function reconnect(): Promise<void> {
    if (closed) return;
    try {
      await unlisten?.().catch(() => undefined);
      unlisten = await subscribe();
      void dispatch();
    } catch (error) {
      logger.warn({ err: error }, "event channel reconnect failed");
      setTimeout(() => void reconnect(), 5000).unref();
    }
  }

  return {
    handle(handler) {
      handlers.push(handler);
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async flush() {
      do await dispatch();
      while (running);
    },
    async start() {
      closed = false;
      unlisten = await subscribe();
      timer = setInterval(() => void dispatch(), SWEEP_MS);
      timer.unref();
      void dispatch();
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      if (soon) clearTimeout(soon);
      soon = null;
      await running;
      await unlisten?.().catch(() => undefined);
      unlisten = null;
    },
  };
}
