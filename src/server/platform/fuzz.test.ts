import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { grantPlatformAdminByEmail } from "./admins";

// Hostile input to every platform route as a platform admin (decision 037; tests/api/fuzz.test.ts does the same for
// every route as a manager, whom these routes refuse before reading anything). No answer may be a 5xx, and every 4xx
// says what was wrong. Destructive routes get targets of their own, so the others keep reaching their checks.

const LONG = "x".repeat(10_000);
const HOSTILE_TEXT = ["a\u0000b", "\ud800", "a\udfffb", LONG, "", " ", "null", "-1", "1e309", "99999999999999999999", "0000-01-01", "__proto__", "%", "_", "\\", "' or 1=1 --", "😀"];
const HOSTILE_JSON: unknown[] = [...HOSTILE_TEXT, 0, -1, 1.5, 1e308, true, null, [], ["a\u0000b"], {}, { nested: "a\u0000b" }];
const HOSTILE_BODIES = ["null", "[]", '"text"', "0", "{}", '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}', "{", ""];
const QUERY_PARAMS = ["search", "page", "pageSize", "show"];

let t: TestApp;
let admin: Agent;
let ids: Record<"lot" | "doomedLot" | "member" | "doomedMember" | "spareUser" | "doomedUser" | "otherAdmin" | "invite" | "doomedInvite", string>;
let routes: Array<{ method: string; url: string }>;

beforeAll(async () => {
  t = await createTestApp();
  const me = await makeUser(t.db);
  await grantPlatformAdminByEmail(t.db, me.email);
  admin = await signIn(t.app, me);
  const lot = (await makeDealership(t.db, { name: "Fuzz Lot" })).id;
  await makeUser(t.db, { memberships: [{ dealershipId: lot, role: "management" }] });
  const member = await makeUser(t.db, { memberships: [{ dealershipId: lot, role: "sales" }] });
  const doomedMember = await makeUser(t.db, { memberships: [{ dealershipId: lot, role: "sales" }] });
  const otherAdmin = await makeUser(t.db);
  await grantPlatformAdminByEmail(t.db, otherAdmin.email);
  const invite = async (email: string) => (await admin.post(`/api/platform/dealerships/${lot}/invite`, { email })).json<{ id: string }>().id;
  ids = {
    lot,
    doomedLot: (await makeDealership(t.db, { name: "Doomed Lot" })).id,
    member: member.id,
    doomedMember: doomedMember.id,
    spareUser: (await makeUser(t.db)).id,
    doomedUser: (await makeUser(t.db)).id,
    otherAdmin: otherAdmin.id,
    invite: await invite("fuzz-kept@example.com"),
    doomedInvite: await invite("fuzz-doomed@example.com"),
  };
  routes = t.app.routeList.filter((r) => r.url.startsWith("/api/platform/"));
}, 60_000);
afterAll(() => t.close());

const SAMPLES: Record<string, Record<string, unknown>> = {
  "POST /api/platform/test-email": { to: "fuzz-test@example.com" },
  "POST /api/platform/dealerships": { name: "Fuzz Lot", address: "1 Fuzz St", phone: "416-555-0100", email: "lot@example.com", website: "fuzz.example", adminEmail: "fuzz-boss@example.com", adminFirstName: "Fuzz", adminLastName: "Boss" },
  "PUT /api/platform/dealerships/:id": { name: "Fuzz Lot", address: "1 Fuzz St", phone: "416-555-0100", email: "lot@example.com", website: "fuzz.example" },
  "PUT /api/platform/dealerships/:id/users/:userId/role": { role: "frontDesk" },
  "POST /api/platform/dealerships/:id/invite": { email: "fuzz-invitee@example.com", role: "sales", firstName: "Fuzz", lastName: "Invitee" },
  "PATCH /api/platform/users/:id": { firstName: "Fuzz", lastName: "User", email: "fuzz-user@example.com", phone: "416-555-0100" },
  "POST /api/platform/admins/grant": { email: "fuzz-admin@example.com" },
};

