import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import pg from "pg";
import type { Logger } from "pino";
import { parseDomainEvent, type DomainEvent } from "../../shared/events";
import type { Db, Tx } from "../db/client";
import { fixedStatement, runStatement } from "../db/prepared";
import { domainEvents } from "../db/schema/events";
import { EVENTS_CHANNEL } from "./outbox";

// The dispatcher (decision 051). Every app process LISTENs on the events channel. For each committed event:
// - once-only handlers (e-mail triggers now; in-app notifications and push later) run in ONE process, inside the
//   transaction that marks the event dispatched, so their writes (queued mail jobs) commit with that mark: a process
//   killed at any point leaves the event pending, and the next sweep (any process, or this one after a restart) runs it;
// - every process's listeners (the real-time socket) hear it, to fan out to their own connections.
// A sweep also runs at start and every SWEEP_MS, for notifications missed while a connection was down.
//
// Hearing (decision 120): a notification is only a wake-up. Each process reads what it has not heard yet in id order,
// a batch per read (not a row per event). Ids are taken when an event is inserted but become visible when it commits,
// so a later id can be seen before an earlier one: ids skipped over are remembered for a while and asked for again at
// the next read, which the earlier event's own notification (at its commit) brings.
// The claim, the hottest write, does not notify inside its statement (a NOTIFY serialises every notifying commit
// behind one lock): the route calls `committed()`, which wakes this process at once and sends one NOTIFY per
// NOTIFY_WINDOW_MS to the others, after the commits it announces.

const SWEEP_MS = 10_000;
const BATCH = 50;
const DISPATCH_DELAY_MS = 20;
/** committed() announces this process's events to the others at most once per this window. */
const NOTIFY_WINDOW_MS = 20;
/** Events read per listener read. */
const HEAR_BATCH = 500;
/** An id skipped over (its transaction had not committed yet) is asked for again this long, then given up (rolled back). */
const GAP_KEEP_MS = 5 * 60_000;
const MAX_GAPS = 10_000;
/** An event whose handlers failed this often is set aside (kept, with its last error) instead of retried forever. */
export const MAX_DISPATCH_FAILURES = 5;

/** The last id the outbox's sequence handed out (0 before the first). */
const newestIdStatement = fixedStatement(
  "events_newest_id",
  sql`select coalesce(pg_sequence_last_value(pg_get_serial_sequence('domain_events', 'id')::regclass), 0) as id`,
);

/** What listeners have not heard: everything after the newest heard id, and the ids skipped over (one array). */
const unheardStatement = fixedStatement(
  "events_unheard",
  sql`select id, type, dealership_id as "dealershipId", actor_id as "actorId", payload from ${domainEvents}
    where id > ${sql.placeholder("after")} or id = any(${sql.placeholder("missing")}::bigint[])
    order by id limit ${sql.raw(String(HEAR_BATCH))}`,
);

interface HeardRow {
  id: number;
  type: string;
  dealershipId: string | null;
  actorId: string | null;
  payload: unknown;
}

export type EventHandler = (tx: Tx, event: DomainEvent & { id: number }) => Promise<void>;
/** Once-only work done for a whole dispatch batch at once (one query for many events), after the per-event handlers. */
export type EventBatchHandler = (tx: Tx, events: Array<DomainEvent & { id: number; createdAt: Date }>) => Promise<void>;
export type EventListener = (event: DomainEvent & { id: number }) => void;

export interface EventBus {
  /** Adds once-only work for every event; runs in the dispatching transaction. */
  handle(handler: EventHandler): void;
  /** The same, for a handler that does a batch's events together (they commit together anyway). */
  handleBatch(handler: EventBatchHandler): void;
  /** Hears every committed event in this process (after commit). Answers a function that stops listening. */
  listen(listener: EventListener): () => void;
  /**
   * Says this process just committed events written without publish()'s in-transaction NOTIFY (the claim): wakes this
   * process now and every other process within NOTIFY_WINDOW_MS.
   */
  committed(): void;
  /** Dispatches everything pending now and reads what listeners have not heard; resolves when nothing is left. */
  flush(): Promise<void>;
  /** How many skipped-over ids every read still asks for (each costs an index probe per read until seen or given up). */
  gapsAskedFor(): number;
  start(): Promise<void>;
  close(): Promise<void>;
}

