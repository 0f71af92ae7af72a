import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { makeUnit, makeVehicle } from "../db/factories-test-drives";
import { CURSOR_INVALID } from "./page-cursor";

// Page cursors (decisions 012, 172): every list pages through its own Link header, and whatever a client sends back as
// ?cursor= is a 400 naming `cursor` unless it is a cursor we wrote. What decodes to a NUL or broken text was a 500 on
// both databases (PostgreSQL refuses \u0000 in text), because the input guard sees only the base64 around it.

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64url");
const json = (value: unknown) => b64(JSON.stringify(value));
const TIME = "2026-01-01T00:00:00.000000Z";

/** Cursors that are not ours, each with what it is. Every list is sent every shape (a lead's and a stock number's). */
const HOSTILE: Array<[string, string]> = [
  ["one NUL byte", "AA"],
  ["two NUL bytes", "AAA"],
  ["a NUL byte with stray bits", "AB"],
  ["not UTF-8 (0xff)", "_w"],
  ["a NUL as text", b64("\u0000")],
  ["a JSON string of a NUL", json(["\u0000"])],
  ["a stock number with a NUL", json(["STK\u0000"])],
  ["a NUL as a JSON escape", b64('["a\\u0000b"]')],
  ["a lone surrogate as a JSON escape", b64('["\\ud800"]')],
  ["a lead id with a NUL", json([TIME, "lead\u0000"])],
  ["a time with a NUL", json([`${TIME}\u0000`, "x"])],
  ["a NUL after the JSON", b64(`["${TIME}","x"]\u0000`)],
  ["another control character", json(["\u001f"])],
  ["not a string", json([1])],
  ["not an array", json({})],
  ["no parts", json([])],
  ["too many parts", json(["a", "b", "c"])],
  ["a stock number longer than any", json(["x".repeat(51)])],
  ["too long", "A".repeat(400)],
  ["not base64url", "%25%25"],
  ["not base64url either", "garbage!"],
  ["a NUL before decoding (the input guard's)", "%00"],
];

let t: TestApp;
let dealershipId: string;
let manager: Agent;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db)).id;
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
  for (let i = 0; i < 3; i++) {
    await makeLead(t.db, { dealershipId, firstName: `Paged${i}` });
    await makeVehicle(t.db, { dealershipId, stockNumber: `PAGE-${i}` });
    await makeUnit(t.db, { dealershipId, stockNumber: `UNIT-${i}` });
  }
}, 60_000);
afterAll(() => t.close());

const LISTS = [
  ["leads", (id: string) => `/api/dealerships/${id}/leads?limit=1`],
  ["vehicles", (id: string) => `/api/dealerships/${id}/vehicles?limit=1`],
  ["test-drive units", (id: string) => `/api/dealerships/${id}/test-drive-units?limit=1`],
] as const;

describe.each(LISTS)("the %s list's cursor", (_name, listUrl) => {
  it("pages through the whole list with the cursors of its Link header", async () => {
    let url: string | null = listUrl(dealershipId);
    let pages = 0;
    while (url) {
      const response = await manager.get(url);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<unknown[]>()).toHaveLength(1);
      pages++;
      const link = response.headers.link as string | undefined;
      url = link ? (/<([^>]+)>/.exec(link)?.[1] ?? null) : null;
    }
    expect(pages).toBe(3);
  });

  it.each(HOSTILE)("refuses %s with a 400 naming cursor", async (_what, cursor) => {
    const response = await manager.get(`${listUrl(dealershipId)}&cursor=${cursor}`);
    expect(response.statusCode, response.body).toBe(400);
    const answer = response.json<{ message: string; fields: Record<string, string> }>();
    expect(answer.message).toMatch(/^cursor: /);
    expect(Object.keys(answer.fields)).toEqual(["cursor"]);
    // The input guard and the query schema's length answer first for two; every other is the cursor check's.
    if (cursor !== "%00" && cursor.length <= 200) expect(answer.fields.cursor).toBe(CURSOR_INVALID);
  });
});
