import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { makeDealership, makeUser } from "../../src/server/db/factories";
import { declaredRoutes } from "../../src/server/http/contract";
import { openApiDocument } from "../../src/server/http/openapi";
import { apiDocument, DOCS_START_SCRIPT, REDOC_SCRIPT } from "../../src/server/integrations/api-docs-routes";
import { tokenMayCall } from "../../src/server/integrations/token-requests";
import { webhookBody } from "../../src/server/integrations/webhooks";
import { DOMAIN_EVENT_TYPES, DOMAIN_EVENT_VERSIONS, domainEventPayloads } from "../../src/shared/events";
import { anonymous, createTestApp, signIn, type TestApp } from "../helpers/test-app";

// The OpenAPI document generated from the routes' declared schemas and the shared event definitions (issue 28,
// decisions 190 and 209), served at /api/openapi.json and checked by an OpenAPI 3.1 validator that is not ours
// (@readme/openapi-parser: the specification's schema plus its own rules, such as unique operation ids and path
// parameters that match the path); /api/docs renders it with Redoc served from our own address.

let t: TestApp;
let document: Record<string, unknown>;

beforeAll(async () => {
  t = await createTestApp();
  const served = await anonymous(t.app).get("/api/openapi.json");
  expect(served.statusCode, served.body).toBe(200);
  document = served.json();
});
afterAll(() => t?.close());

type Operation = { parameters: Array<{ name: string; in: string }>; requestBody?: unknown; responses: Record<string, unknown> };
const operations = () => Object.values(document.paths as Record<string, Record<string, Operation>>).flatMap((path) => Object.values(path));

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("has one operation for every API route, with its path parameters", () => {
    const routes = declaredRoutes(t.app).filter((route) => route.url.startsWith("/api/"));
    expect(operations()).toHaveLength(routes.length);
    const paths = document.paths as Record<string, Record<string, Operation>>;
    const operation = paths["/api/leads/{id}/duplicates/{otherId}"]!.delete!;
    expect(operation.parameters.map((parameter) => `${parameter.in} ${parameter.name}`)).toEqual(["path id", "path otherId"]);
  });

  it("describes the request body, the answer and the refusal from the shared schemas", () => {
    const paths = document.paths as Record<string, Record<string, Operation & { requestBody: { content: Record<string, { schema: { properties: object } }> } }>>;
    const login = paths["/api/login"]!.post!;
    expect(Object.keys(login.requestBody.content["application/json"]!.schema.properties)).toEqual(expect.arrayContaining(["email", "password"]));
    expect(Object.keys(login.responses).sort()).toEqual(["2XX", "4XX"]);
    const refusal = (login.responses["4XX"] as { content: Record<string, { schema: { properties: object; required: string[] } }> }).content["application/json"]!.schema;
    expect(Object.keys(refusal.properties).sort()).toEqual(["fields", "message"]);
    expect(refusal.required).toEqual(["message"]);
  });
});

type Webhooks = Record<string, { post: { parameters: Array<{ name: string; in: string }>; requestBody: { content: Record<string, { schema: Record<string, unknown> }> } } }>;
type Paths = Record<string, Record<string, { security?: Array<Record<string, unknown>>; responses: Record<string, { headers?: object }> }>>;