interface PgliteLike {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

export function createEventBus(options: { db: Db; logger: Logger }): EventBus {
  const { db, logger } = options;
  const handlers: EventHandler[] = [];
  const batchHandlers: EventBatchHandler[] = [];
  const listeners = new Set<EventListener>();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let closed = false;

  type Row = typeof domainEvents.$inferSelect;

  async function runHandlers(tx: Tx, rows: Row[]): Promise<void> {
    const events = rows.map((row) => ({ ...parseDomainEvent(row), id: row.id, createdAt: row.createdAt }));
    for (const event of events) for (const handler of handlers) await handler(tx, event);
    if (events.length) for (const handler of batchHandlers) await handler(tx, events);
  }

  /**
   * Marks up to `limit` pending events dispatched and answers them, oldest first, in one statement: the mark commits
   * with the handlers' writes or rolls back with them. Events another process is dispatching (locked) are skipped.
   */
  async function takePending(tx: Tx, limit: number, id?: number): Promise<Row[]> {
    const pending = tx
      .select({ id: domainEvents.id })
      .from(domainEvents)
      .where(
        and(
          isNull(domainEvents.dispatchedAt),
          lt(domainEvents.failures, MAX_DISPATCH_FAILURES),
          id === undefined ? undefined : eq(domainEvents.id, id),
        ),
      )
      .orderBy(asc(domainEvents.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    const rows = await tx.update(domainEvents).set({ dispatchedAt: sql`now()` }).where(inArray(domainEvents.id, pending)).returning();
    return rows.sort((a, b) => a.id - b.id);
  }

  /**
   * Dispatches up to BATCH pending events in one transaction (a busy dealership's claims share one commit). When a
   * handler fails, the batch rolls back and its events go one by one, so one bad event cannot hold up the others; the
   * bad one counts a failure and waits for the next sweep. Answers whether to go on at once.
   */
  async function dispatchBatch(): Promise<boolean> {
    let taken: number[] = [];
    try {
      return await db.transaction(async (tx) => {
        const rows = await takePending(tx, BATCH);
        taken = rows.map((r) => r.id);
        await runHandlers(tx, rows);
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
        const [row] = await takePending(tx, 1, id);
        if (!row) return;
        await runHandlers(tx, [row]);
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

  // ---- Hearing: every committed event reaches this process's listeners, read in batches by id ----

  /** The highest id heard; null until synced (at start, or when the first listener comes after none). */
  let heardUpTo: number | null = null;
  /** Ids below heardUpTo not seen yet (not committed when read), with when they were first missed. */
  const gaps = new Map<number, number>();
  let reading: Promise<void> | null = null;
  let readAgain = false;

  async function readUnheard(): Promise<void> {
    if (listeners.size === 0) {
      heardUpTo = null; // nobody to tell: skip the reads, and start from the newest event when someone listens
      gaps.clear();
      return;
    }
    if (heardUpTo === null) {
      // From the newest id taken, not the newest committed: ids below it that never show (events pruned after 30
      // days, ids a rolled-back transaction burned) would otherwise all become gaps, up to MAX_GAPS asked for in
      // every read for GAP_KEEP_MS. An event still uncommitted at this moment is not heard, as before a listener.
      const [newest] = await runStatement<{ id: string }>(db, newestIdStatement);
      heardUpTo = Number(newest?.id ?? 0);
      return;
    }
    const now = Date.now();
    for (const [id, since] of gaps) if (now - since > GAP_KEEP_MS) gaps.delete(id);
    const rows = (await runStatement<HeardRow>(db, unheardStatement, { after: heardUpTo, missing: [...gaps.keys()] })).map((row) => ({
      ...row,
      id: Number(row.id),
    }));
    for (const row of rows) {
      if (row.id > heardUpTo) {
        for (let skipped = heardUpTo + 1; skipped < row.id && gaps.size < MAX_GAPS; skipped++) gaps.set(skipped, now);
        heardUpTo = row.id;
      } else gaps.delete(row.id);
      tell(row);
    }
    if (rows.length === HEAR_BATCH) readAgain = true;
  }

  function tell(row: HeardRow): void {
    let event: DomainEvent & { id: number };
    try {
      event = { ...parseDomainEvent(row), id: row.id };
    } catch (error) {
      logger.error({ err: error, eventId: row.id }, "event unreadable");
      return;
    }
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        logger.error({ err: error, eventId: row.id }, "event listener failed");
      }
    }
  }

  /** Reads what listeners have not heard; one read at a time, and one more if woken meanwhile. */
  function hearAll(): Promise<void> {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        await readUnheard();
      } while (readAgain && !closed);
    })()
      .catch((error: unknown) => logger.error({ err: error }, "event read failed"))
      .finally(() => {
        reading = null;
      });
    return reading;
  }

  // Like dispatchSoon: a burst of events (a busy lot claiming) is read in one query.
  let hearTimer: NodeJS.Timeout | null = null;
  function hearSoon(): void {
    if (hearTimer || closed || listeners.size === 0) return;
    hearTimer = setTimeout(() => {
      hearTimer = null;
      void hearAll();
    }, DISPATCH_DELAY_MS);
    hearTimer.unref();
  }

  /** This process's own announcements carry its token: it woke itself when it committed. */
  const token = `process:${randomUUID()}`;

  function hear(payload: string | undefined): void {
    if (payload === token) return;
    dispatchSoon();
    hearSoon();
  }

  // ---- Announcing events committed without an in-transaction NOTIFY ----

  let notifyTimer: NodeJS.Timeout | null = null;
  let notifying: Promise<void> = Promise.resolve();

  function sendNotify(): void {
    // Chained: a NOTIFY always goes after the commits that asked for it, even if the previous one is still in flight.
    notifying = notifying
      .then(async () => void (await db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${token})`)))
      .catch((error: unknown) => logger.warn({ err: error }, "event announcement failed; the next sweep finds the events"));
  }

  function committed(): void {
    if (closed) return;
    dispatchSoon();
    hearSoon();
    if (notifyTimer) return;
    notifyTimer = setTimeout(() => {
      notifyTimer = null;
      sendNotify();
    }, NOTIFY_WINDOW_MS);
  }

  async function subscribe(): Promise<() => Promise<void>> {
    const client = (db as unknown as { $client: pg.Pool | PgliteLike }).$client;
    const onMessage = (payload?: string) => hear(payload);
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
      void hearAll();
    } catch (error) {
      logger.warn({ err: error }, "event channel reconnect failed");
      setTimeout(() => void reconnect(), 5000).unref();
    }
  }

  return {
    handle(handler) {
      handlers.push(handler);
    },
    handleBatch(handler) {
      batchHandlers.push(handler);
    },
    listen(listener) {
      const first = listeners.size === 0;
      listeners.add(listener);
      if (first && !closed && timer) {
        heardUpTo = null;
        void hearAll(); // from the newest event on
      }
      return () => listeners.delete(listener);
    },
    committed,
    gapsAskedFor: () => gaps.size,
    async flush() {
      do await dispatch();
      while (running);
      await hearAll();
    },
    async start() {
      closed = false;
      heardUpTo = null;
      gaps.clear();
      unlisten = await subscribe();
      await hearAll(); // listeners hear what commits from now on
      timer = setInterval(() => {
        void dispatch();
        void hearAll();
      }, SWEEP_MS);
      timer.unref();
      void dispatch();
    },
    async close() {
      if (notifyTimer) {
        clearTimeout(notifyTimer);
        notifyTimer = null;
        sendNotify(); // the other processes still hear what this one committed last
      }
      await notifying;
      closed = true;
      if (timer) clearInterval(timer);
      timer = null;
      if (soon) clearTimeout(soon);
      soon = null;
      if (hearTimer) clearTimeout(hearTimer);
      hearTimer = null;
      await running;
      await reading;
      await unlisten?.().catch(() => undefined);
      unlisten = null;
    },
  };
}
