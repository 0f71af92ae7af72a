import type { DealershipRole } from "../../src/shared/constants";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, type MadeUser } from "../../src/server/db/factories";
import { createApiToken } from "../../src/server/integrations/api-tokens";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { Call, makeWorld, type Caller, type World } from "./permissions-world";

// What an API token may call (issue 28, decision 225), route by route: every API route the app registers (the list
// tests/api/permissions.test.ts walks), with the world of that test. The rule is written here, independently of
// src/server/integrations/token-requests.ts:
//   - the families the issue names (the platform, the profile and everything under /api/user, two-factor, sessions,
//     and the management of tokens and webhooks) and a person's other things (sign-in and sign-up, the dealership
//     list, push subscriptions, the bell's per-person read mark, avatars, feeds, the docs page, health) are refused
//     to a token of every role, with 401 or 403;
//   - every other route is the dealership's API: a token of each role (sales, front desk, management) of dealership
//     "ours" gets exactly the status a session of a person with that role there gets, each with objects of its own
//     made the same way (EXCEPTIONS lists where a token differs on purpose, and why); and a token of each role of
//     another dealership is refused (401, 403 or 404) on the same URLs, which name "ours"'s records.
// A new route that forgets the token rule fails here: one a token cannot reach though a person with its role can
// (it must be added to the token's routes or to REFUSED below, with a reason), one a token reaches in another
// dealership, or one in a refused family that a token reaches.

const ROLES: Record<DealershipRole, Caller> = { sales: "sales", frontDesk: "front desk", management: "management" };

