import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";

// Writes from another origin are refused (decision 005): a browser's Origin must be ours, and `Origin: null` (a
// sandboxed frame, a file: page, a cross-site redirect) names no origin at all, so it is refused too. Requests with no
// Origin (curl, server-to-server) carry no browser cookies and pass.

let t: TestApp;
const APP_URL = "https://crm.dealer.example";
beforeAll(async () => {
  t = await createTestApp({ appUrl: APP_URL });
});
afterAll(() => t.close());

function write(headers: Record<string, string>, method: "POST" | "PATCH" | "PUT" | "DELETE" = "POST") {
  return t.app.inject({ method, url: "/api/logout", headers: { host: "localhost:5000", ...headers } });
}

describe("a write to the API", () => {
  it("is refused with Origin: null, whatever the method", async () => {
    for (const method of ["POST", "PATCH", "PUT", "DELETE"] as const) {
      const response = await write({ origin: "null" }, method);
      expect(response.statusCode, method).toBe(403);
      expect(response.json()).toEqual({ message: "Cross-origin request refused" });
    }
  });

  it("is refused from another origin, or an Origin that is no URL", async () => {
    expect((await write({ origin: "https://evil.example" })).statusCode).toBe(403);
    expect((await write({ origin: "not a url" })).statusCode).toBe(403);
  });

  it("is refused without Origin when the browser says it is cross-site", async () => {
    expect((await write({ "sec-fetch-site": "cross-site" })).statusCode).toBe(403);
  });

  it("passes from the page's own host or from APP_URL", async () => {
    expect((await write({ origin: "http://localhost:5000" })).statusCode).not.toBe(403);
    expect((await write({ origin: APP_URL })).statusCode).not.toBe(403);
  });

  it("passes without Origin (curl, scripts: no browser cookies to abuse)", async () => {
    expect((await write({})).statusCode).not.toBe(403);
  });
});

describe("a read from the API", () => {
  it("is not refused for its Origin: reads change nothing", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health", headers: { origin: "null" } });
    expect(response.statusCode).toBe(200);
  });
});
