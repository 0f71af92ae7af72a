import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app";
import { testConfig } from "../../src/server/config";
import { makeDealership, makeUser } from "../../src/server/db/factories";
import { makeLead } from "../../src/server/db/factories-leads";
import { addDays, localToday } from "../../src/shared/dealership-clock";
import { appointmentListQuerySchema } from "../../src/shared/schemas/appointment";
import { anonymous, createTestApp, createTestDatabase, signIn, type Agent, type TestApp } from "../helpers/test-app";

// How the API answers when things go wrong (ARCHITECTURE invariant 5).

let t: Omit<TestApp, "database">;
let manager: Agent;
let dealershipId: string;
let leadId: string;
let today: string;
beforeAll(async () => {
  const database = await createTestDatabase();
  const app = await buildApp({ config: testConfig(), database });
  app.get("/api/test/explode", async () => {
    throw new Error("relation secret_table does not exist at /srv/app/db.ts:42");
  });
  await app.ready();
  t = { app, db: database.db, close: async () => (await app.close(), await database.drop()) };
  const dealership = await makeDealership(t.db);
  dealershipId = dealership.id;
  today = localToday(dealership.timezone);
  leadId = (await makeLead(t.db, { dealershipId })).id;
  manager = await signIn(app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
});
afterAll(() => t.close());

describe("health", () => {
  it("answers 503 when the database does not answer", async () => {
    const database = await createTestDatabase();
    const app = await buildApp({ config: testConfig(), database });
    await app.ready();
    expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    await database.drop();
    const response = await app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: "unavailable" });
    await app.close();
  });
});

describe("errors", () => {
  it("answers a 500 without leaking internals", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/test/explode" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: "Internal server error" });
    expect(response.body).not.toContain("secret_table");
  });

  it("answers malformed JSON with a 400 JSON message", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/login",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty("message");
  });

  it("answers a body over 1 MiB with 413", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ email: "a@b.co", password: "x".repeat(1_100_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: "Request body is too large" });
  });

  it("answers an unknown API path with a 404 JSON message", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/no-such-thing" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "Not found" });
  });

  it("says which field failed and why", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/login", payload: { email: "not-an-email", password: "123" } });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      email: "Please enter a valid email",
      password: "Password must be at least 6 characters",
    });
  });

  it("sets security headers, a content security policy included", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-frame-options"]).toBeDefined();
    // Plain HTTP (secure cookies off): no HSTS, and the policy does not ask to upgrade requests.
    expect(response.headers["strict-transport-security"]).toBeUndefined();
    expect(response.headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    // The same headers on an error.
    const missing = await t.app.inject({ method: "GET", url: "/api/no-such-route" });
    expect(missing.headers["content-security-policy"]).toBe(response.headers["content-security-policy"]);
  });

  it("adds HSTS and upgrade-insecure-requests when served over HTTPS (secure cookies on)", async () => {
    const secure = await createTestApp({ secureCookies: true });
    try {
      const response = await secure.app.inject({ method: "GET", url: "/api/health" });
      expect(response.headers["strict-transport-security"]).toContain("max-age=");
      expect(response.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    } finally {
      await secure.close();
    }
  });
});

