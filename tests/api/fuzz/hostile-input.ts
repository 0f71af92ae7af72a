import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { addDays, localToday } from "../../../src/shared/dealership-clock";
import { makeAppointment } from "../../../src/server/db/factories-appointments";
import { makeLead } from "../../../src/server/db/factories-leads";
import { makeDealership, makeUser, type MadeUser } from "../../../src/server/db/factories";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../helpers/test-app";

// Hostile input to every route the app registers (decision 037): each path parameter, the common query parameters
// and each field of a valid body get NUL bytes, broken UTF-16, 10,000-character strings, out-of-range dates, numbers,
// arrays, objects and prototype keys, signed out and signed in as a manager. No answer may be a 5xx, and every 4xx
// says what was wrong. The inputs are a fixed table (no randomness), so a failure reproduces exactly.
// The table and its runner live here; tests/api/fuzz-*.test.ts each send one part of it (paths, queries, bodies), so
// the two test workers share the work.

const LONG = "x".repeat(10_000);

/** Text that has broken a route before or could: control characters, broken UTF-16, sizes, dates, prototype keys. */
const HOSTILE_TEXT: string[] = [
  "a\u0000b",
  "\u0000",
  "a\u0001b",
  "line\u001bbreak",
  "del\u007f",
  "\ud800",
  "a\udfffb",
  LONG,
  "",
  " ",
  "null",
  "-1",
  "1e309",
  "99999999999999999999999999999",
  "0000-01-01",
  "9999-12-31",
  "2024-02-30",
  "2024-13-45T99:99:99.000000Z",
  "__proto__",
  "constructor",
  "toString",
];

/** More text for ids, searches and filters: patterns, paths and lookalikes a query or a lookup could trip on. */
const URL_TEXT: string[] = [
  ...HOSTILE_TEXT,
  "undefined",
  "true",
  "0",
  "1.5",
  "NaN",
  "+275760-09-13",
  "' or 1=1 --",
  "%",
  "_",
  "\\",
  "hasOwnProperty",
  "../../etc/passwd",
  "😀",
  "\u202e",
  "e\u0301",
];

/** Lead-list cursors: base64url JSON that decodes to timestamps PostgreSQL refuses, and other shapes. */
const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const HOSTILE_CURSORS = [
  cursor(["2024-13-45T99:99:99.000000Z", "x"]),
  cursor(["2024-02-30T00:00:00.000000Z", "x"]),
  cursor(["0000-01-01T00:00:00.000000Z", "x"]),
  cursor(["2024-01-01T00:00:00.000000Z", "a\u0000b"]),
  cursor([1, 2]),
  cursor({}),
  "!!!",
];

/** Already percent-encoded, as a client could send them: invalid UTF-8, a lone surrogate, a cut escape. */
const RAW_URL_VALUES = ["%00", "%FF", "%ED%A0%80", "%E0%A4%A", "%", "..%2F..%2F", "a%2Fb"];

/** Values for a JSON field: the hostile texts plus everything that is not a string. */
const HOSTILE_JSON: unknown[] = [
  ...HOSTILE_TEXT,
  0,
  -1,
  1.5,
  1e308,
  2 ** 53 + 1,
  true,
  false,
  null,
  [],
  ["a\u0000b"],
  Array.from({ length: 10_000 }, () => "x"),
  {},
  { nested: "a\u0000b" },
  nested(100),
];

