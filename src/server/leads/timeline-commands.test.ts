import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publishedTypes } from "../../../tests/helpers/published";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { viewerOf, type Viewer } from "../auth/tenancy";
import type { Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leadCalls, leadNotes } from "../db/schema/activity";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { addNote, deleteNote, editNote, logCall } from "./timeline-commands";

// The notes' and calls' commands without HTTP (issue 25): each change publishes exactly one event in its transaction,
// a note saved as it is publishes none, and a refused change (403, 404, 400) publishes and writes nothing.

let database: Database & { drop(): Promise<void> };
let rep: Viewer;
let colleague: Viewer;
let manager: Viewer;
let outsider: Viewer;
let leadId: string;

const eventTypes = () => publishedTypes(database.db, "note.", "call.logged");

beforeAll(async () => {
  database = await createTestDatabase();
  const dealershipId = (await makeDealership(database.db, { name: "Timeline Motors" })).id;
  const otherId = (await makeDealership(database.db, { name: "Other Motors" })).id;
  const member = (role: "sales" | "management") => makeUser(database.db, { memberships: [{ dealershipId, role }] });
  rep = viewerOf((await member("sales")).id, dealershipId, "sales");
  colleague = viewerOf((await member("sales")).id, dealershipId, "sales");
  manager = viewerOf((await member("management")).id, dealershipId, "management");
  outsider = viewerOf((await makeUser(database.db, { memberships: [{ dealershipId: otherId, role: "management" }] })).id, otherId, "management");
  leadId = (await makeLead(database.db, { dealershipId, claimedBy: rep.userId })).id;
});
afterAll(() => database.drop());
beforeEach(async () => {
  await database.db.delete(leadNotes);
  await database.db.delete(domainEvents);
});

describe("the notes' commands", () => {
  it("add, edit and delete publish one event each; an edit to the same text publishes none", async () => {
    const note = await addNote(database.db, rep, leadId, { body: "Wants a wagon", mentions: [manager.userId] });
    expect(note).toMatchObject({ leadId, body: "Wants a wagon", author: { id: rep.userId }, mentions: [{ id: manager.userId }] });
    const same = await editNote(database.db, rep, note.id, "Wants a wagon");
    expect(same).toEqual(note);
    expect(await eventTypes()).toEqual(["note.added"]);
    expect(await editNote(database.db, rep, note.id, "Wants a red wagon")).toMatchObject({ id: note.id, body: "Wants a red wagon" });
    await deleteNote(database.db, rep, note.id);
    expect(await eventTypes()).toEqual(["note.added", "note.edited", "note.deleted"]);
    expect(await database.db.select().from(leadNotes)).toEqual([]);
  });

  it("a refused change publishes nothing and writes nothing", async () => {
    await expect(addNote(database.db, rep, leadId, { body: "Hi", mentions: [outsider.userId] })).rejects.toMatchObject({ statusCode: 400 });
    await expect(addNote(database.db, colleague, leadId, { body: "Not my client" })).rejects.toMatchObject({ statusCode: 404 });
    await expect(addNote(database.db, outsider, leadId, { body: "Not our lead" })).rejects.toMatchObject({ statusCode: 404 });
    const note = await addNote(database.db, rep, leadId, { body: "Mine" });
    await expect(editNote(database.db, manager, note.id, "Management's words")).rejects.toMatchObject({ statusCode: 403 });
    await expect(deleteNote(database.db, colleague, note.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(editNote(database.db, outsider, note.id, "Theirs")).rejects.toMatchObject({ statusCode: 404 });
    await expect(deleteNote(database.db, outsider, note.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await eventTypes()).toEqual(["note.added"]);
    const [row] = await database.db.select().from(leadNotes).where(eq(leadNotes.id, note.id));
    expect(row).toMatchObject({ body: "Mine", authorId: rep.userId });
  });

  it("management deletes anyone's note; a second delete is a 404 that publishes nothing", async () => {
    const note = await addNote(database.db, rep, leadId, { body: "Old news" });
    await deleteNote(database.db, manager, note.id);
    await expect(deleteNote(database.db, manager, note.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(editNote(database.db, rep, note.id, "Too late")).rejects.toMatchObject({ statusCode: 404 });
    expect(await eventTypes()).toEqual(["note.added", "note.deleted"]);
  });
});

describe("logging a call", () => {
  it("publishes one call.logged and makes it the lead's first answer; a lead the viewer may not open none", async () => {
    const fresh = await makeLead(database.db, { dealershipId: rep.dealershipId });
    const call = await logCall(database.db, rep, fresh.id, { outcome: "voicemail", notes: "Left a message" });
    expect(call).toMatchObject({ leadId: fresh.id, outcome: "voicemail", notes: "Left a message" });
    await expect(logCall(database.db, colleague, leadId, { outcome: "reached" })).rejects.toMatchObject({ statusCode: 404 });
    await expect(logCall(database.db, outsider, fresh.id, { outcome: "reached" })).rejects.toMatchObject({ statusCode: 404 });
    expect(await eventTypes()).toEqual(["call.logged"]);
    expect(await database.db.select().from(leadCalls)).toEqual([expect.objectContaining({ leadId: fresh.id })]);
    const [lead] = await database.db.select().from(leads).where(eq(leads.id, fresh.id));
    expect(lead).toMatchObject({ firstResponseKind: "call", firstResponseBy: rep.userId });
  });
});
