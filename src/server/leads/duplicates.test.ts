import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeAppointment } from "../db/factories-appointments";
import { makeLead } from "../db/factories-leads";
import { makeTestDrive } from "../db/factories-test-drives";
import { appointments } from "../db/schema/appointments";
import { domainEvents } from "../db/schema/events";
import { leadDuplicates, leadMerges } from "../db/schema/lead-duplicates";
import { leads } from "../db/schema/leads";
import { testDrives } from "../db/schema/test-drives";
import { normalizeEmail, normalizePhone } from "../../shared/phone";

// Possible duplicates and merging (issue 14; decisions 137-139), through the API on a real database. With
// TEST_DATABASE_URL the parallel creates run on a PostgreSQL server, where they really overlap.

let t: TestApp;
let ours: string;
let theirs: string;
let people: Record<"sales" | "sales2" | "frontDesk" | "management" | "outsider", MadeUser>;
let as: Record<"sales" | "sales2" | "frontDesk" | "management" | "outsider", Agent>;

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db, { name: "Northside Motors" })).id;
  theirs = (await makeDealership(t.db, { name: "Elsewhere" })).id;
  const member = (role: "sales" | "frontDesk" | "management", firstName: string, dealershipId = ours) => ({
    firstName,
    lastName: "Tester",
    memberships: [{ dealershipId, role }],
  });
  people = {
    sales: await makeUser(t.db, member("sales", "Sam")),
    sales2: await makeUser(t.db, member("sales", "Riley")),
    frontDesk: await makeUser(t.db, member("frontDesk", "Fran")),
    management: await makeUser(t.db, member("management", "Morgan")),
    outsider: await makeUser(t.db, member("management", "Olive", theirs)),
  };
  as = {
    sales: await signIn(t.app, people.sales),
    sales2: await signIn(t.app, people.sales2),
    frontDesk: await signIn(t.app, people.frontDesk),
    management: await signIn(t.app, people.management),
    outsider: await signIn(t.app, people.outsider),
  };
});
afterAll(() => t.close());

let unique = 0;
/** A phone number no other test uses, in the 905 area. */
const freshPhone = () => `905-555-${String(1000 + ++unique).padStart(4, "0")}`;
const freshEmail = () => `customer${++unique}@example.com`;

