import { asc, count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { leads } from "../db/schema/leads";
import { emailsLog } from "../db/schema/notifications";
import { deliverMail } from "../../../tests/helpers/deliver-mail";

// Every lead route × signed out / sales / front desk / management / a manager of another dealership (issue 3).
// A refused call must change nothing: the leads table and the mail log are compared before and after.

type Actor = "signedOut" | "sales" | "frontDesk" | "management" | "otherDealership";
const ACTORS: Actor[] = ["signedOut", "sales", "frontDesk", "management", "otherDealership"];

let t: TestApp;
let dealershipId: string;
let people: Record<"sales" | "sales2" | "frontDesk" | "management" | "outsider", MadeUser>;
const agents = {} as Record<Actor, Agent>;

beforeAll(async () => {
  t = await createTestApp();
  const ours = await makeDealership(t.db, { name: "Ours" });
  const theirs = await makeDealership(t.db, { name: "Theirs" });
  dealershipId = ours.id;
  const member = (role: "sales" | "frontDesk" | "management") => ({ memberships: [{ dealershipId: ours.id, role }] });
  people = {
    sales: await makeUser(t.db, member("sales")),
    sales2: await makeUser(t.db, member("sales")),
    frontDesk: await makeUser(t.db, member("frontDesk")),
    management: await makeUser(t.db, member("management")),
    outsider: await makeUser(t.db, { memberships: [{ dealershipId: theirs.id, role: "management" }] }),
  };
  agents.signedOut = anonymous(t.app);
  agents.sales = await signIn(t.app, people.sales);
  agents.frontDesk = await signIn(t.app, people.frontDesk);
  agents.management = await signIn(t.app, people.management);
  agents.otherDealership = await signIn(t.app, people.outsider);
});
afterAll(() => t.close());

async function snapshot() {
  await deliverMail(t.app);
  const rows = await t.db.select().from(leads).orderBy(asc(leads.id));
  const [mails] = await t.db.select({ n: count() }).from(emailsLog);
  return { rows, mails: mails?.n ?? 0 };
}

interface Case {
  name: string;
  /** Fresh data for one call: answers the URL and body. */
  prepare(): Promise<{ url: string; body?: unknown }>;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  expected: Record<Actor, number>;
}

const newLead = () => makeLead(t.db, { dealershipId });
const anotherRepsLead = () => makeLead(t.db, { dealershipId, claimedBy: people.sales2.id, status: "contacted" });

const CASES: Case[] = [
  {
    name: "GET /api/dealerships/{id}/leads",
    method: "GET",
    prepare: async () => ({ url: `/api/dealerships/${dealershipId}/leads?type=my` }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 403 },
  },
  {
    name: "POST /api/dealerships/{id}/leads",
    method: "POST",
    prepare: async () => ({ url: `/api/dealerships/${dealershipId}/leads`, body: { firstName: "Ada", lastName: "Lovelace" } }),
    expected: { signedOut: 401, sales: 201, frontDesk: 201, management: 201, otherDealership: 403 },
  },
  {
    name: "POST /api/dealerships/{id}/leads assigning a rep",
    method: "POST",
    prepare: async () => ({
      url: `/api/dealerships/${dealershipId}/leads`,
      body: { firstName: "Ada", lastName: "Lovelace", assignedTo: people.sales2.id },
    }),
    expected: { signedOut: 401, sales: 403, frontDesk: 201, management: 201, otherDealership: 403 },
  },
  {
    name: "GET /api/leads/{id} of another rep's client",
    method: "GET",
    prepare: async () => ({ url: `/api/leads/${(await anotherRepsLead()).id}` }),
    expected: { signedOut: 401, sales: 404, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "GET /api/leads/{id} of a new lead",
    method: "GET",
    prepare: async () => ({ url: `/api/leads/${(await newLead()).id}` }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "PATCH /api/leads/{id} of another rep's client",
    method: "PATCH",
    prepare: async () => ({ url: `/api/leads/${(await anotherRepsLead()).id}`, body: { firstName: "Changed" } }),
    expected: { signedOut: 401, sales: 404, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "PATCH /api/leads/{id}/status of another rep's client",
    method: "PATCH",
    prepare: async () => ({ url: `/api/leads/${(await anotherRepsLead()).id}/status`, body: { status: "qualified" } }),
    expected: { signedOut: 401, sales: 404, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "POST /api/leads/{id}/claim of a new lead",
    method: "POST",
    prepare: async () => ({ url: `/api/leads/${(await newLead()).id}/claim` }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "POST /api/leads/{id}/claim of a claimed lead",
    method: "POST",
    prepare: async () => ({ url: `/api/leads/${(await anotherRepsLead()).id}/claim` }),
    expected: { signedOut: 401, sales: 409, frontDesk: 409, management: 409, otherDealership: 404 },
  },
  {
    name: "DELETE /api/leads/{id} of another rep's client",
    method: "DELETE",
    prepare: async () => ({ url: `/api/leads/${(await anotherRepsLead()).id}` }),
    expected: { signedOut: 401, sales: 404, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "DELETE /api/leads/{id} of a new lead",
    method: "DELETE",
    prepare: async () => ({ url: `/api/leads/${(await newLead()).id}` }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 404 },
  },
  {
    name: "POST /api/dealerships/{id}/leads/remind-unattended",
    method: "POST",
    prepare: async () => {
      await newLead();
      return { url: `/api/dealerships/${dealershipId}/leads/remind-unattended` };
    },
    expected: { signedOut: 401, sales: 403, frontDesk: 200, management: 200, otherDealership: 403 },
  },
  {
    name: "GET /api/dealerships/{id}/metrics",
    method: "GET",
    prepare: async () => ({ url: `/api/dealerships/${dealershipId}/metrics` }),
    expected: { signedOut: 401, sales: 200, frontDesk: 200, management: 200, otherDealership: 403 },
  },
];

describe.each(CASES)("$name", (c) => {
  it.each(ACTORS)("answers the expected status to %s, and a refusal changes nothing", async (actor) => {
    const { url, body } = await c.prepare();
    const before = await snapshot();
    const response = await agents[actor].request({ method: c.method, url, ...(body === undefined ? {} : { payload: body as object }) });
    expect(response.statusCode, `${c.method} ${url} as ${actor}: ${response.body}`).toBe(c.expected[actor]);
    if (response.statusCode >= 400) {
      expect(await snapshot()).toEqual(before);
      expect(response.json()).toHaveProperty("message");
    }
  });
});
