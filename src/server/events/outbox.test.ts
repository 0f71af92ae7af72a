import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, TEST_MAIL_RETRY, type TestApp } from "../../../tests/helpers/test-app";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import type { DomainEvent } from "../../shared/events";
import { buildApp } from "../app";
import { testConfig } from "../config";
import { rowsOf, type Tx } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { domainEvents, eventSubscriberFailures } from "../db/schema/events";
import { emailsLog } from "../db/schema/notifications";
import { createMailer } from "../mail/mailer";
import { createEventBus, MAX_DISPATCH_FAILURES, type EventBus } from "./dispatcher";
import { publish } from "./outbox";

// The outbox (decision 051): an event commits with its change or not at all, and a committed event's e-mail goes out
// even when the process that wrote it stopped before dispatching it.

let t: TestApp;
let dealershipId: string;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db, { name: "Outbox Motors" })).id;
});
afterAll(() => t.close());

const leadEvent = (firstName: string): DomainEvent => ({
  type: "lead.created",
  dealershipId,
  actorId: null,
  payload: {
    lead: { id: `lead-${firstName}`, firstName, lastName: "Buyer", email: null, phone: null, description: null, status: "new", claimedBy: null },
  },
});

async function eventsNamed(firstName: string) {
  return t.db.select().from(domainEvents).where(sql`${domainEvents.payload}->'lead'->>'firstName' = ${firstName}`);
}

async function subscribeManagerToNewLeads(app: TestApp["app"], db: TestApp["db"], email: string) {
  const manager = await makeUser(db, { email, memberships: [{ dealershipId, role: "management" }] });
  const agent = await signIn(app, manager);
  const triggers = (await agent.get(`/api/dealerships/${dealershipId}/email-notifications/triggers`)).json() as Array<{ id: string; name: string }>;
  const trigger = triggers.find((x) => x.name === "lead_created")!;
  const subscribed = await agent.post(`/api/dealerships/${dealershipId}/email-notifications/subscriptions`, {
    userId: manager.id,
    triggerId: trigger.id,
    isSubscribed: true,
  });
  expect(subscribed.statusCode).toBe(200);
  return { manager, agent };
}

