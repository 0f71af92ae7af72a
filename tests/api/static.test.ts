import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app";
import { testConfig } from "../../src/server/config";
import { createTestDatabase, type TestApp } from "../helpers/test-app";

// The built web app as the server hands it out: client-side routes, compression, long caching of hashed assets.

let t: Omit<TestApp, "database">;
let dir: string;
const script = `console.log(${JSON.stringify("showroom ".repeat(2000))});`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "showroom-static-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "index.html"), '<!doctype html><div id="root"></div><script src="/assets/index-abc123.js"></script>');
  writeFileSync(path.join(dir, "assets", "index-abc123.js"), script);
  const database = await createTestDatabase();
  const app = await buildApp({ config: testConfig(), database, clientDir: dir });
  await app.ready();
  t = { app, db: database.db, close: async () => (await app.close(), await database.drop()) };
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the web app", () => {
  it("answers client-side routes with index.html, never cached", async () => {
    for (const url of ["/", "/leads/new", "/some/unknown/path"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body).toContain('<div id="root">');
      expect(response.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("keeps unknown API paths as JSON 404s rather than the web app", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "Not found" });
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("compresses assets for browsers that accept it and lets them cache hashed files for a year", async () => {
    const response = await t.app.inject({ method: "GET", url: "/assets/index-abc123.js", headers: { "accept-encoding": "br, gzip" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.rawPayload.length).toBeLessThan(script.length / 10);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("sends assets as they are to clients that do not ask for compression", async () => {
    const plain = await t.app.inject({ method: "GET", url: "/assets/index-abc123.js" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);
  });
});
