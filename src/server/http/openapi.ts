import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { DOMAIN_EVENT_TYPES, DOMAIN_EVENT_VERSIONS, domainEventPayloads } from "../../shared/events";
import { declaredRoutes, type DeclaredRoute } from "./contract";

// The OpenAPI 3.1 document of the API, served at /api/openapi.json (issue 28), generated from what each route
// declares (decision 190) and from the domain events' shared definitions (the webhooks section): nothing here is
// written by hand but the info, the security schemes and the signature headers. JSON Schema 2020-12, which OpenAPI
// 3.1 uses, comes from zod's own toJSONSchema: requests as the client may send them ("input"), answers as they are
// sent ("output").

type JsonSchema = Record<string, unknown>;

function jsonSchemaOf(schema: unknown, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema as z.ZodType, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** Each key of an object schema as one parameter (path parameters are always required). */
function parametersOf(schema: unknown, where: "path" | "query"): JsonSchema[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    in: where,
    required: where === "path" || !field.safeParse(undefined).success,
    schema: jsonSchemaOf(field, "input"),
  }));
}

/** Fastify's "2xx" is OpenAPI's "2XX". */
function statusKey(status: string): string {
  return /^\dxx$/.test(status) ? status.toUpperCase() : status;
}

function responsesOf(route: DeclaredRoute): Record<string, JsonSchema> {
  const declared = route.schema?.response;
  if (!declared) return { "2XX": { description: "Not JSON: a redirect, a file or no body (tests/api/route-contracts.test.ts says which)" } };
  return Object.fromEntries(
    Object.entries(declared).map(([status, schema]) => [
      statusKey(status),
      {
        description: status.startsWith("2") ? "Success" : "Refused: a message, and for a 400 each failing field",
        content: { "application/json": { schema: jsonSchemaOf(schema, "output") } },
      },
    ]),
  );
}

/** "/api/leads/:id/duplicates/:otherId" -> "/api/leads/{id}/duplicates/{otherId}" */
function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, "{$1}");
}

