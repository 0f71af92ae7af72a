import { readFileSync } from "node:fs";
import { eq, sql, TransactionRollbackError } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedPhone } from "../../shared/phone";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { rowsOf } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { makeVehicle } from "../db/factories-test-drives";
import { appointments } from "../db/schema/appointments";
import { leads } from "../db/schema/leads";
import { testDrives } from "../db/schema/test-drives";

// Phone numbers end to end (issue 29, decision 205): stored in E.164 with any extension, shown as 514-555-0199 or
// +44 20 7946 0958 in e-mails, the CSV export and the calendar feed, refused with the field when not a number, found
// by search however they are typed, and the old rows converted by migration 0023.

let t: TestApp;
let smtp: SmtpReceiver;
let dealershipId: string;
let desk: Agent;
let manager: Agent;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url });
  dealershipId = (await makeDealership(t.db, { name: "Phone Motors" })).id;
  const boss = await makeUser(t.db, { email: "boss@phones.example", memberships: [{ dealershipId, role: "management" }] });
  manager = await signIn(t.app, boss);
  desk = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "frontDesk" }] }));
  const triggers = (await manager.get(`/api/dealerships/${dealershipId}/email-notifications/triggers`)).json<Array<{ id: string; name: string }>>();
  for (const name of ["lead_created", "appointment_created"]) {
    const trigger = triggers.find((x) => x.name === name)!;
    const response = await manager.post(`/api/dealerships/${dealershipId}/email-notifications/subscriptions`, { userId: boss.id, triggerId: trigger.id, isSubscribed: true });
    expect(response.statusCode).toBeLessThan(300);
  }
}, 60_000);
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const createLead = (body: Record<string, unknown>) => desk.post(`/api/dealerships/${dealershipId}/leads`, body);
const storedPhoneOf = async (id: string) => (await t.db.select({ phone: leads.phone }).from(leads).where(eq(leads.id, id)))[0]?.phone;

describe("a lead's phone", () => {
  it("is shown in the new-lead e-mail as the number it is (the issue's examples)", async () => {
    for (const [lastName, typed, shown, wrong] of [
      ["Plusone", "+1 514 555 0199", "514-555-0199", "151-455-5019"],
      ["Dashes", "1-905-555-0166", "905-555-0166", "190-555-5016"],
      ["Abroad", "+44 20 7946 0958", "+44 20 7946 0958", "442-079-4609"],
      ["Extension", "905-555-1212 x123", "905-555-1212 x123", null],
    ] as const) {
      const response = await createLead({ firstName: "Mail", lastName, phone: typed });
      expect(response.statusCode, response.body).toBe(201);
      await deliverMail(t.app);
      const mail = await smtp.waitFor("boss@phones.example", { subject: new RegExp(`New Lead: Mail ${lastName}`) });
      expect(mail.text).toContain(shown);
      expect(mail.html).toContain(shown);
      if (wrong) expect(mail.text).not.toContain(wrong);
    }
  });

  it("is stored in E.164 with its extension, from the create and the edit", async () => {
    const created = await createLead({ firstName: "Store", lastName: "Me", phone: "(905) 555-1212 ext. 123" });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ phone: "+19055551212;ext=123" });
    expect(await storedPhoneOf(created.json().id)).toBe("+19055551212;ext=123");
    const edited = await manager.patch(`/api/leads/${created.json().id}`, { phone: "+33 1 42 68 53 00" });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await storedPhoneOf(created.json().id)).toBe("+33142685300");
  });

  it("that is not a number is refused with the field, and nothing is saved", async () => {
    const before = (await t.db.select({ n: sql<number>`count(*)::int` }).from(leads))[0]!.n;
    for (const typed of ["12", "555-1234", "call me maybe", "+44 20 7946"]) {
      const response = await createLead({ firstName: "Bad", lastName: "Phone", phone: typed });
      expect(response.statusCode, typed).toBe(400);
      expect(response.json().fields).toEqual({ phone: "Please enter a valid phone number" });
    }
    expect((await t.db.select({ n: sql<number>`count(*)::int` }).from(leads))[0]!.n).toBe(before);
  });

  it("is written as shown in the CSV export, and imports back as the same number", async () => {
    const own = (await makeDealership(t.db)).id;
    const boss = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: own, role: "management" }] }));
    for (const phone of ["+1 514 555 0199", "+44 20 7946 0958", "905-555-1212 x123"]) {
      expect((await boss.post(`/api/dealerships/${own}/leads`, { firstName: "Csv", lastName: phone, phone })).statusCode).toBe(201);
    }
    const csv = (await boss.get(`/api/dealerships/${own}/leads/export`)).body;
    expect(csv).toContain(",514-555-0199,");
    expect(csv).toContain(",'+44 20 7946 0958,");
    expect(csv).toContain(",905-555-1212 x123,");
    const other = (await makeDealership(t.db)).id;
    const otherBoss = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: other, role: "management" }] }));
    const imported = await otherBoss.request({ method: "POST", url: `/api/dealerships/${other}/leads/import`, headers: { "content-type": "text/csv" }, payload: csv });
    expect(imported.statusCode, imported.body).toBe(201);
    const phones = await t.db.select({ phone: leads.phone }).from(leads).where(eq(leads.dealershipId, other));
    expect(phones.map((p) => p.phone).sort()).toEqual(["+15145550199", "+19055551212;ext=123", "+442079460958"]);
  });
});