/** The valid path of a route: its own target for one that deletes. */
function fill(method: string, url: string, hostile?: { name: string; encoded: string }): string {
  const deletes = method === "DELETE";
  const valid: Record<string, string> = {
    id: url.startsWith("/api/platform/invites/")
      ? deletes ? ids.doomedInvite : ids.invite
      : url.startsWith("/api/platform/users/")
        ? deletes ? ids.doomedUser : ids.spareUser
        : deletes && url === "/api/platform/dealerships/:id" ? ids.doomedLot : ids.lot,
    userId: url.startsWith("/api/platform/admins/") ? ids.otherAdmin : deletes ? ids.doomedMember : ids.member,
  };
  return url.replace(/:([A-Za-z]+)/g, (_m, name: string) => (hostile?.name === name ? hostile.encoded : valid[name] ?? "x".repeat(21)));
}

function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((c) => (/[\ud800-\udfff]/.test(c) ? "%ED%A0%80" : encodeURIComponent(c))).join("");
  }
}

function problem(response: LightMyRequestResponse): string | null {
  if (response.statusCode >= 500) return `${response.statusCode} ${response.body.slice(0, 200)}`;
  if (response.statusCode >= 400) {
    try {
      if (typeof response.json<{ message?: unknown }>().message === "string") return null;
    } catch {
      // falls through
    }
    return `${response.statusCode} without a JSON message`;
  }
  return null;
}

async function send(method: string, url: string, payload?: string): Promise<LightMyRequestResponse> {
  return admin.request({
    method: method as "GET",
    url,
    ...(payload === undefined ? {} : { payload, headers: { "content-type": "application/json" } }),
  });
}

describe("every platform route under hostile input, as a platform admin", () => {
  it("has a valid body for every route that reads one", () => {
    const reading = routes.filter((r) => ["POST", "PUT", "PATCH"].includes(r.method)).map((r) => `${r.method} ${r.url}`);
    const noBody = ["POST /api/platform/maintenance", "POST /api/platform/invites/:id/resend"];
    expect(reading.filter((route) => !SAMPLES[route] && !noBody.includes(route))).toEqual([]);
  });

  it("answers hostile path parameters, query parameters, bodies and fields without a server error", async () => {
    const problems: string[] = [];
    let sent = 0;
    const check = async (label: string, response: Promise<LightMyRequestResponse>) => {
      sent++;
      const found = problem(await response);
      if (found) problems.push(`${label} -> ${found}`);
    };
    // Deleting routes last, so that what they remove was fuzzed first.
    const ordered = [...routes].sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    for (const { method, url } of ordered) {
      const route = `${method} ${url}`;
      const sample = SAMPLES[route];
      const body = method === "GET" || method === "DELETE" ? undefined : JSON.stringify(sample ?? {});
      for (const name of [...url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!)) {
        for (const value of [...HOSTILE_TEXT.filter((v) => v !== ""), "x".repeat(21)]) {
          await check(`${route} :${name}=${JSON.stringify(value.slice(0, 20))}`, send(method, fill(method, url, { name, encoded: encode(value) }), body));
        }
      }
      if (method === "GET") {
        for (const name of QUERY_PARAMS) {
          for (const value of HOSTILE_TEXT) await check(`${route} ?${name}=${JSON.stringify(value.slice(0, 20))}`, send(method, `${fill(method, url)}?${name}=${encode(value)}`));
          await check(`${route} ?${name} twice`, send(method, `${fill(method, url)}?${name}=1&${name}=2`));
        }
        continue;
      }
      for (const raw of HOSTILE_BODIES) await check(`${route} body ${JSON.stringify(raw)}`, send(method, fill(method, url), raw));
      for (const field of [...Object.keys(sample ?? {}), "unexpected"]) {
        for (const value of HOSTILE_JSON) {
          await check(`${route} ${field}=${JSON.stringify(value)?.slice(0, 30)}`, send(method, fill(method, url), JSON.stringify({ ...sample, [field]: value })));
        }
      }
    }
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(1500);
  }, 300_000);
});
