import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { responses } from "../../shared/schemas/responses/integrations";
import { answers, type ZodTypeProvider } from "../http/contract";
import { openApiDocument } from "../http/openapi";
import { PROJECT_ROOT } from "../project-root";
import { API_TOKEN_PREFIX } from "./api-tokens";
import { tokenMayCall } from "./token-requests";

// The API's own description for a dealership's developers (issue 28): the OpenAPI 3.1 document at /api/openapi.json
// and a page at /api/docs that renders it with Redoc (decision 209). Redoc's standalone bundle is served from the
// installed package, never a CDN, so the page keeps the app's Content-Security-Policy (script-src 'self'): no inline
// script, the page's start is a file of its own. Both are public: they describe the API, they hold no data.

const require = createRequire(import.meta.url);
const SHOWROOM_VERSION = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string }).version;
export const REDOC_SCRIPT = "/api/docs/redoc.js";
const REDOCLY_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const NO_LOGO = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='0' height='0'/%3E";
export const DOCS_START_SCRIPT = "/api/docs/start.js";

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Showroom API</title>
<link rel="icon" href="data:,">
<style>
body { margin: 0; }
.docs-loading { font: 16px system-ui, sans-serif; padding: 24px; }
/* Redoc's expand/collapse buttons in the JSON samples are 15 px, one per 20 px line: 24 px apart is the least a finger
   or a shaky hand can hit (WCAG 2.5.8). The id outranks Redoc's own styles, injected after these. */
#api-docs .redoc-json .collapser { width: 24px; height: 24px; top: 0; }
#api-docs .redoc-json li { min-height: 24px; }
</style>
</head>
<body>
<main id="api-docs" data-spec="/api/openapi.json"><p class="docs-loading">Loading the API description...</p></main>
<script src="${REDOC_SCRIPT}"></script>
<script src="${DOCS_START_SCRIPT}"></script>
</body>
</html>
`;

// Redoc.init reads the document from our own address. Search is off: Redoc builds its search index in a Worker made
// from a blob: URL, which script-src 'self' refuses (the page would log a CSP violation and fall back anyway).
const START_SCRIPT = `(function () {
  var root = document.getElementById("api-docs");
  window.Redoc.init(root.getAttribute("data-spec"), {
    disableSearch: true,
    expandResponses: "200,201",
    hideDownloadButton: false,
    jsonSampleExpandLevel: 2,
    theme: { colors: { primary: { main: "#1d4ed8" } }, typography: { fontFamily: "system-ui, sans-serif", headings: { fontFamily: "system-ui, sans-serif" } } }
  }, root);
})();
`;

/** The document as served: the routes, the events, and where API tokens apply. */
export function apiDocument(app: FastifyInstance): Record<string, unknown> {
  return openApiDocument(app, SHOWROOM_VERSION, { prefix: API_TOKEN_PREFIX, mayCall: tokenMayCall });
}

export async function apiDocsRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  let document: Record<string, unknown> | null = null;
  let redoc: Buffer | null = null;

  app.get("/api/openapi.json", { schema: { response: answers(responses["GET /api/openapi.json"]) } }, async (_request, reply) => {
    // Made at the first request: every route is registered by then.
    document ??= apiDocument(server);
    return reply.header("cache-control", "public, max-age=300").send(document);
  });

  app.get("/api/docs", async (_request, reply) =>
    reply.type("text/html; charset=utf-8").header("cache-control", "public, max-age=300").send(DOCS_PAGE),
  );

  app.get(DOCS_START_SCRIPT, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").header("cache-control", "public, max-age=300").send(START_SCRIPT),
  );

  app.get(REDOC_SCRIPT, async (_request, reply) => {
    // Redoc's sidebar credit shows Redocly's logo from their CDN (no option turns it off): an empty image of our own
    // instead of a request the CSP would refuse.
    redoc ??= Buffer.from(readFileSync(require.resolve("redoc/bundles/redoc.standalone.js"), "utf8").replace(REDOCLY_LOGO, NO_LOGO));
    // A day: the page is for developers now and then, and a Redoc upgrade reaches them by the next day.
    return reply.type("text/javascript; charset=utf-8").header("cache-control", "public, max-age=86400").send(redoc);
  });
}
