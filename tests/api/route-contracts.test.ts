import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildApp } from "../../src/server/app";
import { testConfig } from "../../src/server/config";
import { makeDealership, makeUser } from "../../src/server/db/factories";
import { answers, declaredRoutes, RUNNING_SERVER_CHECKS_ONE_IN, type ZodTypeProvider } from "../../src/server/http/contract";
import { parseInput, type HttpError } from "../../src/server/http/errors";
import { loginSchema } from "../../src/shared/schemas/auth";
import { inviteSchema } from "../../src/shared/schemas/team";
import { captureLog } from "../helpers/captured-log";
import { anonymous, createTestApp, createTestDatabase, signIn, type TestApp } from "../helpers/test-app";

// Routes declare their contract on themselves (issue 25 "Routes", decision 190): the schemas Fastify runs, and that
// the OpenAPI document is to be generated from. A route added without them fails here.

/** API routes that declare no JSON answer, and why (each is checked for what it answers in tests/api/responses.test.ts). */
const NO_JSON_ANSWER: Record<string, string> = {
  "GET /api/login": "a browser navigation when the session is gone: a redirect to the sign-in screen",
  "GET /api/calendar/:token.ics": "the calendar subscription itself: text/calendar",
  "DELETE /api/dealerships/:id/calendar-feed": "turning the subscription off: 204 with no body",
  "GET /api/avatars/:file": "a profile picture: image/webp",
  "GET /api/dealerships/:id/leads/export": "the leads list as a CSV download: text/csv",
  "GET /api/docs": "the API's documentation page: text/html",
  "GET /api/docs/start.js": "the documentation page's start: text/javascript",
  "GET /api/docs/redoc.js": "Redoc, which draws the documentation page: text/javascript",
};

let t: TestApp;
let dealershipId: string;

beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db)).id;
});
afterAll(() => t?.close());

const apiRoutes = () => declaredRoutes(t.app).filter((route) => route.url.startsWith("/api/"));
const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

describe("every API route", () => {
  it("declares its answer for success, or is listed with the reason it answers no JSON", () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(90);
    const undeclared = routes
      .filter((route) => !Object.keys(route.schema?.response ?? {}).some((status) => status.startsWith("2")))
      .map(key)
      .filter((route) => !(route in NO_JSON_ANSWER));
    expect(undeclared).toEqual([]);
  });

  it("declares its 4xx answers too, so refusals are part of the contract", () => {
    const routes = apiRoutes().filter((route) => route.schema?.response && !["GET /api/health", "GET /api/ready"].includes(key(route)));
    expect(routes.filter((route) => !("4xx" in route.schema!.response!)).map(key)).toEqual([]);
  });

  it("declares exactly its path parameters", () => {
    const wrong = apiRoutes().flatMap((route) => {
      const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]).sort();
      const params = route.schema?.params as z.ZodObject | undefined;
      const declaredNames = params ? Object.keys(params.shape).sort() : [];
      return names.join() === declaredNames.join() ? [] : [`${key(route)}: path has [${names}], schema has [${declaredNames}]`];
    });
    expect(wrong).toEqual([]);
  });

  it("lists no exception for a route that is gone", () => {
    const registered = new Set(apiRoutes().map(key));
    expect(Object.keys(NO_JSON_ANSWER).filter((route) => !registered.has(route))).toEqual([]);
  });
});

describe("a schema on the route", () => {
  it("refuses a bad body with the 400 the handler's parseInput gave: message and each field", async () => {
    const response = await anonymous(t.app).post("/api/login", { email: "not an e-mail" });
    expect(response.statusCode).toBe(400);
    let expected: unknown;
    try {
      parseInput(loginSchema, { email: "not an e-mail" });
    } catch (error) {
      expected = { message: (error as HttpError).message, fields: (error as HttpError).fields };
    }
    expect(response.json()).toEqual(expected);
    expect(response.json()).toMatchObject({ fields: { email: expect.any(String), password: expect.any(String) } });
  });

  it("reads an absent body as {}, as parseInput did", async () => {
    const response = await anonymous(t.app).request({ method: "POST", url: "/api/login" });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json<{ fields: object }>().fields).sort()).toEqual(["email", "password"]);
  });

  it("answers who may ask before it looks at the body: 401 signed out, 403 without the capability", async () => {
    const bad = { email: "" };
    expect(inviteSchema.safeParse(bad).success).toBe(false);
    const signedOut = await anonymous(t.app).post(`/api/dealerships/${dealershipId}/invites`, bad);
    expect(signedOut.statusCode).toBe(401);
    const rep = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "sales" }] }));
    const forbidden = await rep.post(`/api/dealerships/${dealershipId}/invites`, bad);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ message: "Only management can manage users and invitations" });
    const manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
    expect((await manager.post(`/api/dealerships/${dealershipId}/invites`, bad)).statusCode).toBe(400);
  });
});

describe("an answer its schema does not describe", () => {
  // A route of the test's own, answering a field its strict schema does not name (as a leaked hash would be).
  async function appWithLeakyRoute(answerMismatch: "refuse" | "log") {
    const database = await createTestDatabase();
    const log = captureLog("error");
    const app = await buildApp({ config: testConfig(), database, answerMismatch, logger: log.logger });
    const leaky = { id: "u1", password: "$argon2id$secret" };
    app.withTypeProvider<ZodTypeProvider>().get(
      "/api/test/leaky",
      { schema: { response: answers(z.strictObject({ id: z.string() })) } },
      async () => leaky as { id: string },
    );
    await app.ready();
    return { app, log, close: async () => (await app.close(), await database.drop()) };
  }

  it("is a 500 in tests, and the field never leaves", async () => {
    const { app, close } = await appWithLeakyRoute("refuse");
    try {
      const response = await app.inject({ method: "GET", url: "/api/test/leaky" });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: "Internal server error" });
      expect(response.body).not.toContain("argon2id");
    } finally {
      await close();
    }
  });

  it("is sent unchanged and logged on a running server: nothing is stripped from what the client reads", async () => {
    const { app, log, close } = await appWithLeakyRoute("log");
    try {
      const response = await app.inject({ method: "GET", url: "/api/test/leaky" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ id: "u1", password: "$argon2id$secret" });
      const logged = log.lines().filter((line) => line.msg === "answer does not match its schema");
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ route: "GET /api/test/leaky 2xx", problems: ['(body): Unrecognized key: "password"'] });
    } finally {
      await close();
    }
  });

  it("is checked on a running server in the route's first answer, then one in RUNNING_SERVER_CHECKS_ONE_IN (issue 32)", async () => {
    const { app, log, close } = await appWithLeakyRoute("log");
    try {
      for (let i = 0; i < RUNNING_SERVER_CHECKS_ONE_IN + 1; i++) {
        const response = await app.inject({ method: "GET", url: "/api/test/leaky" });
        expect(response.json()).toEqual({ id: "u1", password: "$argon2id$secret" });
      }
      // Answers 1 and RUNNING_SERVER_CHECKS_ONE_IN + 1 were checked; the ones between were sent unchecked.
      expect(log.lines().filter((line) => line.msg === "answer does not match its schema")).toHaveLength(2);
    } finally {
      await close();
    }
  });
});