describe("an appointment's and a test drive's phone", () => {
  const tomorrow = () => new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

  it("is stored in E.164, refused with the field when not a number, and shown in the e-mail and the calendar feed", async () => {
    const url = `/api/dealerships/${dealershipId}/appointments`;
    const base = { title: "Appraisal", firstName: "Feed", lastName: "Phone", date: tomorrow(), time: "10:00" };
    const bad = await desk.post(url, { ...base, phone: "not a phone" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ phone: "Please enter a valid phone number" });
    const made = await desk.post(url, { ...base, phone: "+44 20 7946 0958 ext 12" });
    expect(made.statusCode, made.body).toBe(201);
    const [row] = await t.db.select({ phone: appointments.phone }).from(appointments).where(eq(appointments.id, made.json().id));
    expect(row?.phone).toBe("+442079460958;ext=12");
    await deliverMail(t.app);
    const mail = await smtp.waitFor("boss@phones.example", { subject: /New Appointment/ });
    expect(mail.text).toContain("+44 20 7946 0958 x12");

    const feed = await manager.post(`/api/dealerships/${dealershipId}/calendar-feed`, { scope: "dealership" });
    expect(feed.statusCode, feed.body).toBe(201);
    const ics = (await anonymous(t.app).get(new URL(feed.json().url as string).pathname)).body.replace(/\r\n[ \t]/g, "");
    expect(ics).toContain("Phone: +44 20 7946 0958 x12");
  });

  it("of a new client taken out on a test drive is stored in E.164, or refused with the field", async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId });
    const client = { dealershipId, clientType: "new", firstName: "Drive", lastName: "Phone", email: "drive@example.com", vehicleType: "vehicle", vehicleId: vehicle.id, status: "out" };
    const bad = await desk.post("/api/test-drives", { ...client, phone: "12" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ phone: "Please enter a valid phone number" });
    const made = await desk.post("/api/test-drives", { ...client, phone: "1 (416) 555-0142" });
    expect(made.statusCode, made.body).toBe(201);
    const [row] = await t.db.select({ phone: testDrives.phone }).from(testDrives).where(eq(testDrives.id, made.json().id));
    expect(row?.phone).toBe("+14165550142");
  });
});

describe("searching leads by phone", () => {
  it("finds a number however it is typed, in full or in part", async () => {
    const made = await createLead({ firstName: "Searched", lastName: "Number", phone: "514-555-0177" });
    expect(made.statusCode).toBe(201);
    const id = made.json().id as string;
    for (const q of ["(514) 555-0177", "+1 514 555 0177", "5145550177", "1-514-555-0177", "555-0177", "514 555", "+15145550177"]) {
      const found = await manager.get(`/api/dealerships/${dealershipId}/leads?q=${encodeURIComponent(q)}`);
      expect(found.statusCode).toBe(200);
      expect(found.json<Array<{ id: string }>>().map((l) => l.id), q).toContain(id);
    }
    const none = await manager.get(`/api/dealerships/${dealershipId}/leads?q=${encodeURIComponent("514-555-0178")}`);
    expect(none.json<Array<{ id: string }>>().map((l) => l.id)).not.toContain(id);
  });

  it("looks the digits up in the search's trigram index (decision 226)", async () => {
    // On a table this small the planner may as well walk the status index, whose last key is the search text
    // (decision 252); without it the digits must still be an index condition of the trigram index, not a filter.
    let plan = "";
    await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`drop index leads_dealership_status_created_search_idx`);
        plan = rowsOf<Record<string, string>>(await tx.execute(sql`explain select id from leads where search_text like lower('%5145550177%')`))
          .map((r) => Object.values(r).join(" "))
          .join("\n");
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    expect(plan).toMatch(/Bitmap Index Scan on leads_dealership_status_search_idx[^\n]*\n\s*Index Cond: \(search_text ~~ '%5145550177%'/);
  });
});

