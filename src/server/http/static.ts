import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { SESSION_COOKIE } from "./cookies";
import { firstReads, type FirstRead } from "../../shared/first-reads";
import { firstScreenModules, type Audience, type RouteTable } from "./static-routes";

// The built web app (dist/client): hashed assets cached for a year, and index.html written for the address and the
// person asking, so that a phone's first screen needs as few rounds as possible (issue 12, decision 125):
// - the files of the page at that address (and its shell) are named as <link rel="modulepreload">, fetched together
//   with the bootstrap instead of after it has run;
// - for a signed-in cookie, the answers to "who is this?" (user, dealerships, platform-admin status) ride along as
//   JSON, asked through the API itself with that cookie: the same checks and schemas, only this session's own data.

/** Vite's build manifest entry (build.manifest in vite.config.ts). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The element main.tsx reads the server's answers from (src/client/lib/first-screen.ts). */
export const FIRST_SCREEN_DATA_ID = "first-screen-data";

/** What the first screen would otherwise ask the API before drawing anything. */
export interface FirstScreenData {
  user: unknown;
  dealerships?: unknown;
  platformAdminStatus?: unknown;
  /** The page's own first reads, by path (decision 161): only for the addresses src/shared/first-reads.ts names. */
  reads?: Record<string, FirstRead>;
}

// helmet's headers that only mean something on a document: on a script, a style or a font they are ~0.5 KB of every
// response (45 files on the dashboard's first screen), so assets keep only nosniff and the resource policy.
const DOCUMENT_ONLY_HEADERS = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

export async function registerWebApp(app: FastifyInstance, clientDir: string | undefined): Promise<void> {
  const page = clientDir ? indexPage(clientDir) : null;
  if (clientDir && existsSync(path.join(clientDir, "index.html"))) {
    app.addHook("onRequest", async (request, reply) => {
      if (request.url.startsWith("/assets/")) for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name);
    });
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // dist/client/.vite (the build's manifest and route table) is the server's, not the browser's.
      dotfiles: "ignore",
      // Brotli and gzip copies written at build time (vite.config.ts): no compressing per request, and a smaller file.
      preCompressed: true,
      // Built assets carry a content hash in their names: a phone downloads each release once.
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header("cache-control", "public, max-age=31536000, immutable");
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const write = page?.();
    if (request.url.startsWith("/api/") || request.method !== "GET" || !write) {
      return reply.code(404).send({ message: "Not found" });
    }
    // Client-side routes: the SPA decides what an unknown path shows (part 1 §2.1).
    const data = await askWhoThisIs(app, request);
    const signedIn = data !== null && data.user !== null;
    return reply
      .type("text/html; charset=utf-8")
      // Personal answers inside: never stored anywhere. Signed out: revalidated each time (a sign-in changes it).
      .header("cache-control", signedIn ? "no-store" : "no-cache")
      .header("vary", "Cookie")
      .send(write(request.url, data));
  });
}

type PageWriter = (url: string, data: FirstScreenData | null) => string;

/**
 * The page writer for the build in clientDir, read again when index.html changes (a rebuild while the server runs
 * must not preload files that no longer exist); null while there is no build.
 */
function indexPage(clientDir: string): () => PageWriter | null {
  let loaded: { mtimeMs: number; write: PageWriter } | null = null;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path.join(clientDir, "index.html")).mtimeMs;
    } catch {
      return null;
    }
    if (loaded?.mtimeMs !== mtimeMs) loaded = { mtimeMs, write: loadIndexPage(clientDir) };
    return loaded.write;
  };
}

