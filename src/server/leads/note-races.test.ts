import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { raceRounds } from "../../../tests/helpers/races";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leadActivity, leadNotes } from "../db/schema/activity";
import { domainEvents } from "../db/schema/events";

// Editing and deleting one note many times at once (issue 26, decision 219; the review of the e-mail work): on
// PostgreSQL the requests really overlap. The note's row lock orders them: every edit is whole (its event's previous
// text is the text the one before left), one delete wins and the rest are 404, an edit after the delete is a 404, and
// nothing is half-saved (no event without its change, no entry without its event).

const CONCURRENT = 50;
/** Fifty edits of one row take turns by design; a busy machine needs the time. */
const RACE_TIMEOUT = 180_000;
let t: TestApp;
let ours: string;
let author: Agent;
let manager: Agent;
let authorId: string;

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db)).id;
  const rep = await makeUser(t.db, { firstName: "Sam", lastName: "Sales", memberships: [{ dealershipId: ours, role: "sales" }] });
  const boss = await makeUser(t.db, { memberships: [{ dealershipId: ours, role: "management" }] });
  authorId = rep.id;
  author = await signIn(t.app, rep);
  manager = await signIn(t.app, boss);
}, 240_000);
afterAll(() => t?.close());

async function aNote(): Promise<{ leadId: string; noteId: string }> {
  const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: authorId });
  const response = await author.post(`/api/leads/${lead.id}/notes`, { body: "original" });
  expect(response.statusCode).toBe(201);
  return { leadId: lead.id, noteId: response.json().id };
}

const eventsOf = (type: string, noteId: string) =>
  t.db.select().from(domainEvents).where(and(eq(domainEvents.type, type), sql`${domainEvents.payload}->'note'->>'id' = ${noteId}`)).orderBy(asc(domainEvents.id));
const entriesOf = (type: string, leadId: string) => t.db.select().from(leadActivity).where(and(eq(leadActivity.leadId, leadId), eq(leadActivity.type, type)));

describe(`one note, ${CONCURRENT} requests at once`, () => {
  it("edits: each whole and in one order, the text the last one left", async () => {
    for (let round = 0; round < raceRounds(3); round++) {
      const { leadId, noteId } = await aNote();
      const bodies = Array.from({ length: CONCURRENT }, (_, i) => `edit ${i} of round ${round}`);
      const answers = await Promise.all(bodies.map((body) => author.patch(`/api/notes/${noteId}`, { body })));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(CONCURRENT).fill(200));
      const events = await eventsOf("note.edited", noteId);
      expect(events).toHaveLength(CONCURRENT);
      // A chain: each edit's previous text is what the edit before it wrote, from the original to the last.
      let text = "original";
      for (const event of events) {
        const payload = event.payload as { previousBody: string; note: { body: string } };
        expect(payload.previousBody).toBe(text);
        text = payload.note.body;
      }
      expect(new Set(events.map((e) => (e.payload as { note: { body: string } }).note.body))).toEqual(new Set(bodies));
      const [row] = await t.db.select().from(leadNotes).where(eq(leadNotes.id, noteId));
      expect(row!.body).toBe(text);
      expect(await entriesOf("note.edited", leadId)).toHaveLength(CONCURRENT);
    }
  }, RACE_TIMEOUT);

  it("deletes: one wins, the others are 404, one event and one entry", async () => {
    for (let round = 0; round < raceRounds(3); round++) {
      const { leadId, noteId } = await aNote();
      const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => (i % 2 ? manager : author).delete(`/api/notes/${noteId}`)));
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes).toEqual([200, ...Array(CONCURRENT - 1).fill(404)]);
      expect(await t.db.select().from(leadNotes).where(eq(leadNotes.id, noteId))).toEqual([]);
      expect(await eventsOf("note.deleted", noteId)).toHaveLength(1);
      expect(await entriesOf("note.deleted", leadId)).toHaveLength(1);
    }
  }, RACE_TIMEOUT);

  it("edits and deletes mixed: the delete takes the text the edits before it left, no edit lands after it", async () => {
    for (let round = 0; round < raceRounds(3); round++) {
      const { leadId, noteId } = await aNote();
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) => (i % 5 === 0 ? author.delete(`/api/notes/${noteId}`) : author.patch(`/api/notes/${noteId}`, { body: `mixed ${i}` }))),
      );
      const deletes = answers.filter((_, i) => i % 5 === 0).map((a) => a.statusCode);
      const edits = answers.filter((_, i) => i % 5 !== 0).map((a) => a.statusCode);
      expect(deletes.filter((c) => c === 200)).toHaveLength(1);
      expect(deletes.every((c) => c === 200 || c === 404)).toBe(true);
      expect(edits.every((c) => c === 200 || c === 404)).toBe(true);
      const edited = await eventsOf("note.edited", noteId);
      expect(edited).toHaveLength(edits.filter((c) => c === 200).length);
      const [deleted, ...more] = await eventsOf("note.deleted", noteId);
      expect(more).toEqual([]);
      // Every edit committed before the delete; the delete carries the last edit's text.
      expect(edited.every((e) => e.id < deleted!.id)).toBe(true);
      const last = edited.at(-1)?.payload as { note: { body: string } } | undefined;
      expect((deleted!.payload as { note: { body: string } }).note.body).toBe(last?.note.body ?? "original");
      expect(await t.db.select().from(leadNotes).where(eq(leadNotes.id, noteId))).toEqual([]);
      expect(await entriesOf("note.edited", leadId)).toHaveLength(edited.length);
      expect(await entriesOf("note.deleted", leadId)).toHaveLength(1);
    }
  }, RACE_TIMEOUT);
});