async function create(who: Agent, body: Record<string, unknown>, dealershipId = ours): Promise<{ id: string }> {
  const response = await who.post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Dana", lastName: "Doe", ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const duplicatesOf = async (who: Agent, id: string) => {
  const response = await who.get(`/api/leads/${id}/duplicates`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Array<{ id: string; matchedOn: string[] }>>();
};

describe("the normalised e-mail and phone", () => {
  it("reads a number written differently as one number, in JavaScript and in PostgreSQL alike", async () => {
    for (const written of ["+1 (905) 555-1212", "1-905-555-1212", "905.555.1212", "(905) 555 1212", "9055551212"]) {
      expect(normalizePhone(written)).toBe("9055551212");
    }
    expect(normalizePhone("")).toBeNull();
    expect(normalizeEmail("  Dana@Example.COM ")).toBe("dana@example.com");
    const row = await makeLead(t.db, { dealershipId: theirs, email: " Dana@Example.COM ", phone: "+1 (905) 555-1212" });
    const [stored] = await t.db.select().from(leads).where(eq(leads.id, row.id));
    expect(stored).toMatchObject({ emailNormalized: "dana@example.com", phoneNormalized: "9055551212" });
  });
});

describe("linking a new lead to an open lead of the same customer", () => {
  it("links leads whose e-mail differs only in case and spaces", async () => {
    const email = freshEmail();
    const first = await create(as.frontDesk, { email: email.toUpperCase() });
    const second = await create(as.frontDesk, { email: `  ${email} ` });
    expect(await duplicatesOf(as.frontDesk, second.id)).toMatchObject([{ id: first.id, matchedOn: ["email"] }]);
    // Both pages show the link.
    expect(await duplicatesOf(as.management, first.id)).toMatchObject([{ id: second.id, matchedOn: ["email"] }]);
  });

  it("links +1 (905) 555-1212 and 905-555-1212", async () => {
    const first = await create(as.frontDesk, { phone: "+1 (905) 555-1212" });
    const second = await create(as.frontDesk, { phone: "905-555-1212" });
    const links = await duplicatesOf(as.frontDesk, second.id);
    expect(links.map((l) => l.id)).toContain(first.id);
    expect(links.find((l) => l.id === first.id)?.matchedOn).toEqual(["phone"]);
  });

  it("says when both the e-mail and the phone matched", async () => {
    const email = freshEmail();
    const phone = freshPhone();
    const first = await create(as.frontDesk, { email, phone });
    const second = await create(as.frontDesk, { email, phone: `+1 ${phone}` });
    expect(await duplicatesOf(as.frontDesk, second.id)).toMatchObject([{ id: first.id, matchedOn: ["email", "phone"] }]);
  });

  it("does not link to a closed or lost lead (a returning customer is a new sale)", async () => {
    const email = freshEmail();
    const closed = await makeLead(t.db, { dealershipId: ours, email, status: "closed", claimedBy: people.sales.id });
    const lost = await makeLead(t.db, { dealershipId: ours, email, status: "lost", claimedBy: people.sales.id });
    const fresh = await create(as.frontDesk, { email });
    const links = await duplicatesOf(as.management, fresh.id);
    expect(links.map((l) => l.id)).not.toContain(closed.id);
    expect(links.map((l) => l.id)).not.toContain(lost.id);
  });

  it("never links across dealerships", async () => {
    const email = freshEmail();
    const elsewhere = await create(as.outsider, { email }, theirs);
    const here = await create(as.frontDesk, { email });
    expect(await duplicatesOf(as.management, here.id)).toEqual([]);
    expect(await duplicatesOf(as.outsider, elsewhere.id)).toEqual([]);
    const rows = await t.db.select().from(leadDuplicates).where(inArray(leadDuplicates.leadId, [here.id, elsewhere.id]));
    expect(rows).toEqual([]);
  });

  it("does not tell a sales rep about another rep's client through the link", async () => {
    const phone = freshPhone();
    const colleagues = await create(as.sales, { phone }); // Sam's client at once
    const mine = await create(as.sales2, { phone }); // Riley types in the same customer
    expect(await duplicatesOf(as.sales2, mine.id)).toEqual([]);
    // Front desk and management see it; Sam sees Riley's lead no more than before.
    expect((await duplicatesOf(as.frontDesk, mine.id)).map((l) => l.id)).toEqual([colleagues.id]);
    expect((await as.sales.get(`/api/leads/${mine.id}/duplicates`)).statusCode).toBe(404);
  });

  it("shows a sales rep a link to a lead still in the unclaimed pool", async () => {
    const email = freshEmail();
    const pool = await create(as.frontDesk, { email });
    const mine = await create(as.sales, { email });
    expect((await duplicatesOf(as.sales, mine.id)).map((l) => l.id)).toEqual([pool.id]);
  });

  it("links two identical leads created at the same moment, however the requests overlap", async () => {
    for (let round = 0; round < 8; round++) {
      const email = freshEmail();
      const phone = freshPhone();
      const created = await Promise.all([0, 1, 2].map(() => create(as.frontDesk, { email, phone: `+1 ${phone}` })));
      const ids = created.map((c) => c.id);
      const links = await t.db.select().from(leadDuplicates).where(inArray(leadDuplicates.leadId, ids));
      // Every pair of the three is linked once, whichever committed first: the later one points at the earlier.
      const pairs = new Set(links.map((l) => [l.leadId, l.duplicateOfId].sort().join("|")));
      expect(pairs.size, `round ${round}`).toBe(3);
    }
  });
});

describe("'Not a duplicate'", () => {
  it("dismisses the link for front desk, and keeps who decided", async () => {
    const email = freshEmail();
    const first = await create(as.frontDesk, { email });
    const second = await create(as.frontDesk, { email });
    expect((await as.sales.delete(`/api/leads/${second.id}/duplicates/${first.id}`)).statusCode).toBe(403);
    const response = await as.frontDesk.delete(`/api/leads/${first.id}/duplicates/${second.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(await duplicatesOf(as.management, second.id)).toEqual([]);
    const [row] = await t.db.select().from(leadDuplicates).where(eq(leadDuplicates.leadId, second.id));
    expect(row).toMatchObject({ dismissedBy: people.frontDesk.id });
    expect((await as.frontDesk.delete(`/api/leads/${first.id}/duplicates/${second.id}`)).statusCode).toBe(404);
  });
});

describe("merging two leads", () => {
  async function pair() {
    const email = freshEmail();
    const kept = await makeLead(t.db, { dealershipId: ours, firstName: "Dana", lastName: "Doe", email, phone: null, description: "Wants a hatchback", claimedBy: people.sales.id });
    const merged = await makeLead(t.db, { dealershipId: ours, firstName: "Danielle", lastName: "Doe", email, phone: "905-555-0000", description: "Trade-in: 2015 Civic" });
    return { kept, merged };
  }

  it("keeps every appointment and test drive, takes the chosen fields, and records the merge", async () => {
    const { kept, merged } = await pair();
    const keptAppointment = await makeAppointment(t.db, { dealershipId: ours, userId: people.sales.id, date: "2026-12-01", leadId: kept.id });
    const movedAppointments = await Promise.all(
      ["10:00", "11:00"].map((time) => makeAppointment(t.db, { dealershipId: ours, userId: people.sales.id, date: "2026-12-02", time, leadId: merged.id })),
    );
    const keptDrive = await makeTestDrive(t.db, { dealershipId: ours, leadId: kept.id });
    const movedDrive = await makeTestDrive(t.db, { dealershipId: ours, leadId: merged.id });

    const response = await as.frontDesk.post(`/api/leads/${kept.id}/merge`, {
      mergeLeadId: merged.id,
      choices: { firstName: "merged", phone: "merged", description: "both" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ mergedLeadId: merged.id, movedAppointments: 2, movedTestDrives: 1 });
    expect(body.lead).toMatchObject({
      id: kept.id,
      firstName: "Danielle",
      lastName: "Doe",
      phone: "+19055550000",
      description: "Wants a hatchback\n\nTrade-in: 2015 Civic",
      status: "claimed",
      claimedBy: people.sales.id,
    });

    const onKept = await t.db.select({ id: appointments.id }).from(appointments).where(eq(appointments.leadId, kept.id));
    expect(onKept.map((a) => a.id).sort()).toEqual([keptAppointment.id, ...movedAppointments.map((a) => a.id)].sort());
    const drives = await t.db.select({ id: testDrives.id }).from(testDrives).where(eq(testDrives.leadId, kept.id));
    expect(drives.map((d) => d.id).sort()).toEqual([keptDrive.id, movedDrive.id].sort());

    expect((await as.frontDesk.get(`/api/leads/${merged.id}`)).statusCode).toBe(404);
    const [record] = await t.db.select().from(leadMerges).where(eq(leadMerges.mergedLeadId, merged.id));
    expect(record).toMatchObject({ keptLeadId: kept.id, mergedBy: people.frontDesk.id, movedAppointments: 2, movedTestDrives: 1 });
    expect(record?.mergedLead).toMatchObject({ id: merged.id, firstName: "Danielle", description: "Trade-in: 2015 Civic" });

    const events = await t.db
      .select({ type: domainEvents.type })
      .from(domainEvents)
      .where(and(eq(domainEvents.dealershipId, ours), inArray(domainEvents.type, ["lead.merged", "lead.deleted"])));
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["lead.merged", "lead.deleted"]));
  });

  describe("keeps the customer's history (issue 29, decision 207)", () => {
    async function olderAndNewer() {
      const email = freshEmail();
      const older = await makeLead(t.db, { dealershipId: ours, firstName: "Olga", lastName: "Older", email, status: "contacted", claimedBy: people.sales.id, createdAt: new Date(Date.now() - 3 * 86_400_000) });
      await t.db.update(leads).set({ source: "adf", sourceProvider: "AutoTrader" }).where(eq(leads.id, older.id));
      const newer = await makeLead(t.db, { dealershipId: ours, firstName: "Olga", lastName: "Newer", email, claimedBy: people.sales.id });
      return { older, newer };
    }

    it.each(["newer", "older"] as const)("merged from the %s lead's page: the older lead's arrival, source and the status further along", async (from) => {
      const { older, newer } = await olderAndNewer();
      const [kept, merged] = from === "newer" ? [newer, older] : [older, newer];
      const response = await as.frontDesk.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: merged.id });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().lead).toMatchObject({
        id: kept.id,
        createdAt: older.createdAt.toISOString(),
        source: "adf",
        sourceProvider: "AutoTrader",
        status: "contacted", // not the newer lead's "claimed"
        claimedBy: people.sales.id,
      });
    });

    it("points the bell's entries of the merged-away lead to the kept lead, and says 'merged into' (issue 29)", async () => {
      const email = freshEmail();
      const kept = await create(as.frontDesk, { firstName: "Bella", lastName: "Kept", email });
      const gone = await create(as.frontDesk, { firstName: "Bella", lastName: "Gone", email });
      await t.app.events.flush();
      const response = await as.frontDesk.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: gone.id });
      expect(response.statusCode, response.body).toBe(200);
      await t.app.events.flush();
      const bell = (await as.management.get(`/api/dealerships/${ours}/notifications`)).json<Array<{ title: string; message: string; url: string | null; leadId: string | null }>>();
      const aboutGone = bell.filter((n) => n.message.includes("Bella Gone"));
      expect(aboutGone.length).toBeGreaterThanOrEqual(2);
      // The new-lead entry of the merged-away lead now opens the kept lead.
      for (const n of aboutGone) expect(n.url, n.message).toBe(`/leads/detail/${kept.id}`);
      expect(aboutGone.find((n) => n.title === "Lead Merged")).toMatchObject({ message: "Bella Gone merged into Bella Kept", leadId: kept.id });
      expect(bell.some((n) => n.title === "Lead Deleted" && n.message.includes("Bella Gone"))).toBe(false);
    });

    it("takes the status the user picks, and still the older arrival and source", async () => {
      const { older, newer } = await olderAndNewer();
      const response = await as.frontDesk.post(`/api/leads/${newer.id}/merge`, { mergeLeadId: older.id, choices: { status: "kept" } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().lead).toMatchObject({ status: "claimed", createdAt: older.createdAt.toISOString(), source: "adf" });
    });

    it("shows each possible duplicate's arrival and source, for the dialog to say which is older", async () => {
      const { older } = await olderAndNewer();
      // A lead typed in now links itself to the open lead of the same customer.
      const newer = await create(as.frontDesk, { email: older.email, source: "phone" });
      const listed = await duplicatesOf(as.frontDesk, newer.id);
      expect(listed.find((d) => d.id === older.id)).toMatchObject({ createdAt: older.createdAt.toISOString(), source: "adf", sourceProvider: "AutoTrader" });
      expect((await duplicatesOf(as.frontDesk, older.id)).find((d) => d.id === newer.id)).toMatchObject({ source: "phone", sourceProvider: null });
    });
  });

  describe("a bookmark of the merged-away lead (decision 188)", () => {
    it("answers 404 naming the kept lead to whoever may open it, and the plain 404 to anyone else", async () => {
      const { kept, merged } = await pair();
      expect((await as.frontDesk.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: merged.id })).statusCode).toBe(200);
      const hint = { message: "This lead was merged into Dana Doe", mergedInto: { id: kept.id, firstName: "Dana", lastName: "Doe" } };
      // The kept lead is Sam's client: front desk, management and Sam may open it.
      for (const who of [as.frontDesk, as.management, as.sales]) {
        const response = await who.get(`/api/leads/${merged.id}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(hint);
      }
      // Another rep may not open Sam's client, nor learn where it went; another dealership knows nothing of either.
      for (const who of [as.sales2, as.outsider]) {
        const response = await who.get(`/api/leads/${merged.id}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ message: "Lead not found" });
      }
      // Only the read carries the hint: a write to the old id is the plain 404.
      expect((await as.frontDesk.patch(`/api/leads/${merged.id}`, { firstName: "X" })).json()).toEqual({ message: "Lead not found" });
    });

    it("follows later merges to the lead that lives on, and says nothing once that lead is deleted", async () => {
      const email = freshEmail();
      const [a, b, c] = [await create(as.frontDesk, { email, firstName: "Ada" }), await create(as.frontDesk, { email, firstName: "Bea" }), await create(as.frontDesk, { email, firstName: "Cy" })];
      expect((await as.management.post(`/api/leads/${b.id}/merge`, { mergeLeadId: a.id })).statusCode).toBe(200);
      expect((await as.management.post(`/api/leads/${c.id}/merge`, { mergeLeadId: b.id })).statusCode).toBe(200);
      // A new lead is in the pool: every sales rep may open it.
      for (const id of [a.id, b.id]) expect((await as.sales2.get(`/api/leads/${id}`)).json().mergedInto).toEqual({ id: c.id, firstName: "Cy", lastName: "Doe" });
      expect((await as.management.delete(`/api/leads/${c.id}`)).statusCode).toBe(200);
      expect((await as.management.get(`/api/leads/${a.id}`)).json()).toEqual({ message: "Lead not found" });
    });
  });

  it("takes the other side's status and claimer when chosen, and a new lead keeps no claimer", async () => {
    const { kept, merged } = await pair();
    const response = await as.management.post(`/api/leads/${merged.id}/merge`, {
      mergeLeadId: kept.id,
      choices: { status: "kept", claimedBy: "merged" },
    });
    expect(response.statusCode, response.body).toBe(200);
    // The unclaimed lead was kept as new: "new" has no claimer (decision 010), whatever the other side had.
    expect(response.json().lead).toMatchObject({ id: merged.id, status: "new", claimedBy: null });
  });

  it("refuses a sales rep (403) and changes nothing", async () => {
    const { kept, merged } = await pair();
    const response = await as.sales.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: merged.id });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/front desk and management/);
    expect(await t.db.select({ id: leads.id }).from(leads).where(inArray(leads.id, [kept.id, merged.id]))).toHaveLength(2);
  });

  it("answers 404 for a lead of another dealership, on either side", async () => {
    const { kept } = await pair();
    const foreign = await makeLead(t.db, { dealershipId: theirs });
    expect((await as.outsider.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: foreign.id })).statusCode).toBe(404);
    expect((await as.management.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: foreign.id })).statusCode).toBe(404);
    expect(await t.db.select({ id: leads.id }).from(leads).where(inArray(leads.id, [kept.id, foreign.id]))).toHaveLength(2);
  });

  it("refuses to merge a lead with itself (400, naming the field)", async () => {
    const { kept } = await pair();
    const response = await as.management.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: kept.id });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { mergeLeadId: "A lead cannot be merged with itself" } });
  });

  it("answers 409 for a lead already merged away", async () => {
    const { kept, merged } = await pair();
    expect((await as.management.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: merged.id })).statusCode).toBe(200);
    const again = await as.management.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: merged.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This lead was already merged into another lead.");
  });

  it("lets exactly one of two opposite merges of the same pair win, without a deadlock", async () => {
    const { kept, merged } = await pair();
    const [a, b] = await Promise.all([
      as.management.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: merged.id }),
      as.frontDesk.post(`/api/leads/${merged.id}/merge`, { mergeLeadId: kept.id }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await t.db.select({ id: leads.id }).from(leads).where(inArray(leads.id, [kept.id, merged.id]))).toHaveLength(1);
  });

  it("refuses bad choices with a 400 naming the field", async () => {
    const { kept, merged } = await pair();
    const response = await as.management.post(`/api/leads/${kept.id}/merge`, { mergeLeadId: merged.id, choices: { email: "both" } });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty(["choices.email"]);
  });

  it("carries the merged-away lead's other links over to the kept lead", async () => {
    const email = freshEmail();
    const a = await create(as.frontDesk, { email });
    const b = await create(as.frontDesk, { email });
    const c = await create(as.frontDesk, { email });
    expect((await as.management.post(`/api/leads/${a.id}/merge`, { mergeLeadId: b.id })).statusCode).toBe(200);
    expect((await duplicatesOf(as.management, a.id)).map((l) => l.id)).toEqual([c.id]);
  });
});