/** The part of the API a path belongs to, as Redoc groups them: "/api/dealerships/:id/leads/..." -> "Leads". */
function tagOf(url: string): string {
  const [first = "api", second] = url.replace(/^\/api\//, "").split("/");
  const area = first === "dealerships" && second === ":id" ? (url.split("/")[4] ?? "dealerships") : first;
  const words = area.replace(/[-_]/g, " ").replace(/\.json$/, "");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const WEBHOOK_TAG = "Webhook events";

function operationId(method: string, url: string): string {
  return `${method.toLowerCase()}_${url.replace(/^\/api\//, "").replace(/[^A-Za-z0-9]+/g, "_").replace(/_$/, "")}`;
}

/** Routes a browser session calls; the ADF intake is called with its own credential (decisions 131-134). */
const SECURITY_OF: Record<string, Array<Record<string, string[]>>> = {
  "POST /api/intake/adf": [{ intakeCredential: [] }],
};

/** What a token request may also be refused with, on top of the route's own answers (decision 225). */
const TOKEN_REFUSALS = {
  "401": "The API token is unknown, revoked or expired (or no credential was sent)",
  "403": "The token's role may not do this, or the path is another dealership's",
  "429": "Past API_RATE_LIMIT requests a minute for this token: wait Retry-After seconds",
};

function tokenResponses(route: DeclaredRoute, declared: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const refusal = route.schema?.response?.["4xx"];
  const content = refusal ? { content: { "application/json": { schema: jsonSchemaOf(refusal, "output") } } } : {};
  const added = Object.fromEntries(
    Object.entries(TOKEN_REFUSALS).map(([status, description]) => [
      status,
      { description, ...content, ...(status === "429" ? { headers: { "Retry-After": { description: "Seconds until the token may call again", schema: { type: "integer" } } } } : {}) },
    ]),
  );
  return { ...declared, ...added };
}

/** The Standard Webhooks headers every delivery carries (decision 227). */
const SIGNATURE_HEADERS = [
  { name: "webhook-id", description: "The delivery's id: the same on every retry and on a redeliver, so drop repeats by it", schema: { type: "string" } },
  { name: "webhook-timestamp", description: "Seconds since 1970 when this attempt was signed", schema: { type: "string" } },
  {
    name: "webhook-signature",
    description: 'v1,<base64 HMAC-SHA256 of "id.timestamp.body"> keyed with the base64-decoded part of the secret after whsec_',
    schema: { type: "string" },
  },
].map((header) => ({ ...header, in: "header", required: true }));

/** One entry per domain event type: the POST a webhook receives, `{type, version, timestamp, data}`. */
function webhooksSection(): Record<string, JsonSchema> {
  return Object.fromEntries(
    DOMAIN_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/[^A-Za-z0-9]+/g, "_")}`,
          tags: [WEBHOOK_TAG],
          summary: `${type} (version ${DOMAIN_EVENT_VERSIONS[type]})`,
          // Showroom calls the receiver: no session or token of ours applies, the signature does.
          security: [],
          description: "Sent to each active webhook of the dealership that subscribed to this event or to *. Answer 2XX within 10 s; otherwise it is retried with the same webhook-id for 24 hours.",
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["type", "version", "timestamp", "data"],
                  properties: {
                    type: { const: type },
                    version: { const: DOMAIN_EVENT_VERSIONS[type], description: "The payload's version: a change other than an added optional field takes the next" },
                    timestamp: { type: "string", format: "date-time", description: "When the change was committed" },
                    data: jsonSchemaOf(domainEventPayloads[type], "output"),
                  },
                },
              },
            },
          },
          responses: { "2XX": { description: "Received" } },
        },
      },
    ]),
  );
}

/** How API tokens are written and which routes they may call: integrations' rules, handed in (http imports no area). */
export interface ApiTokenRules {
  prefix: string;
  mayCall: (route: string) => boolean;
}

export function openApiDocument(app: FastifyInstance, version: string, tokens: ApiTokenRules = { prefix: "", mayCall: () => false }): JsonSchema {
  const API_TOKEN_PREFIX = tokens.prefix;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of declaredRoutes(app)) {
    if (!route.url.startsWith("/api/")) continue;
    const schema = route.schema ?? {};
    const operation: JsonSchema = {
      operationId: operationId(route.method, route.url),
      tags: [tagOf(route.url)],
      parameters: [...parametersOf(schema.params, "path"), ...parametersOf(schema.querystring, "query")],
      responses: responsesOf(route),
    };
    if (schema.body) operation.requestBody = { content: { "application/json": { schema: jsonSchemaOf(schema.body, "input") } } };
    const security = SECURITY_OF[`${route.method} ${route.url}`];
    if (security) operation.security = security;
    else if (tokens.mayCall(route.url)) {
      operation.security = [{ session: [] }, { apiToken: [] }];
      operation.responses = tokenResponses(route, operation.responses as Record<string, JsonSchema>);
    }
    (paths[openApiPath(route.url)] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Showroom API",
      version,
      description:
        "Generated from the routes' declared schemas (src/shared). A dealership's own systems call the operations that list apiToken " +
        `with "Authorization: Bearer ${API_TOKEN_PREFIX}..." (made by management in Admin Panel, API & Webhooks): the token acts with its role ` +
        "in its dealership only. The webhooks section describes what each webhook receives.",
    },
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "showroom.sid", description: "The session cookie set by POST /api/login" },
        apiToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: `${API_TOKEN_PREFIX}<43 base64url characters>`,
          description: `An API token (${API_TOKEN_PREFIX}...): its role in its own dealership. Send no session cookie with it.`,
        },
        intakeCredential: { type: "http", scheme: "bearer", description: "A lead intake credential (POST /api/intake/adf only)" },
      },
    },
    security: [{ session: [] }],
    tags: [...new Set(Object.values(paths).flatMap((operations) => Object.values(operations).flatMap((operation) => operation.tags as string[])))]
      .sort()
      .concat(WEBHOOK_TAG)
      .map((name) => ({ name })),
    paths,
    webhooks: webhooksSection(),
  };
}
