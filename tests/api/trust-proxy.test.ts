import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app";
import { loadConfig, parseTrustProxy, testConfig, type Config } from "../../src/server/config";
import { createTestDatabase } from "../helpers/test-app";

// Whose X-Forwarded-* headers count (decision 038): nobody's by default, so a client cannot choose the address the
// per-address sign-in limits count; with TRUST_PROXY, only the configured proxies'.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const apps: FastifyInstance[] = [];

/** An app with the given proxy trust and a throwaway route that shows the address and host the app believes. */
async function appTrusting(trustProxy: Config["trustProxy"]): Promise<FastifyInstance> {
  const app = await buildApp({ config: testConfig({ trustProxy }), database });
  app.get("/api/test/client", async (request) => ({ ip: request.ip, host: request.host }));
  await app.ready();
  apps.push(app);
  return app;
}

async function client(app: FastifyInstance, remoteAddress: string, headers: Record<string, string>) {
  const response = await app.inject({ method: "GET", url: "/api/test/client", remoteAddress, headers });
  return response.json() as { ip: string; host: string };
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await database.drop();
});

describe("by default", () => {
  it("ignores X-Forwarded-For: the address is the connection's", async () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    const app = await appTrusting(loadConfig({}).trustProxy);
    expect((await client(app, "192.0.2.10", { "x-forwarded-for": "198.51.100.7" })).ip).toBe("192.0.2.10");
  });

  it("ignores X-Forwarded-Host, also in the cross-site check of writes", async () => {
    const app = await appTrusting(loadConfig({}).trustProxy);
    expect((await client(app, "192.0.2.10", { host: "app.internal:5000", "x-forwarded-host": "evil.example" })).host).toBe("app.internal:5000");
    const write = await app.inject({
      method: "POST",
      url: "/api/logout",
      remoteAddress: "192.0.2.10",
      headers: { host: "app.internal:5000", "x-forwarded-host": "evil.example", origin: "https://evil.example" },
    });
    expect(write.statusCode).toBe(403);
  });
});

describe("TRUST_PROXY=1 (one proxy in front)", () => {
  it("takes the address the proxy saw, and only that one: a client's own X-Forwarded-For entries are not believed", async () => {
    const app = await appTrusting(1);
    expect((await client(app, "10.0.0.2", { "x-forwarded-for": "198.51.100.7" })).ip).toBe("198.51.100.7");
    expect((await client(app, "10.0.0.2", { "x-forwarded-for": "203.0.113.66, 198.51.100.7" })).ip).toBe("198.51.100.7");
  });

  it("checks a write's Origin against the host the proxy was asked for", async () => {
    const app = await appTrusting(1);
    const write = await app.inject({
      method: "POST",
      url: "/api/logout",
      remoteAddress: "10.0.0.2",
      headers: { host: "app.internal:5000", "x-forwarded-host": "crm.dealer.example", origin: "https://crm.dealer.example" },
    });
    expect(write.statusCode).not.toBe(403);
  });
});

describe("TRUST_PROXY with proxy addresses", () => {
  it("believes X-Forwarded-For from a listed proxy and not from anyone else", async () => {
    const app = await appTrusting(parseTrustProxy("10.0.0.0/8, 192.168.1.1"));
    expect((await client(app, "10.1.2.3", { "x-forwarded-for": "198.51.100.7" })).ip).toBe("198.51.100.7");
    expect((await client(app, "192.168.1.1", { "x-forwarded-for": "198.51.100.8" })).ip).toBe("198.51.100.8");
    expect((await client(app, "192.0.2.10", { "x-forwarded-for": "198.51.100.7" })).ip).toBe("192.0.2.10");
  });
});

describe("reading TRUST_PROXY", () => {
  it("takes nothing, 0 or false as trusting nobody", () => {
    for (const value of ["", " ", "0", "false"]) expect(parseTrustProxy(value)).toBe(false);
  });

  it("takes a whole number as a hop count and a list as addresses and CIDR ranges", () => {
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(parseTrustProxy("10.0.0.1, 10.1.0.0/16,::1,fd00::/8,loopback")).toEqual(["10.0.0.1", "10.1.0.0/16", "::1", "fd00::/8", "loopback"]);
  });

  it("refuses true (trust every hop) and anything that is not an address, naming the variable", () => {
    for (const value of ["true", "proxy.internal", "10.0.0.0/33", "10.0.0.1/8/1", "1.5"]) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
  });
});
