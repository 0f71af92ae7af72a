import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, TEST_MAIL_RETRY, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { buildApp } from "../app";
import { testConfig } from "../config";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { makeLead } from "../db/factories-leads";
import { domainEvents } from "../db/schema/events";
import { apiTokens } from "../db/schema/integrations";
import { createMailer } from "../mail/mailer";
import { hashApiToken } from "./api-tokens";

// API tokens (issue 28, decision 225): management makes them; a token acts with its role in its own dealership only,
// never on a person's own things or on tokens and webhooks; a revoke is seen by every process at once; rate-limited.

let t: TestApp;
let ours: string;
let theirs: string;
let people: Record<"sales" | "management" | "outsider", MadeUser>;
let as: Record<keyof typeof people, Agent>;

const tokensPath = () => `/api/dealerships/${ours}/api-tokens`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function withToken(app: FastifyInstance, token: string, method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", url: string, payload?: object, headers: Record<string, string> = {}) {
  return app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload ? { payload } : {}) });
}

async function makeToken(role: "sales" | "frontDesk" | "management", extra: object = {}): Promise<{ id: string; token: string }> {
  const response = await as.management.post(tokensPath(), { name: `Website ${role}`, role, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

beforeAll(async () => {
  t = await createTestApp();
  ours = (await makeDealership(t.db, { name: "Northside" })).id;
  theirs = (await makeDealership(t.db, { name: "Elsewhere" })).id;
  people = {
    sales: await makeUser(t.db, { memberships: [{ dealershipId: ours, role: "sales" }] }),
    management: await makeUser(t.db, { memberships: [{ dealershipId: ours, role: "management" }] }),
    outsider: await makeUser(t.db, { memberships: [{ dealershipId: theirs, role: "management" }] }),
  };
  as = { sales: await signIn(t.app, people.sales), management: await signIn(t.app, people.management), outsider: await signIn(t.app, people.outsider) };
});
afterAll(() => t.close());

describe("management makes, lists and revokes tokens", () => {
  it("answers the token once, shr_ and 32 random bytes, and keeps only its SHA-256", async () => {
    const response = await as.management.post(tokensPath(), { name: "Website form", role: "frontDesk", expiresAt: "2099-01-01T00:00:00Z" });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created.token).toMatch(/^shr_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: "Website form", role: "frontDesk", lastUsedAt: null, expiresAt: "2099-01-01T00:00:00.000Z" });
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row!.tokenHash).toBe(hashApiToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(4));
    const list = await as.management.get(tokensPath());
    expect(list.statusCode).toBe(200);
    const listed = list.json().find((token: { id: string }) => token.id === created.id);
    expect(Object.keys(listed).sort()).toEqual(["createdAt", "expiresAt", "id", "lastUsedAt", "name", "role"]);
    expect(list.body).not.toContain(created.token.slice(4));
    const events = await t.db.select().from(domainEvents).where(eq(domainEvents.type, "api_token.created"));
    expect(JSON.stringify(events)).not.toContain(created.token.slice(4));
  });

  it("refuses other roles and other dealerships, and bad input with its field", async () => {
    expect((await as.sales.post(tokensPath(), { name: "Mine", role: "sales" })).statusCode).toBe(403);
    expect((await as.sales.get(tokensPath())).statusCode).toBe(403);
    expect((await as.outsider.get(tokensPath())).statusCode).toBe(403);
    const bad = await as.management.post(tokensPath(), { name: " ", role: "owner" });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(expect.arrayContaining(["name", "role"]));
    const past = await as.management.post(tokensPath(), { name: "Old", role: "sales", expiresAt: "2001-01-01T00:00:00Z" });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toHaveProperty("expiresAt");
  });

  it("a revoked token is gone from the list and answers 401; revoking it again is a 404", async () => {
    const { id, token } = await makeToken("sales");
    expect((await withToken(t.app, token, "GET", `/api/dealerships/${ours}/leads`)).statusCode).toBe(200);
    expect((await as.management.delete(`${tokensPath()}/${id}`)).statusCode).toBe(200);
    expect((await as.management.get(tokensPath())).json().map((x: { id: string }) => x.id)).not.toContain(id);
    const refused = await withToken(t.app, token, "GET", `/api/dealerships/${ours}/leads`);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["www-authenticate"]).toContain("Bearer");
    expect((await as.management.delete(`${tokensPath()}/${id}`)).statusCode).toBe(404);
    expect((await as.outsider.delete(`/api/dealerships/${theirs}/api-tokens/${id}`)).statusCode).toBe(404);
  });

  it("leaves a bearer secret that is not an API token to its route (lead intake's credentials come that way)", async () => {
    const other = await withToken(t.app, "intake-credential-secret", "GET", `/api/dealerships/${ours}/leads`);
    expect(other.statusCode).toBe(401);
    expect(other.json<{ message: string }>().message).not.toMatch(/API token/);
    expect(other.headers["www-authenticate"]).toBeUndefined();
  });

  it("an expired token answers 401", async () => {
    const { id, token } = await makeToken("management");
    await t.db.update(apiTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiTokens.id, id));
    expect((await withToken(t.app, token, "GET", `/api/dealerships/${ours}/leads`)).statusCode).toBe(401);
    expect((await withToken(t.app, "shr_not-a-token", "GET", `/api/dealerships/${ours}/leads`)).statusCode).toBe(401);
  });
});