describe("GET /api/openapi.json", () => {
  it("is the document generated from the routes, public and cacheable for a few minutes", async () => {
    expect(document).toEqual(JSON.parse(JSON.stringify(apiDocument(t.app))));
    expect(JSON.stringify(openApiDocument(t.app, "test"))).not.toContain("apiToken\":[]");
    const response = await anonymous(t.app).get("/api/openapi.json");
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.headers["cache-control"]).toBe("public, max-age=300");
  });

  it("names the API token (bearer shr_...) on every route a token may call, with its 401, 403 and 429 (Retry-After), and not elsewhere", () => {
    const schemes = (document.components as { securitySchemes: Record<string, Record<string, string>> }).securitySchemes;
    expect(schemes.apiToken).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: expect.stringMatching(/^shr_/) });
    const paths = document.paths as Paths;
    const tokenRoutes = declaredRoutes(t.app).filter((route) => route.url.startsWith("/api/") && tokenMayCall(route.url));
    expect(tokenRoutes.length).toBeGreaterThan(40);
    for (const route of tokenRoutes) {
      const operation = paths[route.url.replace(/:(\w+)/g, "{$1}")]![route.method.toLowerCase()]!;
      expect(operation.security, `${route.method} ${route.url}`).toContainEqual({ apiToken: [] });
      expect(Object.keys(operation.responses), `${route.method} ${route.url}`).toEqual(expect.arrayContaining(["401", "403", "429"]));
      expect(operation.responses["429"]!.headers).toHaveProperty("Retry-After");
    }
    const withToken = Object.entries(paths).filter(([, operations]) => Object.values(operations).some((operation) => JSON.stringify(operation.security ?? []).includes("apiToken")));
    const refused = ["/api/user/profile", "/api/platform/dealerships", "/api/dealerships/{id}/api-tokens", "/api/dealerships/{id}/webhooks", "/api/sessions"];
    expect(withToken.map(([path]) => path).filter((path) => refused.some((prefix) => path.startsWith(prefix)))).toEqual([]);
    expect(withToken).toHaveLength(new Set(tokenRoutes.map((route) => route.url)).size);
  });

  it("describes every event a webhook receives, {type, version, timestamp, data}, from the shared definitions, with the signature headers", () => {
    const webhooks = document.webhooks as Webhooks;
    expect(Object.keys(webhooks).sort()).toEqual([...DOMAIN_EVENT_TYPES].sort());
    for (const type of DOMAIN_EVENT_TYPES) {
      const post = webhooks[type]!.post;
      expect(post.parameters.map((p) => `${p.in} ${p.name}`)).toEqual(["header webhook-id", "header webhook-timestamp", "header webhook-signature"]);
      const schema = post.requestBody.content["application/json"]!.schema as { required: string[]; properties: Record<string, { const?: unknown }> };
      expect(schema.required).toEqual(["type", "version", "timestamp", "data"]);
      expect(schema.properties.type!.const).toBe(type);
      expect(schema.properties.version!.const).toBe(DOMAIN_EVENT_VERSIONS[type]);
    }
  });

  it("takes each event's data schema from the shared definitions, as a delivery's body is serialized", () => {
    const webhooks = document.webhooks as Webhooks;
    for (const type of DOMAIN_EVENT_TYPES) {
      const { $schema: _dialect, ...expected } = z.toJSONSchema(domainEventPayloads[type], { target: "draft-2020-12", io: "output", unrepresentable: "any" });
      const schema = webhooks[type]!.post.requestBody.content["application/json"]!.schema as { properties: { data: unknown } };
      expect(schema.properties.data, type).toEqual(expected);
    }
    const body = JSON.parse(webhookBody({ type: "unit.added", dealershipId: "d1", actorId: null, payload: { unit: { id: "u1", stockNumber: "D-1", year: "2024", make: "Honda", model: "Civic" } }, createdAt: new Date("2026-11-28T00:00:00Z") }));
    expect(Object.keys(body)).toEqual(["type", "version", "timestamp", "data"]);
    expect(body).toMatchObject({ type: "unit.added", version: DOMAIN_EVENT_VERSIONS["unit.added"], timestamp: "2026-11-28T00:00:00.000Z" });
  });
});

describe("/api/docs", () => {
  it("is a page that loads Redoc and its start from our own address, no inline script, under the app's Content-Security-Policy", async () => {
    const page = await anonymous(t.app).get("/api/docs");
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((match) => /src="([^"]+)"/.exec(match[1]!)?.[1])).toEqual([REDOC_SCRIPT, DOCS_START_SCRIPT]);
    expect(scripts.every((match) => match[2]!.trim() === "")).toBe(true);
    expect(page.body).not.toMatch(/https?:\/\//);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    for (const file of [REDOC_SCRIPT, DOCS_START_SCRIPT]) {
      const script = await anonymous(t.app).get(file);
      expect(script.statusCode, file).toBe(200);
      expect(script.headers["content-type"]).toMatch(/^text\/javascript/);
    }
    const redoc = await anonymous(t.app).get(REDOC_SCRIPT);
    expect(redoc.headers["cache-control"]).toBe("public, max-age=86400");
    expect(redoc.body).toContain("Redoc");
    expect((await anonymous(t.app).get(DOCS_START_SCRIPT)).body).toContain("Redoc.init");
  });

  it("answers the same to a signed-in person: the page holds no data", async () => {
    const dealership = await makeDealership(t.db);
    const person = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: dealership.id, role: "sales" }] }));
    const [mine, anyone] = [await person.get("/api/openapi.json"), await anonymous(t.app).get("/api/openapi.json")];
    expect(mine.body).toBe(anyone.body);
  });
});
