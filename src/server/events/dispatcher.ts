import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import pg from "pg";
import type { Logger } from "pino";
import { parseDomainEvent, type DomainEvent, type DomainEventType } from "../../shared/events";
import type { Db, Tx } from "../db/client";
import { fixedStatement, runStatement } from "../db/prepared";
import { domainEvents, eventSubscriberFailures } from "../db/schema/events";
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
/**
 * A subscriber that failed on an event this often is set aside for that event (its failure row kept, with the last
 * error) instead of retried forever; so is an event that cannot be dispatched at all (unreadable).
 */
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

/** The event of one type, as subscribers get it. */
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }> & { id: number; createdAt: Date };
export type EventHandler<T extends DomainEventType = DomainEventType> = (tx: Tx, event: EventOf<T>) => Promise<void>;
/** Once-only work done for a batch's events of its types at once (one query for many events). */
export type EventBatchHandler<T extends DomainEventType = DomainEventType> = (tx: Tx, events: Array<EventOf<T>>) => Promise<void>;
export type EventListener = (event: DomainEvent & { id: number }) => void;
/** A subscriber's name: what its failures are counted under (event_subscriber_failures.subscriber). */
export interface SubscriberOptions {
  name: string;
}
/** One handler per event type, for `subscribeEach`. */
export type EventHandlers = { [T in DomainEventType]?: EventHandler<T> };

