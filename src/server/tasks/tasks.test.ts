import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeDealershipWorld, type DealershipWorld } from "../../../tests/helpers/dealership-world";
import { anonymous, createTestApp, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { addDays, localToday } from "../../shared/dealership-clock";
import { taskSchema } from "../../shared/schemas/responses/tasks";
import { mergeLeadsSchema } from "../../shared/schemas/lead-duplicates";
import { viewerOf } from "../auth/tenancy";
import { mergeLeads } from "../leads/merge";
import { makeLead } from "../db/factories-leads";
import { domainEvents } from "../db/schema/events";
import { tasks } from "../db/schema/tasks";

// Follow-up tasks over HTTP (issue 27): each route for a signed-out caller, sales (own and a colleague's), front desk,
// management and another dealership's manager; hostile input; exactly one event per change.

const TZ = "America/Toronto";
let t: TestApp;
let ours: string;
let theirs: string;
let people: DealershipWorld["people"];
let as: DealershipWorld["as"];
let ownLead: string;
let colleagueLead: string;
let poolLead: string;
let theirLead: string;

const HOUR = 3600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

async function taskEvents() {
  const rows = await t.db.select().from(domainEvents).where(like(domainEvents.type, "task.%")).orderBy(domainEvents.id);
  return rows.map((r) => ({ type: r.type, payload: r.payload as { task: { id: string } } }));
}

async function create(who: Agent, leadId: string, body: Record<string, unknown> = {}) {
  return who.post(`/api/leads/${leadId}/tasks`, { type: "call", dueAt: inHours(2), ...body });
}

async function made(who: Agent, leadId: string, body: Record<string, unknown> = {}): Promise<string> {
  const response = await create(who, leadId, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

beforeAll(async () => {
  t = await createTestApp();
  ({ ours, theirs, people, as } = await makeDealershipWorld(t, { name: "Northside", timezone: TZ }));
  ownLead = (await makeLead(t.db, { dealershipId: ours, firstName: "Anneliese", lastName: "Oppenheimer-Vasquez", claimedBy: people.sales.id })).id;
  colleagueLead = (await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales2.id })).id;
  poolLead = (await makeLead(t.db, { dealershipId: ours })).id;
  theirLead = (await makeLead(t.db, { dealershipId: theirs })).id;
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(tasks);
  await t.db.delete(domainEvents);
});

describe("POST /api/leads/{id}/tasks", () => {
  it("creates an open task for the lead's rep, answers it and publishes task.created once", async () => {
    const response = await create(as.sales, ownLead, { type: "email", note: "Send the trade-in quote" });
    expect(response.statusCode).toBe(201);
    const body = taskSchema.parse(response.json());
    expect(body).toMatchObject({
      leadId: ownLead,
      leadName: "Anneliese Oppenheimer-Vasquez",
      type: "email",
      status: "open",
      note: "Send the trade-in quote",
      assignee: { id: people.sales.id, name: "Sam Sales" },
    });
    expect(await taskEvents()).toEqual([{ type: "task.created", payload: expect.objectContaining({ task: expect.objectContaining({ id: body.id }) }) }]);
  });

  it("gives a task on a claimed lead to its rep when front desk writes it, and on an unclaimed lead to the writer", async () => {
    const desk = (await create(as.frontDesk, colleagueLead)).json();
    expect(desk.assignee.id).toBe(people.sales2.id);
    const pool = (await create(as.sales, poolLead)).json();
    expect(pool.assignee.id).toBe(people.sales.id);
  });

  it("takes a time without an offset as the dealership's wall clock", async () => {
    const day = addDays(localToday(TZ), 3);
    const body = (await create(as.sales, ownLead, { dueAt: `${day}T10:00` })).json();
    const local = new Intl.DateTimeFormat("en-CA", { timeZone: TZ, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(body.dueAt));
    expect(local).toBe("10:00");
  });

  it("allows a due time in the past: the task is overdue at once", async () => {
    const id = await made(as.sales, ownLead, { dueAt: inHours(-3) });
    const overdue = await as.sales.get(`/api/dealerships/${ours}/tasks?due=overdue`);
    expect(overdue.json().map((x: { id: string }) => x.id)).toEqual([id]);
  });

  it("lets management give the task to a rep who may open the lead, and refuses one who may not (400 assigneeId)", async () => {
    const given = await create(as.management, poolLead, { assigneeId: people.sales2.id });
    expect(given.statusCode).toBe(201);
    expect(given.json().assignee.id).toBe(people.sales2.id);
    const refused = await create(as.management, colleagueLead, { assigneeId: people.sales.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toHaveProperty("assigneeId");
    const outsider = await create(as.management, poolLead, { assigneeId: people.outsider.id });
    expect(outsider.statusCode).toBe(400);
    expect((await taskEvents()).length).toBe(1);
  });

  it("refuses a sales rep giving a task to a colleague (403)", async () => {
    const response = await create(as.sales, poolLead, { assigneeId: people.sales2.id });
    expect(response.statusCode).toBe(403);
    expect(await t.db.select().from(tasks)).toEqual([]);
  });

  it("answers 404 for a colleague's client, another dealership's lead and a lead that does not exist; 401 signed out", async () => {
    expect((await create(as.sales, colleagueLead)).statusCode).toBe(404);
    expect((await create(as.outsider, ownLead)).statusCode).toBe(404);
    expect((await create(as.management, theirLead)).statusCode).toBe(404);
    expect((await create(as.management, "x".repeat(21))).statusCode).toBe(404);
    expect((await create(anonymous(t.app), ownLead)).statusCode).toBe(401);
    expect(await t.db.select().from(tasks)).toEqual([]);
    expect(await taskEvents()).toEqual([]);
  });

  it.each([
    [{ type: "fax" }, "type"],
    [{ dueAt: "tomorrow" }, "dueAt"],
    [{ dueAt: "2026-02-30T10:00" }, "dueAt"],
    [{ dueAt: "1970-01-01T00:00:00Z" }, "dueAt"],
    [{ dueAt: 1764000000000 }, "dueAt"],
    [{ note: "a note of 2,001 characters".padEnd(2001, ".") }, "note"],
    [{ assigneeId: 42 }, "assigneeId"],
    // A field the route does not take is named in the message (a strict body).
    [{ status: "done" }, "status"],
  ])("refuses %j with 400 naming %s, saving nothing", async (bad, field) => {
    const response = await create(as.sales, ownLead, bad);
    expect(response.statusCode).toBe(400);
    expect([...Object.keys(response.json().fields), response.json().message].join(" ")).toContain(field);
    expect(await t.db.select().from(tasks)).toEqual([]);
    expect(await taskEvents()).toEqual([]);
  });
});

describe("PATCH /api/tasks/{id}", () => {
  it("completes a task once: task.completed, then 409 and no second event", async () => {
    const id = await made(as.sales, ownLead);
    const done = await as.sales.patch(`/api/tasks/${id}`, { status: "done", note: "Left a voicemail" });
    expect(done.statusCode).toBe(200);
    expect(taskSchema.parse(done.json())).toMatchObject({ status: "done", note: "Left a voicemail" });
    expect(done.json().completedAt).not.toBeNull();
    const again = await as.sales.patch(`/api/tasks/${id}`, { status: "cancelled" });
    expect(again.statusCode).toBe(409);
    expect((await taskEvents()).map((e) => e.type)).toEqual(["task.created", "task.completed"]);
  });

  it("reschedules (task.rescheduled, the reminder due again), cancels, edits the note, and publishes nothing for no change", async () => {
    const id = await made(as.sales, ownLead);
    await t.db.update(tasks).set({ remindedAt: new Date() }).where(eq(tasks.id, id));
    const later = inHours(24);
    const moved = await as.sales.patch(`/api/tasks/${id}`, { dueAt: later });
    expect(moved.json().dueAt).toBe(later);
    const [row] = await t.db.select().from(tasks).where(eq(tasks.id, id));
    expect(row!.remindedAt).toBeNull();
    expect((await as.sales.patch(`/api/tasks/${id}`, { dueAt: later })).statusCode).toBe(200);
    expect((await as.sales.patch(`/api/tasks/${id}`, { note: "Ask about financing" })).json().note).toBe("Ask about financing");
    expect((await as.sales.patch(`/api/tasks/${id}`, { status: "cancelled" })).json().status).toBe("cancelled");
    const events = await taskEvents();
    expect(events.map((e) => e.type)).toEqual(["task.created", "task.rescheduled", "task.note_changed", "task.cancelled"]);
    expect(events[1]!.payload).toMatchObject({ previousDueAt: expect.any(String) });
  });

  it("lets management reassign (task.reassigned with the previous assignee); a rep may not give theirs away (403)", async () => {
    const id = await made(as.sales, poolLead);
    expect((await as.sales.patch(`/api/tasks/${id}`, { assigneeId: people.sales2.id })).statusCode).toBe(403);
    const moved = await as.management.patch(`/api/tasks/${id}`, { assigneeId: people.sales2.id, dueAt: inHours(5) });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().assignee.id).toBe(people.sales2.id);
    const events = await taskEvents();
    expect(events.map((e) => e.type)).toEqual(["task.created", "task.reassigned"]);
    expect(events[1]!.payload).toMatchObject({ previousAssigneeId: people.sales.id });
    // Now it is Riley's: Sam no longer finds it.
    expect((await as.sales.patch(`/api/tasks/${id}`, { status: "done" })).statusCode).toBe(404);
    expect((await as.sales2.patch(`/api/tasks/${id}`, { status: "done" })).statusCode).toBe(200);
  });

  it("answers 404 to a colleague, to another dealership's manager and for an unknown id; 401 signed out", async () => {
    const id = await made(as.sales, ownLead);
    expect((await as.sales2.patch(`/api/tasks/${id}`, { status: "done" })).statusCode).toBe(404);
    expect((await as.outsider.patch(`/api/tasks/${id}`, { status: "done" })).statusCode).toBe(404);
    expect((await as.sales.patch(`/api/tasks/${"y".repeat(21)}`, { status: "done" })).statusCode).toBe(404);
    expect((await anonymous(t.app).patch(`/api/tasks/${id}`, { status: "done" })).statusCode).toBe(401);
    // Front desk works everyone's.
    expect((await as.frontDesk.patch(`/api/tasks/${id}`, { status: "done" })).statusCode).toBe(200);
  });

  it.each([
    [{ status: "open" }, "status"],
    [{ dueAt: "2026-13-01T10:00" }, "dueAt"],
    [{}, "body"],
    [{ leadId: "x" }, "leadId"],
  ])("refuses %j with 400 naming %s, changing nothing", async (bad, field) => {
    const id = await made(as.sales, ownLead);
    const response = await as.sales.patch(`/api/tasks/${id}`, bad);
    expect(response.statusCode).toBe(400);
    expect([...Object.keys(response.json().fields), response.json().message].join(" ")).toContain(field);
    expect((await taskEvents()).length).toBe(1);
  });

  it("finds a rep's task no more once the lead is another rep's client", async () => {
    const lead = await makeLead(t.db, { dealershipId: ours });
    const id = await made(as.sales, lead.id);
    await as.sales2.post(`/api/leads/${lead.id}/claim`);
    expect((await as.sales.patch(`/api/tasks/${id}`, { status: "done" })).statusCode).toBe(404);
  });
});

describe("GET /api/dealerships/{id}/tasks", () => {
  const list = (who: Agent, query = "") => who.get(`/api/dealerships/${ours}/tasks${query}`);
  const ids = (response: { json(): unknown }) => (response.json() as Array<{ id: string }>).map((x) => x.id);

  it("lists a rep's own open tasks by due time, split into overdue, today and upcoming; done ones with status=done", async () => {
    const overdue = await made(as.sales, ownLead, { dueAt: inHours(-30) });
    const soon = await made(as.sales, ownLead, { dueAt: new Date(Date.now() + 60_000).toISOString() });
    const nextWeek = await made(as.sales, ownLead, { dueAt: `${addDays(localToday(TZ), 7)}T09:00` });
    const finished = await made(as.sales, ownLead, { dueAt: inHours(-1) });
    await as.sales.patch(`/api/tasks/${finished}`, { status: "done" });
    await made(as.sales2, colleagueLead);

    expect(ids(await list(as.sales))).toEqual([overdue, soon, nextWeek]);
    expect(ids(await list(as.sales, "?scope=mine&due=overdue"))).toEqual([overdue]);
    expect(ids(await list(as.sales, "?due=upcoming"))).toEqual([nextWeek]);
    // "soon" is today unless today ends within the minute.
    const today = ids(await list(as.sales, "?due=today"));
    expect([...today, ...ids(await list(as.sales, "?due=upcoming"))]).toContain(soon);
    expect(ids(await list(as.sales, "?status=done"))).toEqual([finished]);
  });

  it("gives front desk and management everyone's with scope=all, refuses it to sales (403)", async () => {
    const a = await made(as.sales, ownLead, { dueAt: inHours(1) });
    const b = await made(as.sales2, colleagueLead, { dueAt: inHours(2) });
    expect(ids(await list(as.frontDesk, "?scope=all"))).toEqual([a, b]);
    expect(ids(await list(as.management, "?scope=all"))).toEqual([a, b]);
    expect(ids(await list(as.management))).toEqual([]);
    expect((await list(as.sales, "?scope=all")).statusCode).toBe(403);
    expect(ids(await list(as.sales2))).toEqual([b]);
  });

  it("answers 403 for another dealership, 401 signed out, 400 for a bad filter", async () => {
    expect((await list(as.outsider)).statusCode).toBe(403);
    expect((await list(anonymous(t.app))).statusCode).toBe(401);
    const bad = await list(as.sales, "?due=yesterday");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty("due");
    expect((await list(as.sales, "?status=cancelled")).json().fields).toHaveProperty("status");
  });
});

describe("the lead's timeline", () => {
  it("shows a task rescheduled, reassigned and done, each once (not its note), to whoever may open the lead", async () => {
    const lead = await makeLead(t.db, { dealershipId: ours });
    const id = await made(as.sales, lead.id, { note: "Ask about financing" });
    await as.sales.patch(`/api/tasks/${id}`, { dueAt: inHours(30) });
    await as.management.patch(`/api/tasks/${id}`, { assigneeId: people.sales2.id });
    await as.sales2.patch(`/api/tasks/${id}`, { note: "Ask about financing and the trade-in" });
    await as.sales2.patch(`/api/tasks/${id}`, { status: "done" });
    const answer = await as.management.get(`/api/leads/${lead.id}/activity`);
    expect(answer.statusCode).toBe(200);
    const entries = (answer.json() as Array<{ type: string; summary: string; data: Record<string, unknown> }>).filter((e) => e.type.startsWith("task."));
    expect(entries.map((e) => e.type)).toEqual(["task.completed", "task.reassigned", "task.rescheduled"]);
    expect(entries[0]!.summary).toBe("Task done: Call: Ask about financing and the trade-in");
    expect(entries[1]!.data).toMatchObject({ from: people.sales.id, to: people.sales2.id });
  });
});

describe("a merge", () => {
  it("moves the merged-away lead's tasks to the kept lead", async () => {
    const kept = await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id });
    const merged = await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id });
    const id = await made(as.sales, merged.id);
    const choices = mergeLeadsSchema.parse({ mergeLeadId: merged.id }).choices;
    await t.db.transaction((tx) => mergeLeads(tx, viewerOf(people.frontDesk.id, ours, "frontDesk"), kept.id, merged.id, choices));
    const [row] = await t.db.select().from(tasks).where(eq(tasks.id, id));
    expect(row!.leadId).toBe(kept.id);
  });
});

describe("GET /api/leads/{id}/tasks", () => {
  it("lists the lead's tasks the viewer may see, open first", async () => {
    const open = await made(as.sales, ownLead);
    const closed = await made(as.sales, ownLead);
    await as.sales.patch(`/api/tasks/${closed}`, { status: "done" });
    const answer = await as.sales.get(`/api/leads/${ownLead}/tasks`);
    expect(answer.json().map((x: { id: string }) => x.id)).toEqual([open, closed]);
    expect((await as.sales2.get(`/api/leads/${ownLead}/tasks`)).statusCode).toBe(404);
    expect((await as.outsider.get(`/api/leads/${ownLead}/tasks`)).statusCode).toBe(404);
    expect((await as.management.get(`/api/leads/${ownLead}/tasks`)).json()).toHaveLength(2);
  });
});
