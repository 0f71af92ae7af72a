import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publishedTypes } from "../../../tests/helpers/published";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { viewerOf, type Viewer } from "../auth/tenancy";
import type { Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { domainEvents } from "../db/schema/events";
import { tasks } from "../db/schema/tasks";
import { changeFollowUpRules, changeTask, createTask } from "./commands";

// The tasks' commands without HTTP (issue 25): each change publishes exactly one event in its transaction, a change
// that changes nothing publishes none, and a refused change publishes none.

let database: Database & { drop(): Promise<void> };
let manager: Viewer;
let rep: Viewer;
let leadId: string;

const HOUR = 3600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR);
const eventTypes = () => publishedTypes(database.db, "task.", "follow_up_rules.updated");

beforeAll(async () => {
  database = await createTestDatabase();
  const dealershipId = (await makeDealership(database.db, { name: "Commands Motors" })).id;
  const boss = await makeUser(database.db, { memberships: [{ dealershipId, role: "management" }] });
  const sales = await makeUser(database.db, { memberships: [{ dealershipId, role: "sales" }] });
  manager = viewerOf(boss.id, dealershipId, "management");
  rep = viewerOf(sales.id, dealershipId, "sales");
  leadId = (await makeLead(database.db, { dealershipId, claimedBy: sales.id })).id;
});
afterAll(() => database.drop());
beforeEach(async () => {
  await database.db.delete(tasks);
  await database.db.delete(domainEvents);
});

describe("the tasks' commands", () => {
  it("create, then each change, publish exactly one event each; no change publishes none", async () => {
    const task = await createTask(database.db, manager, leadId, { type: "call", dueAt: inHours(2), assigneeId: rep.userId, note: null });
    expect(await eventTypes()).toEqual(["task.created"]);
    await changeTask(database.db, rep, task.id, { note: null });
    expect(await eventTypes()).toEqual(["task.created"]);
    await changeTask(database.db, rep, task.id, { dueAt: inHours(3), note: "Ask about the trade-in" });
    await changeTask(database.db, manager, task.id, { assigneeId: manager.userId, dueAt: inHours(4) });
    await changeTask(database.db, manager, task.id, { status: "done", note: "Called" });
    expect(await eventTypes()).toEqual(["task.created", "task.rescheduled", "task.reassigned", "task.completed"]);
  });

  it("a refused change publishes nothing and writes nothing", async () => {
    const task = await createTask(database.db, manager, leadId, { type: "call", dueAt: inHours(2), assigneeId: rep.userId, note: null });
    await changeTask(database.db, manager, task.id, { status: "cancelled" });
    await expect(changeTask(database.db, manager, task.id, { note: "Too late" })).rejects.toMatchObject({ statusCode: 409 });
    await expect(changeTask(database.db, manager, task.id, { status: "done" })).rejects.toMatchObject({ statusCode: 409 });
    await expect(createTask(database.db, manager, leadId, { type: "call", dueAt: inHours(2), assigneeId: "nobody", note: null })).rejects.toMatchObject({ statusCode: 400 });
    expect(await eventTypes()).toEqual(["task.created", "task.cancelled"]);
    const [row] = await database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row).toMatchObject({ status: "cancelled", note: null });
  });

  it("the follow-up rules publish one follow_up_rules.updated per change and none when saved as they are", async () => {
    await changeFollowUpRules(database.db, manager, { testDriveReturned: { time: "11:30" } });
    await changeFollowUpRules(database.db, manager, { testDriveReturned: { time: "11:30" } });
    expect(await eventTypes()).toEqual(["follow_up_rules.updated"]);
  });
});