describe("a token acts with its role, in its dealership only", () => {
  it("gets its role's permissions: management's rules for a management token, not for a sales one", async () => {
    const sales = await makeToken("sales");
    const management = await makeToken("management");
    expect((await withToken(t.app, management.token, "GET", `/api/dealerships/${ours}/follow-up-rules`)).statusCode).toBe(200);
    expect((await withToken(t.app, sales.token, "GET", `/api/dealerships/${ours}/follow-up-rules`)).statusCode).toBe(403);
    // A lead another rep claimed: management sees it, a sales token (like a salesperson) does not.
    const claimed = await makeLead(t.db, { dealershipId: ours, claimedBy: people.sales.id });
    expect((await withToken(t.app, management.token, "GET", `/api/leads/${claimed.id}`)).statusCode).toBe(200);
    expect((await withToken(t.app, sales.token, "GET", `/api/leads/${claimed.id}`)).statusCode).toBe(404);
  });

  it("cannot reach another dealership, by its paths or by its records' ids", async () => {
    const { token } = await makeToken("management");
    const theirLead = await makeLead(t.db, { dealershipId: theirs });
    expect((await withToken(t.app, token, "GET", `/api/dealerships/${theirs}/leads`)).statusCode).toBe(403);
    expect((await withToken(t.app, token, "GET", `/api/leads/${theirLead.id}`)).statusCode).toBe(404);
  });

  it.each([
    ["platform", "GET", "/api/platform/overview"],
    ["profile", "GET", "/api/user"],
    ["sessions", "GET", "/api/user/sessions"],
    ["two-factor", "POST", "/api/auth/2fa/setup"],
    ["token management", "GET", "/api/dealerships/:ours/api-tokens"],
    ["token creation", "POST", "/api/dealerships/:ours/api-tokens"],
    ["webhook management", "GET", "/api/dealerships/:ours/webhooks"],
    ["the dealership list", "GET", "/api/dealerships"],
    ["sign-out", "POST", "/api/logout"],
  ] as const)("is refused %s, whatever its role", async (_area, method, path) => {
    const { token } = await makeToken("management");
    const response = await withToken(t.app, token, method, path.replace(":ours", ours), method === "POST" ? { name: "x", role: "sales" } : undefined);
    expect([401, 403, 404]).toContain(response.statusCode);
    if (!path.includes("webhooks")) expect(response.statusCode).toBe(403);
  });

  it("needs no Origin check (no cookie is involved), and a request with a cookie and a token is refused with 400", async () => {
    const { token } = await makeToken("frontDesk");
    const created = await withToken(t.app, token, "POST", `/api/dealerships/${ours}/leads`, { firstName: "Ada", lastName: "Web", email: "ada@example.com" }, { origin: "https://dealer-website.example" });
    expect(created.statusCode, created.body).toBe(201);
    const both = await as.management.request({ method: "GET", url: `/api/dealerships/${ours}/leads`, headers: bearer(token) });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toMatch(/not both/);
  });

  it("marks lastUsedAt, but not on every request", async () => {
    const { id, token } = await makeToken("sales");
    await withToken(t.app, token, "GET", `/api/dealerships/${ours}/leads`);
    const [first] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(first!.lastUsedAt).not.toBeNull();
    await withToken(t.app, token, "GET", `/api/dealerships/${ours}/leads`);
    const [second] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(second!.lastUsedAt!.getTime()).toBe(first!.lastUsedAt!.getTime());
  });
});

describe("in two app processes on one database", () => {
  let other: FastifyInstance;
  beforeAll(async () => {
    const config = testConfig({ apiRateLimit: 5 });
    const mailer = createMailer({ database: t.database, logger: pino({ level: "silent" }), from: config.mailFrom, retry: TEST_MAIL_RETRY, closeDrainMs: 0 });
    other = await buildApp({ config, database: t.database, mailer });
    await other.ready();
  });
  afterAll(() => other.close());

  it("a token revoked in one process answers 401 in the other at once", async () => {
    const { id, token } = await makeToken("management");
    expect((await withToken(other, token, "GET", `/api/dealerships/${ours}/leads`)).statusCode).toBe(200);
    expect((await as.management.delete(`${tokensPath()}/${id}`)).statusCode).toBe(200);
    expect((await withToken(other, token, "GET", `/api/dealerships/${ours}/leads`)).statusCode).toBe(401);
  });

  it("counts a token's requests across processes: past the limit 429 with Retry-After", async () => {
    const { token } = await makeToken("sales");
    // The first process's limit is the default 600; this one's is 5, and both count on the one shared counter.
    for (let i = 0; i < 3; i++) expect((await withToken(t.app, token, "GET", `/api/dealerships/${ours}/leads`)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await withToken(other, token, "GET", `/api/dealerships/${ours}/leads`)).statusCode).toBe(200);
    const refused = await withToken(other, token, "GET", `/api/dealerships/${ours}/leads`);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Another token has its own count.
    const fresh = await makeToken("sales");
    expect((await withToken(other, fresh.token, "GET", `/api/dealerships/${ours}/leads`)).statusCode).toBe(200);
  });
});
