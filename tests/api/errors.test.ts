import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app";
import { testConfig } from "../../src/server/config";
import { createTestDatabase, type TestApp } from "../helpers/test-app";

// How the API answers when things go wrong (ARCHITECTURE invariant 5).

let t: Omit<TestApp, "database">;
beforeAll(async () => {
  const database = await createTestDatabase();
  const app = await buildApp({ config: testConfig(), database });
  app.get("/api/test/explode", async () => {
    throw new Error("relation secret_table does not exist at /srv/app/db.ts:42");
  });
  await app.ready();
  t = { app, db: database.db, close: async () => (await app.close(), await database.drop()) };
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
  });
});