/** Whole JSON bodies, as raw text: some cannot be written as JS objects (prototype keys) or are not JSON at all. */
const HOSTILE_BODIES: string[] = [
  "null",
  "[]",
  '"text"',
  "0",
  "true",
  "{}",
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"a\\u0000b":"c"}',
  `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
  "{",
  "",
];

function nested(depth: number): unknown {
  let value: unknown = "a\u0000b";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Percent-encodes text for a URL; a lone surrogate, which UTF-8 cannot carry, is sent as its CESU bytes. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((c) => (c.length === 1 && /[\ud800-\udfff]/.test(c) ? "%ED%A0%80" : encodeURIComponent(c))).join("");
  }
}

const FUZZ_ADDRESS = "203.0.113.9";

let t: TestApp;
let manager: MadeUser;
let today: string;
/** A valid value for every path parameter, by route area. */
let known: { dealership: string; lead: string; appointment: string; colleague: string; invite: string; inviteEmail: string; trigger: string; feedToken: string };
let routes: Array<{ method: string; url: string }>;

/** The app and the valid ids the table fills in, made before the calling file's tests and closed after them. */
export function useFuzzedApp(): void {
beforeAll(async () => {
  t = await createTestApp();
  const dealership = await makeDealership(t.db);
  manager = await makeUser(t.db, { memberships: [{ dealershipId: dealership.id, role: "management" }] });
  const colleague = await makeUser(t.db, { memberships: [{ dealershipId: dealership.id, role: "sales" }] });
  today = localToday(dealership.timezone);
  const lead = await makeLead(t.db, { dealershipId: dealership.id });
  const appointment = await makeAppointment(t.db, { dealershipId: dealership.id, userId: manager.id, date: addDays(today, 3) });
  const as = await signIn(t.app, manager);
  const inviteEmail = "fuzz-invitee@example.com";
  const invite = await as.post(`/api/dealerships/${dealership.id}/invites`, { email: inviteEmail, firstName: "Fuzz", lastName: "Invitee", role: "sales" });
  const invites = (await as.get(`/api/dealerships/${dealership.id}/invites`)).json() as Array<{ id: string; email: string }>;
  const triggers = (await as.get(`/api/dealerships/${dealership.id}/email-notifications/triggers`)).json() as Array<{ id: string }>;
  const feed = (await as.post(`/api/dealerships/${dealership.id}/calendar-feed`, { scope: "mine" })).json() as { url: string };
  known = {
    dealership: dealership.id,
    lead: lead.id,
    appointment: appointment.id,
    colleague: colleague.id,
    invite: invites.find((i) => i.email === inviteEmail)?.id ?? `missing-invite-${invite.statusCode}`,
    inviteEmail,
    trigger: triggers[0]?.id ?? "missing-trigger",
    feedToken: /\/api\/calendar\/([^/]+)\.ics$/.exec(feed.url ?? "")?.[1] ?? "missing-token",
  };
  routes = t.app.routeList.filter((r) => r.url.startsWith("/api/"));
}, 60_000);
afterAll(() => t.close());
}

/** A valid body per write route, so that one hostile field at a time gets past the others' validation. */
function sampleBody(method: string, url: string): Record<string, unknown> | null {
  const samples: Record<string, Record<string, unknown>> = {
    "POST /api/register": {
      firstName: "Fuzz",
      lastName: "Tester",
      email: "fuzz-register@example.com",
      phone: "555-123-4567",
      password: "Correct-Horse-Battery-91",
      confirmPassword: "Correct-Horse-Battery-91",
      dealershipName: "Fuzz Motors",
    },
    "POST /api/login": { email: "nobody@fuzz.example", password: "not-the-password-1" },
    "POST /api/user/current-dealership": { dealershipId: known.dealership },
    "POST /api/dealerships/:id/appointments": {
      title: "Test drive",
      firstName: "Fuzz",
      lastName: "Customer",
      email: "customer@example.com",
      phone: "555-123-4567",
      description: "Wants a hatchback",
      date: addDays(today, 5),
      time: "10:00",
      duration: 30,
      leadId: known.lead,
    },
    "PATCH /api/appointments/:id/status": { status: "arrived" },
    "POST /api/dealerships/:id/calendar-feed": { scope: "mine" },
    "POST /api/dealerships/:id/leads": {
      firstName: "Fuzz",
      lastName: "Lead",
      email: "lead@example.com",
      phone: "555-123-4567",
      description: "Walk-in",
      assignedTo: known.colleague,
    },
    "PATCH /api/leads/:id": { firstName: "Fuzz", lastName: "Lead", email: "lead@example.com", phone: "555-123-4567", description: "Edited", status: "contacted" },
    "PATCH /api/leads/:id/status": { status: "contacted" },
    // Duplicates and speed-to-lead (issue 14): merging a lead with itself is a 400, so the fuzz never deletes the lead.
    "POST /api/leads/:id/merge": { mergeLeadId: known.lead, choices: { firstName: "merged", description: "both" } },
    "PUT /api/dealerships/:id/speed-to-lead/settings": { unattendedLeadMinutes: 20 },
    "POST /api/dealerships/:id/invites": { email: "fuzz-second@example.com", firstName: "Fuzz", lastName: "Second", role: "sales" },
    "POST /api/auth/email-verification/request": { email: known.inviteEmail },
    "POST /api/auth/email-verification/verify": {
      email: known.inviteEmail,
      code: "123456",
      firstName: "Fuzz",
      lastName: "Invitee",
      phone: "",
      password: "Correct-Horse-Battery-91",
      confirmPassword: "Correct-Horse-Battery-91",
    },
    "PATCH /api/dealerships/:id/users/:userId/role": { role: "frontDesk" },
    "PATCH /api/dealerships/:id/email-notifications/triggers/:triggerId": { isActive: false },
    "POST /api/dealerships/:id/email-notifications/subscriptions": { userId: known.colleague, triggerId: known.trigger, isSubscribed: true },
    // Vehicles, units and test drives (issue 9)
    "POST /api/dealerships/:id/vehicles": { year: "2003", make: "Fuzz", model: "Car", stockNumber: "FZ-1", condition: "used", price: 100, mileage: 5, vin: "1HGCM82633A004352" },
    "PUT /api/vehicles/:id/test-drive-status": { status: "available", clientName: "Fuzz Client" },
    "POST /api/dealerships/:id/test-drive-units": { year: "2024", make: "Fuzz", model: "Unit", stockNumber: "FZ-U1" },
    "PUT /api/test-drive-units/:id/status": { status: "available" },
    "POST /api/test-drives": {
      dealershipId: known.dealership,
      clientType: "new",
      firstName: "Fuzz",
      lastName: "Client",
      email: "fuzz-client@example.com",
      phone: "416-555-0100",
      vehicleType: "manual",
      stockNumber: "FZ-M",
      vehicleDriven: "Fuzz Car",
      status: "out",
    },
    "PATCH /api/test-drives/:id": { vehicleDriven: "Fuzz Car", stockNumber: "FZ-2", testDriveDate: today, testDriveTime: "10:00", notes: "Fuzzed" },
    "PATCH /api/test-drives/:id/status": { status: "completed" },
    "POST /api/test-drives/:id/return": {},
    // The lead's story and the salesperson's day (issues 26, 27).
    "POST /api/leads/:id/notes": { body: "Called back about the Tucson.\nWants a Saturday.", mentions: [known.colleague] },
    "PATCH /api/notes/:id": { body: "Edited note" },
    "POST /api/leads/:id/calls": { outcome: "voicemail", notes: "Left a message" },
    "POST /api/dealerships/:id/email-templates": { name: "Fuzz template", subject: "Your {{vehicle}}", body: "Hi {{firstName}}" },
    "PUT /api/dealerships/:id/email-templates/:templateId": { name: "Fuzz template", subject: "Your {{vehicle}}", body: "Hi {{firstName}}" },
    "POST /api/leads/:id/emails": { subject: "Your Tucson is ready", body: "Hi,\nIt is ready for a drive on Saturday." },
    "POST /api/leads/:id/tasks": { type: "call", dueAt: `${addDays(today, 1)}T10:00`, assigneeId: manager.id, note: "Call back" },
    "PATCH /api/tasks/:id": { status: "done", note: "Done" },
    "PUT /api/dealerships/:id/follow-up-rules": { claimedNoContact: { enabled: true, minutes: 15 }, untouchedLead: { enabled: false, days: 3 } },
    "PUT /api/dealerships/:id/settings": { address: "1200 Yonge St, Toronto", phone: "416-555-0100", timezone: "America/Toronto", businessHours: { monday: { open: "09:00", close: "18:00" }, tuesday: { open: "09:00", close: "18:00" }, wednesday: null, thursday: { open: "09:00", close: "18:00" }, friday: { open: "09:00", close: "18:00" }, saturday: { open: "10:00", close: "16:00" }, sunday: null } },
    "PUT /api/dealerships/:id/distribution": { mode: "off", autoAssignAfterMinutes: null },
    "PUT /api/dealerships/:id/availability": { onFloor: false },
    // The body is the list itself (an array), not an object.
    "PUT /api/dealerships/:id/lost-reasons": ["Bought elsewhere", "Price too high"] as unknown as Record<string, unknown>,
    // Profile, two-factor and reset (issue 15). Wrong passwords and codes on purpose: the fuzzing changes nobody's.
    // The manager's own e-mail: the fuzzing signs in as the manager again for every route.
    "PATCH /api/user/profile": { firstName: "Fuzz", lastName: "Manager", email: manager.email },
    "POST /api/user/avatar": { avatar: "JSON is refused: the picture comes as multipart" },
    "PATCH /api/user/password": { currentPassword: "not-the-password-1", newPassword: "Correct-Horse-Battery-92" },
    "POST /api/auth/2fa/verify-setup": { secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", token: "123456" },
    "POST /api/auth/2fa/disable": { password: "not-the-password-1", token: "123456" },
    "POST /api/auth/2fa/regenerate-backup-codes": { password: "not-the-password-1" },
    "POST /api/user/email-verification/confirm": { code: "123456" },
    "POST /api/user/email-change/request": { email: "fuzz-moved@example.com", currentPassword: "not-the-password-1" },
    "POST /api/user/email-change/confirm": { code: "123456" },
    "POST /api/auth/password-reset/request": { email: "fuzz-reset@example.com" },
    "POST /api/auth/password-reset/confirm": { token: "x".repeat(43), newPassword: "Correct-Horse-Battery-91", confirmPassword: "Correct-Horse-Battery-91" },
    // Platform administration (issue 10): refused to the manager here before the body is read; src/server/platform/
    // fuzz.test.ts sends the same hostile input as a platform admin.
    "POST /api/platform/test-email": { to: "fuzz-test@example.com" },
    "POST /api/platform/dealerships": { name: "Fuzz Lot", address: "1 Fuzz St", phone: "416-555-0100", email: "lot@example.com", website: "fuzz.example", adminEmail: "fuzz-boss@example.com", adminFirstName: "Fuzz", adminLastName: "Boss" },
    "PUT /api/platform/dealerships/:id": { name: "Fuzz Lot", address: "1 Fuzz St", phone: "416-555-0100", email: "lot@example.com", website: "fuzz.example" },
    "PUT /api/platform/dealerships/:id/users/:userId/role": { role: "frontDesk" },
    "POST /api/platform/dealerships/:id/invite": { email: "fuzz-platform-invitee@example.com", role: "sales", firstName: "Fuzz", lastName: "Invitee" },
    "PATCH /api/platform/users/:id": { firstName: "Fuzz", lastName: "User", email: "fuzz-user@example.com", phone: "416-555-0100" },
    "POST /api/platform/admins/grant": { email: "fuzz-admin@example.com" },
    // Lead intake and CSV (issue 14): ADF comes as XML with a credential, CSV as text/csv; JSON is refused clearly.
    "POST /api/dealerships/:id/intake/credentials": { name: "Fuzz Provider" },
    // API tokens and webhooks (issue 28): a public address written as such (no DNS), for an event fuzzing never has.
    "POST /api/dealerships/:id/api-tokens": { name: "Fuzz Token", role: "sales" },
    "POST /api/dealerships/:id/webhooks": { url: "https://93.184.215.14/fuzz", events: ["lead.unattended"], description: "Fuzz" },
    "PATCH /api/dealerships/:id/webhooks/:webhookId": { description: "Fuzzed", active: false },
    "POST /api/intake/adf": { adf: "JSON is refused: ADF comes as XML with an intake credential" },
    "POST /api/dealerships/:id/leads/import/preview": { csv: "JSON is refused: the file comes as text/csv" },
    "POST /api/dealerships/:id/leads/import": { csv: "JSON is refused: the file comes as text/csv" },
    // Web push (issue 11): a browser's PushSubscription JSON on a known push service, with a real P-256 key.
    "POST /api/push/subscriptions": {
      endpoint: "https://fcm.googleapis.com/fcm/send/fuzz-browser",
      expirationTime: null,
      keys: { p256dh: "BI5N6bauSTJUOwI1CqIL8l5rgO8OCKzs07LtAZEFwPNb7CczA1ItYUx0wCWye3Z551rhCVdlltJLYmRrhwBj4uc", auth: "kn2POr-j22bp0aiGsY3wuA" },
      device: "Fuzz phone",
    },
  };
  const key = `${method} ${url}`;
  return samples[key] ?? null;
}

function validParams(url: string): Record<string, string> {
  const id = url.startsWith("/api/leads/") ? known.lead : url.startsWith("/api/appointments/") ? known.appointment : known.dealership;
  return { id, userId: known.colleague, inviteId: known.invite, triggerId: known.trigger, email: known.inviteEmail, token: known.feedToken };
}

/** The route's URL with its parameters filled: valid ones, and `encodedValue` in parameter `hostile` if given. */
function fill(url: string, hostile?: { name: string; encodedValue: string }): string {
  const valid = validParams(url);
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    name === hostile?.name ? hostile.encodedValue : encodeURIComponent(valid[name] ?? "x"),
  );
}

const paramNames = (url: string) => [...url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
const takesBody = (method: string) => method !== "GET" && method !== "DELETE";

/** What is wrong with an answer: a 5xx, or a 4xx that does not say why. */
function problem(response: LightMyRequestResponse): string | null {
  if (response.statusCode >= 500) return `${response.statusCode} ${response.body.slice(0, 300)}`;
  if (response.statusCode >= 400) {
    let body: unknown;
    try {
      body = response.json();
    } catch {
      return `${response.statusCode} without a JSON message`;
    }
    if (typeof (body as { message?: unknown }).message !== "string") return `${response.statusCode} without a message: ${response.body.slice(0, 200)}`;
  }
  return null;
}

interface Attempt {
  describe: string;
  method: string;
  url: string;
  payload?: string;
  contentType?: string;
}

/** Sends every attempt, signing in anew before each route (a route under test may end the session), and lists problems. */
export async function run(attemptsByRoute: Array<{ route: string; attempts: Attempt[] }>, signedIn: boolean): Promise<string[]> {
  const problems: string[] = [];
  for (const { route, attempts } of attemptsByRoute) {
    const agent: Agent = signedIn ? await signIn(t.app, manager) : anonymous(t.app);
    for (const attempt of attempts) {
      const response = await agent.request({
        method: attempt.method as "GET",
        url: attempt.url,
        remoteAddress: FUZZ_ADDRESS,
        ...(attempt.payload === undefined
          ? {}
          : { payload: attempt.payload, headers: { "content-type": attempt.contentType ?? "application/json" } }),
      });
      const found = problem(response);
      if (found) problems.push(`${signedIn ? "manager" : "signed out"}: ${route} ${attempt.describe} -> ${found}`);
    }
  }
  return problems;
}

const show = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...(${text.length})` : text);
};