/** Routes no token may call: [pattern, why]. Checked against every route; each family must match at least one. */
const REFUSED: [RegExp, string][] = [
  [/^\/api\/platform(\/|$)/, "the platform screens"],
  [/^\/api\/user\/sessions(\/|$)/, "sessions"],
  [/^\/api\/user(\/|$)/, "the profile, the password, e-mail changes, the avatar, the current dealership"],
  [/^\/api\/auth\/2fa\//, "two-factor"],
  [/^\/api\/dealerships\/:id\/api-tokens(\/|$)/, "token management"],
  [/^\/api\/dealerships\/:id\/webhooks(\/|$)/, "webhook management"],
  [/^\/api\/(login|logout|register)$/, "signing in, out and up"],
  [/^\/api\/auth\/(password-reset|email-verification)\//, "password resets and sign-up codes"],
  [/^\/api\/invites\//, "invitations, answered before sign-up"],
  [/^\/api\/dealerships$/, "the dealership list of a person"],
  [/^\/api\/push\//, "a person's push subscriptions"],
  [/^\/api\/notifications\//, "a person's read marks on the bell"],
  [/^\/api\/avatars\//, "pictures, for the app's pages"],
  [/^\/api\/calendar\//, "calendar feeds, which carry their own token"],
  [/^\/api\/docs(\/|$)/, "the docs page, for a browser"],
  [/^\/api\/(health|ready)$/, "the load balancer's probes"],
  [/^\/api\/intake\//, "lead intake, which takes an intake credential"],
];

/** The families issue 28 names as refused to tokens: each must be found among the routes. */
const ISSUE_FAMILIES = ["the platform screens", "sessions", "two-factor", "token management", "webhook management"];
const PROFILE = "GET /api/user";

/**
 * Where a token's account, which is never a member of the dealership (decision 225), differs from a person with the
 * same role, on purpose: the token's status for each role named, with why. Every other status is the person's.
 */
const EXCEPTIONS: Record<string, { why: string; token: Partial<Record<DealershipRole, number>> }> = {
  "PUT /api/dealerships/:id/availability": { why: "the floor rota is of sales members; a token is on no rota", token: { sales: 403 } },
  "POST /api/leads/:id/tasks": {
    why: "a task is a member's: a token names the assignee (TokenCall.body), and a sales role may not give a task to someone else, so a sales token makes none",
    token: { sales: 403 },
  },
};

const refusedWhy = (url: string) => REFUSED.find(([pattern]) => pattern.test(url))?.[1];

/** A call made with an API token: its caller is the token's own account, with the token's role in its dealership. */
class TokenCall extends Call {
  private account: Promise<MadeUser & { token: string }> | undefined;

  constructor(
    world: World,
    caller: Caller,
    readonly role: DealershipRole,
    readonly dealershipId: string,
    readonly creatorId: string,
  ) {
    super(world, caller);
  }

  override user(): Promise<MadeUser & { token: string }> {
    this.account ??= this.world.db
      .transaction((tx) => createApiToken(tx, this.dealershipId, this.creatorId, { name: `Scope ${this.n}`, role: this.role }))
      .then(({ row, token }) => ({ id: row.userId, email: `api-token.${row.id.toLowerCase()}@api-tokens.invalid`, password: "", firstName: row.name, lastName: "(API token)", token }));
    return this.account;
  }

  /**
   * The person's body, except that a task names its assignee: a person's task is their own by default, and a token's
   * account, being no member, cannot hold one (400 on assigneeId), so a token says whose it is.
   */
  override async body(method: string, url: string) {
    const body = await super.body(method, url);
    if (`${method} ${url}` === "POST /api/leads/:id/tasks") return { ...(body as object), assigneeId: (await this.colleague()).id };
    return body;
  }

  async bearer(): Promise<string> {
    return `Bearer ${(await this.user()).token}`;
  }
}

let t: TestApp;
let world: World;
let routes: string[];
let creators: { ours: string; theirs: string };

beforeAll(async () => {
  t = await createTestApp();
  world = await makeWorld(t.db);
  creators = {
    ours: (await makeUser(t.db, { memberships: [{ dealershipId: world.ours, role: "management" }] })).id,
    theirs: (await makeUser(t.db, { memberships: [{ dealershipId: world.theirs, role: "management" }] })).id,
  };
  routes = t.app.routeList
    .filter((r) => r.url.startsWith("/api/"))
    .map((r) => `${r.method} ${r.url}`)
    .sort();
});
afterAll(() => t.close());

async function send(call: Call, route: string, auth: { cookie: string } | { authorization: string } | Record<string, never>) {
  const [method, url] = route.split(" ") as [string, string];
  const body = await call.body(method, url);
  const response = await t.app.inject({ method: method as "GET", url: await call.url(method, url), headers: auth, ...(body ? { payload: body as object } : {}) });
  return { status: response.statusCode, body: response.body.slice(0, 300) };
}

async function asSession(route: string, caller: Caller) {
  const call = new Call(world, caller);
  return send(call, route, { cookie: (await call.cookie())! });
}

async function asToken(route: string, role: DealershipRole, dealership: "ours" | "theirs") {
  const call = new TokenCall(world, dealership === "ours" ? ROLES[role] : "other dealership", role, world[dealership], creators[dealership]);
  return send(call, route, { authorization: await call.bearer() });
}

describe("API token scope", () => {
  it("every refused family of the issue is among the routes, and the refusals cover whole families", () => {
    const families = new Set(routes.map((route) => refusedWhy(route.split(" ")[1]!)).filter(Boolean));
    for (const family of ISSUE_FAMILIES) expect(families, family).toContain(family);
    expect(routes).toContain(PROFILE);
    // Every pattern still names a route: one left over from a removed route would hide nothing, but is misleading.
    for (const [pattern, why] of REFUSED) expect(routes.some((route) => pattern.test(route.split(" ")[1]!)), why).toBe(true);
    for (const route of Object.keys(EXCEPTIONS)) expect(routes, EXCEPTIONS[route]!.why).toContain(route);
  });

  it("a token of every role is refused the platform, the profile, two-factor, sessions, token and webhook management, and a person's other routes", async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => refusedWhy(r.split(" ")[1]!))) {
      for (const role of Object.keys(ROLES) as DealershipRole[]) {
        const { status, body } = await asToken(route, role, "ours");
        if (status !== 401 && status !== 403) wrong.push(`${route} (${refusedWhy(route.split(" ")[1]!)}), ${role} token: ${status} ${body}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("on every other route a token of each role gets what a person with that role gets, in its own dealership only", async () => {
    const differs: string[] = [];
    const reachedTheirs: string[] = [];
    let compared = 0;
    for (const route of routes.filter((r) => !refusedWhy(r.split(" ")[1]!))) {
      for (const role of Object.keys(ROLES) as DealershipRole[]) {
        const person = await asSession(route, ROLES[role]);
        const token = await asToken(route, role, "ours");
        const expected = EXCEPTIONS[route]?.token[role] ?? person.status;
        if (person.status >= 500 || token.status !== expected) differs.push(`${route}, ${role}: a person ${person.status}, a token ${token.status} (expected ${expected}) ${token.body}`);
        compared++;
      }
      // A route anyone may call signed out (the API's description) names no dealership: nothing to keep a token out of.
      if ((await send(new Call(world, "signed out"), route, {})).status < 400) continue;
      for (const role of Object.keys(ROLES) as DealershipRole[]) {
        const { status, body } = await asToken(route, role, "theirs");
        if (![401, 403, 404].includes(status)) reachedTheirs.push(`${route}, ${role} token of another dealership: ${status} ${body}`);
      }
    }
    expect(differs).toEqual([]);
    expect(reachedTheirs).toEqual([]);
    // The dealership's API is most of the routes: a REFUSED pattern grown too wide would leave little to compare.
    expect(compared).toBeGreaterThan(80 * 3);
  }, 300_000);
});