describe("text no field means (decision 037)", () => {
  it("refuses a NUL byte in a JSON body field with a 400 naming the field, signed out", async () => {
    const response = await anonymous(t.app).post("/api/register", {
      firstName: "Ann\u0000",
      lastName: "Lee",
      email: "ann@example.com",
      password: "Correct-Horse-Battery-91",
      confirmPassword: "Correct-Horse-Battery-91",
      dealershipName: "Northside",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: "firstName: must not contain control characters",
      fields: { firstName: "must not contain control characters" },
    });
  });

  it("refuses a NUL byte in a path parameter, signed out and signed in", async () => {
    const signedOut = await anonymous(t.app).get("/api/invites/email/a%00b");
    expect(signedOut.statusCode).toBe(400);
    expect(signedOut.json().fields).toEqual({ email: "must not contain control characters" });
    const signedIn = await manager.get("/api/leads/a%00b");
    expect(signedIn.statusCode).toBe(400);
    expect(signedIn.json().fields).toEqual({ id: "must not contain control characters" });
  });

  it("refuses a NUL byte or another control character in a query parameter", async () => {
    for (const q of ["a%00b", "a%1Bb", "a%7F"]) {
      const response = await manager.get(`/api/dealerships/${dealershipId}/leads?q=${q}`);
      expect(response.statusCode, q).toBe(400);
      expect(response.json().fields, q).toEqual({ q: "must not contain control characters" });
    }
  });

  it("refuses broken UTF-16 (a lone surrogate) in a body", async () => {
    const response = await manager.patch(`/api/leads/${leadId}`, { description: "half \ud83d of an emoji" });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ description: "must be valid text" });
  });

  it("names a nested field by its path, and refuses control characters in keys", async () => {
    const nested = await manager.patch(`/api/leads/${leadId}`, { description: "ok", extra: { list: ["fine", "bad\u0007"] } });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().fields).toEqual({ "extra.list.1": "must not contain control characters" });
    const key = await manager.request({
      method: "PATCH",
      url: `/api/leads/${leadId}`,
      headers: { "content-type": "application/json" },
      payload: '{"descr\\u0000iption":"x"}',
    });
    expect(key.statusCode).toBe(400);
    expect(key.json().fields).toEqual({ body: "keys must not contain control characters" });
  });

  it("keeps tabs and line breaks in a body: they are text someone typed", async () => {
    const response = await manager.patch(`/api/leads/${leadId}`, { description: "Trade-in:\r\n\t2015 Civic\nWants a quote" });
    expect(response.statusCode).toBe(200);
    expect(response.json().description).toBe("Trade-in:\r\n\t2015 Civic\nWants a quote");
  });

  it("answers a body nested thousands of levels deep without a server error", async () => {
    const response = await manager.request({
      method: "PATCH",
      url: `/api/leads/${leadId}`,
      headers: { "content-type": "application/json" },
      payload: `{"description":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty("message");
  });
});

describe("dates outside 2000-01-01 to 2100-12-31 (decision 037)", () => {
  it("refuses them in the appointment list's date, from and to with a 400 naming the field", async () => {
    for (const [name, value] of [["date", "0000-01-01"], ["date", "9999-12-31"], ["from", "1999-12-31"], ["to", "2101-01-01"]] as const) {
      const response = await manager.get(`/api/dealerships/${dealershipId}/appointments?${name}=${value}`);
      expect(response.statusCode, `${name}=${value}`).toBe(400);
      expect(response.json().fields, `${name}=${value}`).toEqual({ [name]: `${name} must be between 2000-01-01 and 2100-12-31` });
    }
  });

  it("refuses them in the calendar's day counts", async () => {
    const response = await manager.get(`/api/dealerships/${dealershipId}/appointments/days?from=0000-01-01&to=0000-01-31`);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty("from");
  });

  it("refuses them when scheduling, and takes the last day of the range", async () => {
    const appointment = (date: string) =>
      manager.post(`/api/dealerships/${dealershipId}/appointments`, { title: "Test drive", firstName: "Ann", lastName: "Lee", date, time: "10:00" });
    const tooLate = await appointment("2101-01-01");
    expect(tooLate.statusCode).toBe(400);
    expect(tooLate.json().fields).toEqual({ date: "Date must be between 2000-01-01 and 2100-12-31" });
    expect((await appointment("2100-12-31")).statusCode).toBe(201);
  });

  it("are the same bounds in the shared schema the calendar form uses", () => {
    const valid = (date: string) => appointmentListQuerySchema.safeParse({ date }).success;
    expect([valid("2000-01-01"), valid("2100-12-31"), valid(today), valid(addDays(today, 365))]).toEqual([true, true, true, true]);
    expect([valid("1999-12-31"), valid("2101-01-01"), valid("2024-02-30")]).toEqual([false, false, false]);
  });
});