export function pathAttempts() {
  return routes
    .filter((r) => paramNames(r.url).length > 0)
    .map((r) => ({
      route: `${r.method} ${r.url}`,
      attempts: paramNames(r.url).flatMap((name) =>
        [...URL_TEXT.map((v) => ({ shown: show(v), encoded: encode(v) })), ...RAW_URL_VALUES.map((v) => ({ shown: `raw ${v}`, encoded: v }))]
          .filter(({ encoded }) => encoded !== "")
          .map(({ shown, encoded }) => {
            const body = sampleBody(r.method, r.url);
            return {
              describe: `:${name}=${shown}`,
              method: r.method,
              url: fill(r.url, { name, encodedValue: encoded }),
              ...(takesBody(r.method) ? { payload: JSON.stringify(body ?? {}) } : {}),
            };
          }),
      ),
    }));
}

const QUERY_PARAMS = ["q", "status", "type", "date", "from", "to", "cursor", "limit", "leadId"];

export function queryAttempts() {
  return routes
    .filter((r) => r.method === "GET")
    .map((r) => {
      const url = fill(r.url);
      // A valid range beside the hostile parameter, so routes that need both dates reach the other's checks.
      const base = { from: today, to: addDays(today, 7) };
      const attempts: Attempt[] = [];
      for (const name of QUERY_PARAMS) {
        const values = [
          ...URL_TEXT.map((v) => ({ shown: show(v), encoded: encode(v) })),
          ...RAW_URL_VALUES.map((v) => ({ shown: `raw ${v}`, encoded: v })),
          ...(name === "cursor" ? HOSTILE_CURSORS.map((v) => ({ shown: `cursor ${v}`, encoded: v })) : []),
        ];
        for (const { shown, encoded } of values) {
          const rest = Object.entries(base)
            .filter(([key]) => key !== name)
            .map(([key, value]) => `${key}=${value}`);
          attempts.push({ describe: `?${name}=${shown}`, method: "GET", url: `${url}?${[`${name}=${encoded}`, ...rest].join("&")}` });
        }
        attempts.push({ describe: `?${name} twice`, method: "GET", url: `${url}?${name}=a&${name}=b` });
      }
      return { route: `${r.method} ${r.url}`, attempts };
    });
}

