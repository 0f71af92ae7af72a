import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealership, makeUser } from "../../src/server/db/factories";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../helpers/test-app";

// API answers carry personal data: no browser or proxy may keep them (decision 039), unless a route says otherwise.

let t: TestApp;
let manager: Agent;
let dealershipId: string;
beforeAll(async () => {
  t = await createTestApp();
  dealershipId = (await makeDealership(t.db)).id;
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
});
afterAll(() => t.close());

describe("Cache-Control on /api", () => {
  it("is no-store on answers with data, signed in", async () => {
    for (const url of ["/api/user", `/api/dealerships/${dealershipId}/leads`, `/api/dealerships/${dealershipId}/users`]) {
      const response = await manager.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["cache-control"], url).toBe("no-store");
    }
  });

  it("is no-store on errors and on public routes too", async () => {
    const answers = [
      await anonymous(t.app).get("/api/health"),
      await anonymous(t.app).get("/api/user"),
      await anonymous(t.app).get("/api/no-such-route"),
      await anonymous(t.app).post("/api/login", { email: "not-an-email", password: "x" }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 400]);
    for (const response of answers) expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("keeps what a route sets itself: the calendar feed may be cached privately for five minutes", async () => {
    const feed = (await manager.post(`/api/dealerships/${dealershipId}/calendar-feed`, { scope: "mine" })).json() as { url: string };
    const response = await anonymous(t.app).get(new URL(feed.url).pathname);
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("private, max-age=300");
  });
});
