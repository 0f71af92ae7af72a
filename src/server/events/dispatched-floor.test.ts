import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/helpers/test-app";
import type { DomainEvent } from "../../shared/events";
import { rowsOf } from "../db/client";
import { makeDealership } from "../db/factories";
import { createEventBus, type EventBus } from "./dispatcher";
import { publish } from "./outbox";

// The dispatched floor (dispatcher.ts, DISPATCHED_FLOOR_AGE_MS): a dispatch woken by new events starts above the
// newest id a full sweep saw long enough ago, so it never walks the pending index's entries of events dispatched long
// since; an event with an id below that floor that commits late is still dispatched, by the next full sweep.

let t: TestApp;
let bus: EventBus;
let dealershipId: string;
const dispatched: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.events.close(); // this test's own bus is the only dispatcher
  dealershipId = (await makeDealership(t.db, { name: "Floor Motors" })).id;
  bus = createEventBus({ db: t.db, logger: pino({ level: "silent" }), dispatchedFloorAgeMs: 0 });
  bus.handle(async (_tx, event) => {
    if (event.type === "lead.created") dispatched.push(event.payload.lead.firstName);
  });
});
afterAll(async () => {
  await bus.close();
  await t.close();
});

const leadCreated = (firstName: string): DomainEvent => ({
  type: "lead.created",
  dealershipId,
  actorId: null,
  payload: { lead: { id: `lead-${firstName}`, firstName, lastName: "Buyer", email: null, phone: null, description: null, status: "new", claimedBy: null } },
});

const newestId = async () => rowsOf<{ id: number }>(await t.db.execute(sql`select coalesce(max(id), 0)::int as id from domain_events`))[0]!.id;

async function woken(): Promise<void> {
  bus.committed();
  await new Promise((resolve) => setTimeout(resolve, 150));
}

it("a woken dispatch starts above the swept floor; the next full sweep still takes an event below it", async () => {
  await publish(t.db, leadCreated("Before"));
  const late = (await newestId()) + 5;
  // Ids late-5 .. late+5 are skipped: as if a transaction had taken `late` and not committed yet.
  await t.db.execute(sql`select setval('domain_events_id_seq', ${late + 5})`);
  await publish(t.db, leadCreated("Anchor"));
  await bus.flush(); // a full sweep: the floor is now the newest id it saw, above `late`
  expect(dispatched).toEqual(["Before", "Anchor"]);

  // That transaction commits now: an id below the floor, pending.
  await t.db.execute(sql`insert into domain_events (id, type, dealership_id, payload)
    values (${late}, 'lead.created', ${dealershipId}, ${JSON.stringify(leadCreated("Late").payload)}::jsonb)`);
  await publish(t.db, leadCreated("After"));
  await woken();
  expect(dispatched).toEqual(["Before", "Anchor", "After"]); // above the floor: at once, without walking below it

  await bus.flush();
  expect(dispatched).toEqual(["Before", "Anchor", "After", "Late"]); // below it: by the next full sweep
});