export function bodyAttempts(fieldsToo: (route: string) => boolean) {
  return routes
    .filter((r) => r.method !== "GET")
    .map((r) => {
      const route = `${r.method} ${r.url}`;
      const url = fill(r.url);
      const sample = sampleBody(r.method, r.url);
      const attempts: Attempt[] = HOSTILE_BODIES.map((raw) => ({ describe: `body ${show(raw)}`, method: r.method, url, payload: raw }));
      attempts.push({ describe: "text/plain body with NUL", method: r.method, url, payload: "a\u0000b", contentType: "text/plain" });
      if (fieldsToo(route)) {
        for (const field of [...Object.keys(sample ?? {}), "unexpected"]) {
          for (const value of HOSTILE_JSON) {
            attempts.push({ describe: `${field}=${show(value)}`, method: r.method, url, payload: JSON.stringify({ ...sample, [field]: value }) });
          }
        }
      }
      return { route, attempts };
    });
}

/** Write routes that read no body. */
const NO_BODY = new Set([
  "POST /api/logout",
  "POST /api/leads/:id/restore",
  "POST /api/dealerships/:id/first-run/dismiss",
  "POST /api/leads/:id/claim",
  "POST /api/leads/:id/call",
  "POST /api/dealerships/:id/leads/remind-unattended",
  "POST /api/dealerships/:id/invites/:inviteId/resend",
  "POST /api/auth/2fa/setup",
  "POST /api/user/email-verification/request",
  "POST /api/user/sessions/sign-out-others",
  "POST /api/platform/maintenance",
  "POST /api/platform/invites/:id/resend",
  "POST /api/dealerships/:id/intake/credentials/:credentialId/rotate",
  "POST /api/notifications/:id/read",
  "POST /api/dealerships/:id/notifications/mark-all-read",
  "POST /api/dealerships/:id/webhooks/:webhookId/deliveries/:deliveryId/redeliver",
]);

/** Write routes anyone may call signed out (tests/api/access.test.ts keeps the full list). */
export const PUBLIC_WRITES = new Set([
  "POST /api/register",
  "POST /api/login",
  "POST /api/logout",
  "POST /api/auth/email-verification/request",
  "POST /api/auth/email-verification/verify",
  "POST /api/auth/password-reset/request",
  "POST /api/auth/password-reset/confirm",
]);

/** Write routes that read a body but have no sample in the table (the table must know every one). */
export function routesWithoutSample(): string[] {
  return routes.filter((r) => takesBody(r.method) && sampleBody(r.method, r.url) === null && !NO_BODY.has(`${r.method} ${r.url}`)).map((r) => `${r.method} ${r.url}`);
}