describe("publishing", () => {
  it("writes nothing when the change's transaction rolls back", async () => {
    const heard: number[] = [];
    const stop = t.app.events.listen((event) => heard.push(event.id));
    await expect(
      t.db.transaction(async (tx) => {
        await publish(tx, leadEvent("Rolledback"));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await t.app.events.flush();
    stop();
    expect(await eventsNamed("Rolledback")).toEqual([]);
    expect(heard).toEqual([]);
  });

  it("refuses an event whose payload does not fit its schema, so nothing malformed reaches a subscriber", async () => {
    const bad = { ...leadEvent("Malformed"), payload: { lead: { id: 1 } } } as unknown as DomainEvent;
    await expect(t.db.transaction((tx) => publish(tx, bad))).rejects.toThrow();
    expect(await eventsNamed("Malformed")).toEqual([]);
  });

  it("runs each committed event's handlers once and lets every listener of the process hear it", async () => {
    const heard: string[] = [];
    const stop = t.app.events.listen((event) => {
      if (event.type === "lead.created") heard.push(event.payload.lead.firstName);
    });
    await t.db.transaction((tx) => publish(tx, leadEvent("Committed")));
    await t.app.events.flush();
    await t.app.events.flush();
    const [row] = await eventsNamed("Committed");
    expect(row?.dispatchedAt).toBeInstanceOf(Date);
    // The listener is called from the NOTIFY; give the notification its turn of the event loop.
    await expect.poll(() => heard, { timeout: 15_000 }).toEqual(["Committed"]);
    stop();
  });
});

describe("a process stopped after the commit", () => {
  it("leaves the event pending, and the next process sends its e-mail", async () => {
    await subscribeManagerToNewLeads(t.app, t.db, "outbox.boss@example.com");
    const desk = await makeUser(t.db, { memberships: [{ dealershipId, role: "frontDesk" }] });
    const deskAgent = await signIn(t.app, desk);

    // The first process stops dispatching (as if killed) right after the lead and its event commit.
    await t.app.events.close();
    const created = await deskAgent.post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Kept", lastName: "Afterkill" });
    expect(created.statusCode).toBe(201);
    await t.app.mailer.drain();
    const [pending] = await eventsNamed("Kept");
    expect(pending?.dispatchedAt).toBeNull();
    const mailFor = () => t.db.select().from(emailsLog).where(eq(emailsLog.to, "outbox.boss@example.com"));
    expect(await mailFor()).toEqual([]);

    // A new process on the same database picks it up when it starts.
    const config = testConfig();
    const mailer = createMailer({ database: t.database, logger: pino({ level: "silent" }), from: config.mailFrom, retry: TEST_MAIL_RETRY, closeDrainMs: 0 });
    const next = await buildApp({ config, database: t.database, mailer });
    try {
      await next.mailer.start();
      await next.ready();
      await deliverMail(next);
      const mails = await mailFor();
      expect(mails.map((m) => [m.emailType, m.status])).toEqual([["lead_created", "sent"]]);
      expect(mails[0]?.subject).toContain("New Lead: Kept Afterkill");
      expect((await eventsNamed("Kept"))[0]?.dispatchedAt).toBeInstanceOf(Date);
    } finally {
      await next.close();
      await t.app.events.start();
    }
  });
});

describe("subscribers, each isolated (decision 186)", () => {
  // What test subscribers wrote: a row per (subscriber, event), in the dispatching transaction.
  const probes = async (firstName: string) =>
    rowsOf<{ name: string }>(
      await t.db.execute(sql`select p.name from subscriber_probe p join ${domainEvents} e on e.id = p.event_id
        where e.payload->'lead'->>'firstName' = ${firstName} order by p.name`),
    ).map((row) => row.name);
  const failuresOf = async (firstName: string) =>
    rowsOf<{ subscriber: string; failures: number; last_error: string }>(
      await t.db.execute(sql`select f.subscriber, f.failures, f.last_error from ${eventSubscriberFailures} f
        join ${domainEvents} e on e.id = f.event_id where e.payload->'lead'->>'firstName' = ${firstName}`),
    );
  let mend = false;
  // A bus of its own with only the test's subscribers, dispatching when the test flushes it (no LISTEN, no sweep): the
  // app's bus is stopped meanwhile, so it neither takes these events nor retries at moments the test does not choose.
  let bus: EventBus;

  afterAll(async () => {
    await bus.close();
    await t.app.events.start();
  });

  beforeAll(async () => {
    await t.app.events.close();
    bus = createEventBus({ db: t.db, logger: pino({ level: "silent" }) });
    await t.db.execute(sql`create table subscriber_probe (event_id bigint not null, name text not null)`);
    const probe = (name: string) => async (tx: Tx, event: { id: number }) => {
      await tx.execute(sql`insert into subscriber_probe (event_id, name) values (${event.id}, ${name})`);
    };
    const writer = probe("writer");
    const fragile = probe("fragile");
    // Writes, then throws for Poison (until mended) and Hopeless (always): its own write must roll back with it.
    bus.on(
      "lead.created",
      async (tx, event) => {
        const name = event.payload.lead.firstName;
        if (!["Poison", "Healthy", "Hopeless"].includes(name)) return;
        await fragile(tx, event);
        if ((name === "Poison" && !mend) || name === "Hopeless") throw new Error("subscriber broke");
      },
      { name: "test-fragile" },
    );
    bus.on(
      "lead.created",
      async (tx, event) => {
        if (["Poison", "Healthy", "Hopeless"].includes(event.payload.lead.firstName)) await writer(tx, event);
      },
      { name: "test-writer" },
    );
  });

  it("one subscriber throwing does not stop the others' writes, and is retried on its own until it succeeds", async () => {
    await t.db.transaction(async (tx) => {
      await publish(tx, leadEvent("Poison"));
      await publish(tx, leadEvent("Healthy"));
    });
    await bus.flush();
    // Both events dispatched; the writer wrote for both, the fragile one only for Healthy (its Poison write rolled back).
    expect((await eventsNamed("Poison"))[0]?.dispatchedAt).toBeInstanceOf(Date);
    expect((await eventsNamed("Healthy"))[0]?.dispatchedAt).toBeInstanceOf(Date);
    expect(await probes("Healthy")).toEqual(["fragile", "writer"]);
    expect(await probes("Poison")).toEqual(["writer"]);
    expect(await failuresOf("Poison")).toEqual([{ subscriber: "test-fragile", failures: 1, last_error: "subscriber broke" }]);
    expect(await failuresOf("Healthy")).toEqual([]);

    await bus.flush(); // retried alone: fails again, counted
    expect((await failuresOf("Poison"))[0]?.failures).toBe(2);
    expect(await probes("Poison")).toEqual(["writer"]);

    mend = true;
    await bus.flush(); // retried alone: succeeds; the writer does not run again
    expect(await failuresOf("Poison")).toEqual([]);
    expect(await probes("Poison")).toEqual(["fragile", "writer"]);
  });

  it("a subscriber that keeps failing is set aside for that event after MAX_DISPATCH_FAILURES tries", async () => {
    await t.db.transaction((tx) => publish(tx, leadEvent("Hopeless")));
    for (let i = 0; i < MAX_DISPATCH_FAILURES + 2; i++) await bus.flush();
    const [event] = await eventsNamed("Hopeless");
    expect(event?.dispatchedAt).toBeInstanceOf(Date);
    expect(event?.failures).toBe(0);
    expect(await failuresOf("Hopeless")).toEqual([{ subscriber: "test-fragile", failures: MAX_DISPATCH_FAILURES, last_error: "subscriber broke" }]);
    expect(await probes("Hopeless")).toEqual(["writer"]);
  });

  it("a subscriber name takes each event type once", () => {
    expect(() => bus.on("lead.created", async () => undefined, { name: "test-writer" })).toThrow("test-writer already subscribes to lead.created");
  });
});

describe("hearing in every process (decision 120)", () => {
  /** A second app process on the same database (its own LISTEN connection and dispatcher). */
  async function secondProcess() {
    const config = testConfig();
    const mailer = createMailer({ database: t.database, logger: pino({ level: "silent" }), from: config.mailFrom, retry: TEST_MAIL_RETRY, closeDrainMs: 0 });
    const other = await buildApp({ config, database: t.database, mailer });
    await other.ready();
    return other;
  }

  it("a claim, announced after its commit rather than inside it, is heard by a listener of another process within a second", async () => {
    const other = await secondProcess();
    const heard: string[] = [];
    const stop = other.events.listen((event) => {
      if (event.type === "lead.claimed") heard.push(event.payload.lead.firstName);
    });
    try {
      const rep = await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] });
      const repAgent = await signIn(t.app, rep);
      const desk = await makeUser(t.db, { memberships: [{ dealershipId, role: "frontDesk" }] });
      const created = await (await signIn(t.app, desk)).post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Heardelsewhere", lastName: "Buyer" });
      expect(created.statusCode).toBe(201);
      const lead = created.json() as { id: string };
      const startedAt = Date.now();
      expect((await repAgent.post(`/api/leads/${lead.id}/claim`)).statusCode).toBe(200);
      await expect.poll(() => heard, { timeout: 1000, interval: 20 }).toEqual(["Heardelsewhere"]);
      expect(Date.now() - startedAt).toBeLessThan(1000);
      // Heard by every process, dispatched (handlers run) by one.
      await t.app.events.flush();
      await other.events.flush();
      const [claimedEvent] = await t.db
        .select()
        .from(domainEvents)
        .where(sql`${domainEvents.type} = 'lead.claimed' and ${domainEvents.payload}->'lead'->>'id' = ${lead.id}`);
      expect(claimedEvent?.dispatchedAt).toBeInstanceOf(Date);
    } finally {
      stop();
      await other.close();
    }
  });

  it("hears an event that commits after a later one (ids are taken at insert, seen at commit), once each", async () => {
    const heard: number[] = [];
    const stop = t.app.events.listen((event) => heard.push(event.id));
    try {
      await t.app.events.flush();
      // An id taken by a transaction still open...
      const [{ id: early }] = rowsOf<{ id: string }>(await t.db.execute(sql`select nextval('domain_events_id_seq')::text as id`)) as [{ id: string }];
      // ...while a later event commits and is heard,
      await t.db.transaction((tx) => publish(tx, leadEvent("Later")));
      const [later] = await eventsNamed("Later");
      await expect.poll(() => heard.includes(later!.id), { timeout: 15_000 }).toBe(true);
      // ...then the early one commits, and is heard too.
      await t.db.execute(sql`insert into ${domainEvents} (id, type, dealership_id, actor_id, payload)
        values (${Number(early)}, 'lead.created', ${dealershipId}, null, ${JSON.stringify(leadEvent("Earlier").payload)}::jsonb)`);
      t.app.events.committed();
      await expect.poll(() => heard.includes(Number(early)), { timeout: 15_000 }).toBe(true);
      await t.app.events.flush();
      expect(heard.filter((id) => id === Number(early) || id === later!.id).sort()).toEqual([Number(early), later!.id].sort());
    } finally {
      stop();
    }
  });

  it("a listener that joins after thousands of ids were burned (pruned events, rolled-back writes) asks for none of them", async () => {
    const bus = createEventBus({ db: t.db, logger: pino({ level: "silent" }) });
    await bus.start();
    try {
      // Events that were pruned, or ids rolled-back transactions took: the sequence is 5,000 ahead of the newest row.
      await t.db.execute(sql`select setval('domain_events_id_seq', nextval('domain_events_id_seq') + 5000)`);
      const heard: string[] = [];
      const stop = bus.listen((event) => {
        if (event.type === "lead.created") heard.push(event.payload.lead.firstName);
      });
      try {
        // Joining starts a read that syncs to the newest id: let it finish, so the event below commits after it (on a
        // busy machine the commit could land first and be counted as already heard).
        await bus.flush();
        await t.db.transaction((tx) => publish(tx, leadEvent("AfterBurned")));
        bus.committed();
        await expect.poll(() => heard, { timeout: 15_000 }).toEqual(["AfterBurned"]);
        // Only ids taken after the listener joined can still be in flight; none were skipped.
        expect(bus.gapsAskedFor()).toBe(0);
      } finally {
        stop();
      }
    } finally {
      await bus.close();
    }
  });
});