describe("migration 0023: the numbers stored before", () => {
  const migration = readFileSync(new URL("../../../drizzle/0023_phones-in-e164.sql", import.meta.url), "utf8").split("--> statement-breakpoint");
  const statement = (start: string) => migration.map((s) => s.trim()).find((s) => s.replace(/^(--.*\n)*/, "").startsWith(start))!;

  // Typed as the old rule let them in (7 to 15 digits and + ( ) . - spaces), and as typed before any rule.
  const OLD: [string, string][] = [
    ["416-555-0123", "+14165550123"],
    ["(416) 555 0123", "+14165550123"],
    ["4165550123", "+14165550123"],
    ["1-905-555-0166", "+19055550166"],
    ["+1 (905) 555-1212", "+19055551212"],
    ["+1 514 555 0199", "+15145550199"],
    ["905-555-1212 x123", "+19055551212;ext=123"],
    ["905.555.1212 ext. 45", "+19055551212;ext=45"],
    ["+44 20 7946 0958", "+442079460958"],
    ["+44 (0)20 7946 0958", "+442079460958"],
    ["011 44 20 7946 0958", "+442079460958"],
    ["+33 1 42 68 53 00", "+33142685300"],
    ["+15145550199", "+15145550199"],
    ["+19055551212;ext=123", "+19055551212;ext=123"],
    ["555-1234", "555-1234"],
    ["call the office", "call the office"],
  ];

  it("converts each old number as the app now stores one, and leaves what is not a number as it was", async () => {
    await t.db.execute(sql.raw(statement("CREATE FUNCTION")));
    try {
      for (const [old, expected] of OLD) {
        const [row] = rowsOf<{ v: string }>(await t.db.execute(sql`select showroom_phone_e164_0023(${old}) as v`));
        expect(row?.v, old).toBe(expected);
        // The same number the app's own reading gives (libphonenumber-js), wherever that reads one.
        const app = storedPhone(old);
        if (app !== null) expect(row?.v, old).toBe(app);
      }

      const own = (await makeDealership(t.db)).id;
      const boss = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: own, role: "management" }] }));
      // Old rows, written as they were stored before (not through the app, which would store E.164 now).
      await t.db.insert(leads).values(OLD.map(([phone], i) => ({ dealershipId: own, firstName: "Old", lastName: `Row${i}`, phone })));
      await t.db.execute(sql.raw(statement(`UPDATE "leads"`)));
      const rows = await t.db.select({ lastName: leads.lastName, phone: leads.phone, key: leads.phoneNormalized }).from(leads).where(eq(leads.dealershipId, own));
      const byRow = Object.fromEntries(rows.map((r) => [r.lastName, r]));
      OLD.forEach(([old, expected], i) => expect(byRow[`Row${i}`]?.phone, old).toBe(expected));
      // The duplicate check's key leaves the extension out: 905-555-1212 x123 and +1 (905) 555-1212 are one line.
      expect(byRow.Row6?.key).toBe("9055551212");
      expect(byRow.Row4?.key).toBe("9055551212");
      // And the converted rows are found as any number is.
      const found = await boss.get(`/api/dealerships/${own}/leads?q=${encodeURIComponent("(905) 555-0166")}`);
      expect(found.json<Array<{ lastName: string }>>().map((l) => l.lastName)).toEqual(["Row3"]);
    } finally {
      await t.db.execute(sql.raw(statement("DROP FUNCTION")));
    }
  });

  it("makes the duplicate check's index again after 0022 rebuilt its column", async () => {
    const indexes = rowsOf<{ indexname: string }>(await t.db.execute(sql`select indexname from pg_indexes where tablename = 'leads'`)).map((r) => r.indexname);
    expect(indexes).toContain("leads_dealership_phone_normalized_idx");
  });
});
