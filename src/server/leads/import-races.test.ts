import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { raceRounds } from "../../../tests/helpers/races";
import { makeDealership, makeUser } from "../db/factories";
import { leadDuplicates } from "../db/schema/lead-duplicates";
import { leads } from "../db/schema/leads";

// CSV imports racing each other and single creates (issue 14; decision 153). On PGlite requests run one after another;
// the PostgreSQL run (TEST_DATABASE_URL) is where they really overlap, so each case runs several rounds.

const ROUNDS = raceRounds(8);
let t: TestApp;
let dealershipId: string;
let frontDesk: Agent;
let manager: Agent;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db)).id;
  frontDesk = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "frontDesk" }] }));
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
});
afterAll(() => t.close());

function importCsv(agent: Agent, csv: string) {
  return agent.request({ method: "POST", url: `/api/dealerships/${dealershipId}/leads/import`, headers: { "content-type": "text/csv" }, payload: csv });
}

let unique = 0;
const freshPhone = () => `+1 (289) 555-${String(1000 + ++unique).padStart(4, "0")}`;

/** The leads whose last name starts with `prefix`, and the links between any two of them (from → to, by last name). */
async function leadsAndLinks(prefix: string) {
  const rows = await t.db.select({ id: leads.id, lastName: leads.lastName }).from(leads).where(sql`${leads.lastName} like ${`${prefix}%`}`);
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? await t.db
        .select({ from: leadDuplicates.leadId, to: leadDuplicates.duplicateOfId })
        .from(leadDuplicates)
        .where(sql`${leadDuplicates.leadId} in ${ids} and ${leadDuplicates.duplicateOfId} in ${ids}`)
    : [];
  return { rows, links };
}

describe("two imports of the same file at once", () => {
  it("both import every row, and each row of the second is linked to its twin of the first", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const prefix = `Twin${round}x`;
      const csv = ["First Name,Last Name,Phone", `Ann,${prefix}A,${freshPhone()}`, `Bob,${prefix}B,${freshPhone()}`, `Cy,${prefix}C,${freshPhone()}`].join("\n");
      const [first, second] = await Promise.all([importCsv(frontDesk, csv), importCsv(manager, csv)]);
      expect(first.statusCode, first.body).toBe(201);
      expect(second.statusCode, second.body).toBe(201);
      const { rows, links } = await leadsAndLinks(prefix);
      expect(rows).toHaveLength(6);
      const lastNameOf = (id: string) => rows.find((r) => r.id === id)!.lastName;
      // One link per pair of twins, between the two copies of one row, and no other.
      expect(links.map((l) => [lastNameOf(l.from), lastNameOf(l.to)]).sort(), `round ${round}`).toEqual([
        [`${prefix}A`, `${prefix}A`],
        [`${prefix}B`, `${prefix}B`],
        [`${prefix}C`, `${prefix}C`],
      ]);
    }
  });

  it("keeps each import all or nothing: a file with a bad row racing a good one saves none of its rows", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const prefix = `Half${round}x`;
      const phone = freshPhone();
      const good = ["First Name,Last Name,Phone", `Dee,${prefix}Good,${phone}`, `Eve,${prefix}Good,${freshPhone()}`].join("\n");
      const bad = ["First Name,Last Name,Phone", `Dee,${prefix}Bad,${phone}`, `Eve,,${freshPhone()}`].join("\n");
      const [ok, refused] = await Promise.all([importCsv(frontDesk, good), importCsv(manager, bad)]);
      expect(ok.statusCode, ok.body).toBe(201);
      expect(refused.statusCode).toBe(400);
      const { rows } = await leadsAndLinks(prefix);
      expect(rows.map((r) => r.lastName)).toEqual([`${prefix}Good`, `${prefix}Good`]);
    }
  });
});

describe("a lead typed in while an import of the same customer runs", () => {
  it("is linked to the imported row, whichever commits first", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const prefix = `Typed${round}x`;
      const phone = freshPhone();
      const rowsAround = Array.from({ length: 50 }, (_, i) => `Filler,${prefix}Filler${i},${freshPhone()}`);
      const csv = ["First Name,Last Name,Phone", ...rowsAround.slice(0, 25), `Fay,${prefix}Imported,${phone}`, ...rowsAround.slice(25)].join("\n");
      const [imported, typed] = await Promise.all([
        importCsv(manager, csv),
        frontDesk.post(`/api/dealerships/${dealershipId}/leads`, { firstName: "Fay", lastName: `${prefix}Typed`, phone: phone.replace("+1 ", "") }),
      ]);
      expect(imported.statusCode, imported.body).toBe(201);
      expect(typed.statusCode, typed.body).toBe(201);
      const { rows, links } = await leadsAndLinks(prefix);
      const lastNameOf = (id: string) => rows.find((r) => r.id === id)!.lastName;
      expect(
        links.map((l) => [lastNameOf(l.from), lastNameOf(l.to)].sort().join(" ~ ")),
        `round ${round}`,
      ).toEqual([`${prefix}Imported ~ ${prefix}Typed`]);
    }
  });
});
