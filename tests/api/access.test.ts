import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealership, makeUser } from "../../src/server/db/factories";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../helpers/test-app";

// Route-wide access rules (ARCHITECTURE invariants 1 and 2), checked over every API route the app registers,
// so a route added later cannot forget them. Area tests check the finer per-role rules.

/** Routes anyone may call signed out. Adding a route here is a security decision: say why. */
const PUBLIC_ROUTES = new Set([
  "GET /api/health", // load balancers
  "GET /api/ready", // load balancers: may this process take requests (says nothing about data)
  "POST /api/login",
  "GET /api/login", // redirect to the sign-in screen
  "POST /api/logout", // harmless without a session
  "POST /api/register",
  "GET /api/user/platform-admin-status", // answers false when signed out (spec part 1 §7)
  "GET /api/invites/email/:email", // invitation check before sign-up
  "POST /api/auth/email-verification/request",
  "POST /api/auth/email-verification/verify",
  "POST /api/auth/password-reset/request", // forgotten password: same answer for any e-mail, throttled
  "POST /api/auth/password-reset/confirm", // the e-mailed single-use token decides
  "GET /api/calendar/:token.ics", // calendar apps subscribe without a session; the secret token decides
  "GET /api/openapi.json", // the API's description (issue 28): routes and schemas, no data
  "GET /api/docs", // the page that renders it, and its two scripts
  "GET /api/docs/start.js",
  "GET /api/docs/redoc.js",
]);

let t: TestApp;
let stranger: Agent;
let dealershipId: string;
let routes: Array<{ method: string; url: string }>;

beforeAll(async () => {
  t = await createTestApp();
  const ours = await makeDealership(t.db);
  const theirs = await makeDealership(t.db);
  dealershipId = ours.id;
  const outsider = await makeUser(t.db, { memberships: [{ dealershipId: theirs.id, role: "management" }] });
  stranger = await signIn(t.app, outsider);
  routes = t.app.routeList.filter((r) => r.url.startsWith("/api/"));
});
afterAll(() => t.close());

const fill = (url: string) =>
  url
    .replace(/:id\b|:dealershipId\b/g, dealershipId)
    .replace(/:[A-Za-z]+/g, "x".repeat(21));

function call(agent: Agent, method: string, url: string) {
  return agent.request({ method: method as "GET", url: fill(url), ...(method === "GET" || method === "DELETE" ? {} : { payload: {} }) });
}

describe("every API route", () => {
  it("is registered (the list is not empty)", () => {
    expect(routes.length).toBeGreaterThan(5);
  });

  it("has every named public route (the list stays honest)", () => {
    const registered = new Set(routes.map((r) => `${r.method} ${r.url}`));
    expect([...PUBLIC_ROUTES].filter((r) => !registered.has(r))).toEqual([]);
  });

  it("answers 401 to a signed-out caller unless it is a named public route", async () => {
    const open: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      if (PUBLIC_ROUTES.has(key)) continue;
      const response = await call(anonymous(t.app), route.method, route.url);
      if (response.statusCode !== 401) open.push(`${key} -> ${response.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  it("answers 403 on a dealership's paths to a manager of another dealership", async () => {
    const leaking: string[] = [];
    for (const route of routes.filter((r) => /^\/api\/dealerships\/:(id|dealershipId)\//.test(r.url))) {
      const response = await call(stranger, route.method, route.url);
      if (response.statusCode !== 403) leaking.push(`${route.method} ${route.url} -> ${response.statusCode}`);
    }
    expect(leaking).toEqual([]);
  });
});