/** index.html with the first screen's files and the server's answers written in. */
function loadIndexPage(clientDir: string): PageWriter {
  const html = readFileSync(path.join(clientDir, "index.html"), "utf8");
  const manifest = readJson<Manifest>(path.join(clientDir, ".vite/manifest.json"));
  const table = readJson<RouteTable>(path.join(clientDir, ".vite/first-screen-routes.json"));
  const inIndex = manifest ? closure(manifest, ["index.html"]) : new Set<string>();
  const links = new Map<string, string>();
  const linksFor = (modules: string[]): string => {
    const key = modules.join(" ");
    let tags = links.get(key);
    if (tags === undefined) {
      const files = manifest ? [...closure(manifest, modules)].filter((f) => !inIndex.has(f)) : [];
      tags = files
        .map((file) => (file.endsWith(".css") ? `<link rel="stylesheet" crossorigin href="/${file}">` : `<link rel="modulepreload" crossorigin href="/${file}">`))
        .join("\n    ");
      links.set(key, tags);
    }
    return tags;
  };
  return (url, data) => {
    const pathname = decodePath(url.split("?")[0]!);
    const audience: Audience | null = !data ? null : data.user === null ? "signed-out" : isPlatformAdmin(data) ? "platform-admin" : "user";
    const preload = table && audience ? linksFor(firstScreenModules(table, pathname, audience)) : "";
    const json = data ? `<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${scriptSafeJson(data)}</script>` : "";
    const head = [preload, json].filter(Boolean).join("\n    ");
    return head ? html.replace(/\s*<\/head>/, `\n    ${head}\n  </head>`) : html;
  };
}

/** The files a set of manifest entries loads before running: their own, their static imports', and CSS. */
function closure(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    chunk.css?.forEach((file) => files.add(file));
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return files;
}

/**
 * The session cookie's own answers to GET /api/user, /api/dealerships and /api/user/platform-admin-status, asked
 * through the API (same session checks and response schemas). No cookie: nobody is signed in, nothing to ask.
 * null when the API could not answer: the page then asks itself, as it would without this.
 */
async function askWhoThisIs(app: FastifyInstance, request: FastifyRequest): Promise<FirstScreenData | null> {
  if (!request.cookies[SESSION_COOKIE]) return { user: null };
  const ask = async (url: string) => {
    const response = await app.inject({ method: "GET", url, headers: { cookie: request.headers.cookie ?? "" } });
    const link = response.headers.link;
    return { status: response.statusCode, body: response.statusCode === 200 ? (response.json() as unknown) : null, link: typeof link === "string" ? link : undefined };
  };
  try {
    const [user, dealerships, platformAdminStatus] = await Promise.all([ask("/api/user"), ask("/api/dealerships"), ask("/api/user/platform-admin-status")]);
    if (user.status === 401) return { user: null };
    if (user.status !== 200 || dealerships.status !== 200 || platformAdminStatus.status !== 200) return null;
    const data: FirstScreenData = { user: user.body, dealerships: dealerships.body, platformAdminStatus: platformAdminStatus.body };
    const dealershipId = currentDealershipId(data);
    const paths = dealershipId ? firstReads(decodePath(request.url.split("?")[0]!), { userId: (user.body as { id: string }).id, dealershipId }) : [];
    if (paths.length) {
      // The same cookie, checks and schemas as the page's own calls; one that does not answer 200 is left to the page.
      const answers = await Promise.all(paths.map(ask));
      data.reads = Object.fromEntries(
        answers.flatMap((answer, i) => (answer.status === 200 ? [[paths[i]!, answer.link ? { body: answer.body, link: answer.link } : { body: answer.body }]] : [])),
      );
    }
    return data;
  } catch (error) {
    request.log.warn({ err: error }, "first screen: who is this? not answered in the page");
    return null;
  }
}

/** The dealership the page will open (src/client/dealerships/dealership-context.tsx): the user's current one, or the first. */
function currentDealershipId(data: FirstScreenData): string | null {
  const list = Array.isArray(data.dealerships) ? (data.dealerships as Array<{ id: string }>) : [];
  const current = (data.user as { currentDealershipId?: string | null }).currentDealershipId;
  return (list.find((d) => d.id === current) ?? list[0])?.id ?? null;
}

function isPlatformAdmin(data: FirstScreenData): boolean {
  return (data.platformAdminStatus as { isPlatformAdmin?: boolean } | undefined)?.isPlatformAdmin === true;
}

/** JSON that cannot end the <script> element or open a comment in it, whatever the strings contain. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

function decodePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
}