export interface EventBus {
  /**
   * Subscribes once-only work to an event type (or several): it runs in one process, in the dispatching transaction,
   * in a savepoint of its own (decision 186). A subscriber's name may take many types, one handler each.
   */
  on<T extends DomainEventType>(types: T | readonly T[], handler: EventHandler<T>, options: SubscriberOptions): void;
  /** The same, for work that takes the batch's events of its types together (after the per-event handlers). */
  onBatch<T extends DomainEventType>(types: readonly T[], handler: EventBatchHandler<T>, options: SubscriberOptions): void;
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
  /** Started, not closed, and listening on the events channel (readiness). */
  isRunning(): boolean;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Subscribes each handler of a map to its event type, under one name (an area's subscribers in one place). */
export function subscribeEach(bus: Pick<EventBus, "on">, handlers: EventHandlers, options: SubscriberOptions): void {
  for (const [type, handler] of Object.entries(handlers) as Array<[DomainEventType, EventHandler]>) bus.on(type, handler, options);
}

interface PgliteLike {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

export function createEventBus(options: { db: Db; logger: Logger }): EventBus {
  const { db, logger } = options;
  /** Each subscriber's work, by name: per-event handlers by type, or one batch handler for its types. */
  interface Subscriber {
    name: string;
    handlers: Map<DomainEventType, EventHandler>;
    batch: { types: Set<DomainEventType>; handler: EventBatchHandler } | null;
  }
  const subscribers = new Map<string, Subscriber>();
  const listeners = new Set<EventListener>();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let closed = false;
  let channelUp = false;

  type Row = typeof domainEvents.$inferSelect;
  type Dispatched = EventOf<DomainEventType>;

  function subscriberNamed(name: string): Subscriber {
    let subscriber = subscribers.get(name);
    if (!subscriber) subscribers.set(name, (subscriber = { name, handlers: new Map(), batch: null }));
    return subscriber;
  }

  /** One subscriber's work on some events (its types only). */
  async function runSubscriber(tx: Tx, subscriber: Subscriber, events: Dispatched[]): Promise<void> {
    for (const event of events) await subscriber.handlers.get(event.type)?.(tx, event);
    if (subscriber.batch) {
      const { types, handler } = subscriber.batch;
      const mine = events.filter((event) => types.has(event.type));
      if (mine.length) await handler(tx, mine);
    }
  }

  function subscribes(subscriber: Subscriber, type: DomainEventType): boolean {
    return subscriber.handlers.has(type) || Boolean(subscriber.batch?.types.has(type));
  }

  const toEvent = (row: Row): Dispatched => ({ ...parseDomainEvent(row), id: row.id, createdAt: row.createdAt }) as Dispatched;

  /**
   * Runs one subscriber on one event in a savepoint: a failure rolls back only its own writes and is counted against
   * it for this event (event_subscriber_failures), for a retry of it alone. Answers whether it succeeded.
   */
  async function runIsolated(tx: Tx, subscriber: Subscriber, event: Dispatched): Promise<boolean> {
    try {
      await tx.transaction((savepoint) => runSubscriber(savepoint, subscriber, [event]));
      return true;
    } catch (error) {
      logger.error({ err: error, eventId: event.id, subscriber: subscriber.name }, "event subscriber failed");
      const lastError = error instanceof Error ? error.message.slice(0, 500) : "failed";
      await tx
        .insert(eventSubscriberFailures)
        .values({ eventId: event.id, subscriber: subscriber.name, lastError })
        .onConflictDoUpdate({
          target: [eventSubscriberFailures.eventId, eventSubscriberFailures.subscriber],
          set: { failures: sql`${eventSubscriberFailures.failures} + 1`, lastError },
        });
      return false;
    }
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
   * Dispatches up to BATCH pending events in one transaction (a busy dealership's claims share one commit), every
   * subscriber straight in the transaction: a savepoint per subscriber and event would cost each claim statements
   * (bench:statements) for a failure that almost never comes. When one fails, the batch rolls back and its events go
   * one by one, each subscriber in its own savepoint (dispatchAlone): the same outcome as if every subscriber had been
   * isolated from the start (decision 186). Answers whether to go on at once.
   */
  async function dispatchBatch(): Promise<boolean> {
    let taken: number[] = [];
    try {
      return await db.transaction(async (tx) => {
        const rows = await takePending(tx, BATCH);
        taken = rows.map((r) => r.id);
        const events = rows.map(toEvent);
        if (events.length) for (const subscriber of subscribers.values()) await runSubscriber(tx, subscriber, events);
        return rows.length === BATCH;
      });
    } catch (error) {
      if (taken.length === 0) throw error;
      for (const id of taken) await dispatchAlone(id);
      return false;
    }
  }

  /**
   * One event, each of its subscribers in a savepoint: the event is marked dispatched with the work of those that
   * succeeded; each that failed has a failure row and is retried alone (retryFailed). Only an event that cannot be
   * read at all counts a failure of its own.
   */
  async function dispatchAlone(id: number): Promise<void> {
    try {
      await db.transaction(async (tx) => {
        const [row] = await takePending(tx, 1, id);
        if (!row) return;
        const event = toEvent(row);
        for (const subscriber of subscribers.values()) if (subscribes(subscriber, event.type)) await runIsolated(tx, subscriber, event);
      });
    } catch (error) {
      logger.error({ err: error, eventId: id }, "event dispatch failed");
      await db
        .update(domainEvents)
        .set({ failures: sql`${domainEvents.failures} + 1`, lastError: error instanceof Error ? error.message.slice(0, 500) : "failed" })
        .where(eq(domainEvents.id, id));
    }
  }

  /** Set by the sweep and flush(): failed subscribers are tried again then, not on every wake-up. */
  let retryDue = false;

  /**
   * Tries each failed subscriber again on its event, alone and in its own savepoint: a success deletes its failure
   * row, a failure counts one more; at MAX_DISPATCH_FAILURES the row stays, set aside. Rows another process is
   * retrying are skipped.
   */
  async function retryFailed(): Promise<void> {
    await db.transaction(async (tx) => {
      const due = await tx
        .select({ subscriber: eventSubscriberFailures.subscriber, event: domainEvents })
        .from(eventSubscriberFailures)
        .innerJoin(domainEvents, eq(domainEvents.id, eventSubscriberFailures.eventId))
        .where(lt(eventSubscriberFailures.failures, MAX_DISPATCH_FAILURES))
        .orderBy(asc(eventSubscriberFailures.eventId))
        .limit(BATCH)
        .for("update", { of: eventSubscriberFailures, skipLocked: true });
      for (const { subscriber: name, event: row } of due) {
        const subscriber = subscribers.get(name);
        if (!subscriber) continue; // not registered in this process (yet): another process, or the next start, retries it
        if (await runIsolated(tx, subscriber, toEvent(row))) {
          await tx
            .delete(eventSubscriberFailures)
            .where(and(eq(eventSubscriberFailures.eventId, row.id), eq(eventSubscriberFailures.subscriber, name)));
        }
      }
    });
  }

  async function drainPending(): Promise<void> {
    if (retryDue) {
      retryDue = false;
      await retryFailed();
    }
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
        channelUp = false;
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
      channelUp = true;
      void dispatch();
      void hearAll();
    } catch (error) {
      logger.warn({ err: error }, "event channel reconnect failed");
      setTimeout(() => void reconnect(), 5000).unref();
    }
  }

  return {
    on(types, handler, { name }) {
      const subscriber = subscriberNamed(name);
      for (const type of typeof types === "string" ? [types] : types) {
        if (subscriber.handlers.has(type) || subscriber.batch?.types.has(type)) throw new Error(`${name} already subscribes to ${type}`);
        subscriber.handlers.set(type, handler as unknown as EventHandler);
      }
    },
    onBatch(types, handler, { name }) {
      const subscriber = subscriberNamed(name);
      if (subscriber.batch || types.some((type) => subscriber.handlers.has(type))) throw new Error(`${name} already subscribes to these events`);
      subscriber.batch = { types: new Set(types), handler: handler as unknown as EventBatchHandler };
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
    isRunning: () => !closed && timer !== null && channelUp,
    async flush() {
      retryDue = true;
      do await dispatch();
      while (running);
      await hearAll();
    },
    async start() {
      closed = false;
      heardUpTo = null;
      gaps.clear();
      unlisten = await subscribe();
      channelUp = true;
      await hearAll(); // listeners hear what commits from now on
      timer = setInterval(() => {
        retryDue = true;
        void dispatch();
        void hearAll();
      }, SWEEP_MS);
      timer.unref();
      retryDue = true;
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
