import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync } from "node:zlib";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app";
import { testConfig } from "../../src/server/config";
import { createMailer } from "../../src/server/mail/mailer";
import { parseRouteTable } from "../../src/server/http/static-routes";
import { firstReads } from "../../src/shared/first-reads";
import { createTestDatabase, TEST_MAIL_RETRY, type TestApp } from "../helpers/test-app";

// The built web app as the server hands it out: client-side routes, compression, long caching of hashed assets, and
// index.html written per address and session: the first screen's files preloaded, "who is this?" answered inside
// (decision 125).

let t: Omit<TestApp, "database">;
let dir: string;
const script = `console.log(${JSON.stringify("showroom ".repeat(2000))});`;
const precompressed = `console.log(${JSON.stringify("precompressed ".repeat(500))});`;

// A build as Vite writes it: the entry, a shared chunk the entry already loads, and lazy pages with their imports.
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-r1.js">
  </head>
  <body><div id="root"></div></body>
</html>`;
const MANIFEST = {
  "index.html": { file: "assets/index-abc123.js", isEntry: true, imports: ["_react-r1.js"] },
  "_react-r1.js": { file: "assets/react-r1.js" },
  "_button-b1.js": { file: "assets/button-b1.js", imports: ["_react-r1.js"] },
  "_icon-i1.js": { file: "assets/icon-i1.js" },
  "auth/AuthPage.tsx": { file: "assets/AuthPage-a1.js", isDynamicEntry: true, imports: ["_react-r1.js", "_button-b1.js", "index.html"] },
  "components/shell/app-shell.tsx": { file: "assets/app-shell-s1.js", isDynamicEntry: true, imports: ["_button-b1.js", "_icon-i1.js"] },
  "dashboard/DashboardPage.tsx": { file: "assets/DashboardPage-d1.js", isDynamicEntry: true, imports: ["_icon-i1.js"], css: ["assets/DashboardPage-d1.css"] },
  "leads/LeadDetailPage.tsx": { file: "assets/LeadDetailPage-l1.js", isDynamicEntry: true },
  "pages/NotFoundPage.tsx": { file: "assets/NotFoundPage-n1.js", isDynamicEntry: true },
};
const ROUTES = `
const AppShell = page(() => import("./components/shell/app-shell"), (m) => m.AppShell);
const AuthPage = page(() => import("./auth/AuthPage"), (m) => m.AuthPage);
const DashboardPage = page(() => import("./dashboard/DashboardPage"), (m) => m.DashboardPage);
const LeadDetailPage = page(() => import("./leads/LeadDetailPage"), (m) => m.LeadDetailPage);
const NotFoundPage = page(() => import("./pages/NotFoundPage"), (m) => m.NotFoundPage);
export const userRoutes: AppRoute[] = [
  { path: "/", element: <DashboardPage /> },
  { path: "/leads/detail/:leadId", element: <LeadDetailPage /> },
];
export const platformAdminRoutes: AppRoute[] = [];
export const publicRoutes: AppRoute[] = [{ path: "/auth", element: <AuthPage /> }];
export const openRoutes: AppRoute[] = [];
`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "showroom-static-"));
  mkdirSync(path.join(dir, "assets"));
  mkdirSync(path.join(dir, ".vite"));
  writeFileSync(path.join(dir, "index.html"), INDEX_HTML);
  writeFileSync(path.join(dir, "assets", "index-abc123.js"), script);
  writeFileSync(path.join(dir, "assets", "pre-p1.js"), precompressed);
  writeFileSync(path.join(dir, "assets", "pre-p1.js.br"), brotliCompressSync(precompressed));
  writeFileSync(path.join(dir, ".vite", "manifest.json"), JSON.stringify(MANIFEST));
  writeFileSync(path.join(dir, ".vite", "first-screen-routes.json"), JSON.stringify(parseRouteTable(ROUTES, (s) => `${s}.tsx`)));
  const database = await createTestDatabase();
  const config = testConfig();
  const mailer = createMailer({ database, logger: pino({ level: config.logLevel }), smtpUrl: config.smtpUrl, from: config.mailFrom, retry: TEST_MAIL_RETRY, closeDrainMs: 0 });
  const app = await buildApp({ config, database, mailer, clientDir: dir });
  // Started before ready, as createTestApp does: on a busy machine the queue's start can outlast a hook's time limit.
  await app.mailer.start();
  await app.ready();
  t = { app, db: database.db, close: async () => (await app.close(), await database.drop()) };
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

// The links the server added (index.html names react-r1.js itself).
const preloads = (html: string) =>
  [...html.matchAll(/<link rel="(?:modulepreload|stylesheet)" crossorigin href="\/assets\/([^"]+)">/g)].map((m) => m[1]).filter((file) => file !== "react-r1.js");
const answers = (html: string) => {
  const json = /<script type="application\/json" id="first-screen-data">(.*?)<\/script>/s.exec(html)?.[1];
  return json === undefined ? undefined : (JSON.parse(json) as { user: { firstName: string } | null; dealerships?: Array<{ name: string }>; platformAdminStatus?: unknown });
};

async function registered(dealershipName: string): Promise<string> {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/register",
    payload: { firstName: "Ann", lastName: "Lee", email: `ann.${Date.now()}@example.com`, password: "Correct-Horse-Battery-91", confirmPassword: "Correct-Horse-Battery-91", dealershipName },
  });
  expect(response.statusCode).toBe(201);
  const setCookie = response.headers["set-cookie"];
  return (Array.isArray(setCookie) ? setCookie[0]! : setCookie!).split(";")[0]!;
}

describe("the web app", () => {
  it("answers client-side routes with index.html, never cached", async () => {
    for (const url of ["/", "/leads/new", "/some/unknown/path"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body).toContain('<div id="root">');
      expect(response.headers["cache-control"]).toBe("no-cache");
      expect(response.headers["vary"]).toContain("Cookie");
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

  it("sends the brotli copy written at build time as it is", async () => {
    const response = await t.app.inject({ method: "GET", url: "/assets/pre-p1.js", headers: { "accept-encoding": "br, gzip" } });
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-type"]).toContain("javascript");
    expect(response.rawPayload.equals(readFileSync(path.join(dir, "assets", "pre-p1.js.br")))).toBe(true);
    const plain = await t.app.inject({ method: "GET", url: "/assets/pre-p1.js" });
    expect(plain.body).toBe(precompressed);
  });

  it("sends assets as they are to clients that do not ask for compression", async () => {
    const plain = await t.app.inject({ method: "GET", url: "/assets/index-abc123.js" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it("keeps a document's security headers off scripts (nosniff stays), and on the page", async () => {
    const asset = await t.app.inject({ method: "GET", url: "/assets/index-abc123.js" });
    expect(asset.headers["content-security-policy"]).toBeUndefined();
    expect(asset.headers["x-frame-options"]).toBeUndefined();
    expect(asset.headers["x-content-type-options"]).toBe("nosniff");
    const page = await t.app.inject({ method: "GET", url: "/auth" });
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["x-frame-options"]).toBeDefined();
  });

  it("does not serve the build's manifest and route table", async () => {
    for (const url of ["/.vite/manifest.json", "/.vite/first-screen-routes.json"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body).not.toContain("isDynamicEntry");
    }
  });
});

describe("index.html written for the address and the session (decision 125)", () => {
  it("signed out on /auth: preloads the sign-in page's files (not the ones index.html loads) and says nobody is signed in", async () => {
    const response = await t.app.inject({ method: "GET", url: "/auth?next=%2Fcalendar" });
    expect(preloads(response.body)).toEqual(["AuthPage-a1.js", "button-b1.js"]);
    expect(response.body.match(/react-r1\.js/g)).toHaveLength(1);
    expect(answers(response.body)).toEqual({ user: null });
  });

  it("signed out on a signed-in page: preloads the sign-in page it is sent to; an unknown path the 404 page", async () => {
    expect(preloads((await t.app.inject({ method: "GET", url: "/" })).body)).toEqual(["AuthPage-a1.js", "button-b1.js"]);
    expect(preloads((await t.app.inject({ method: "GET", url: "/leads/detail/abc" })).body)).toEqual(["AuthPage-a1.js", "button-b1.js"]);
    expect(preloads((await t.app.inject({ method: "GET", url: "/no/such/page" })).body)).toEqual(["NotFoundPage-n1.js"]);
  });

  it("a cookie of no session counts as signed out", async () => {
    const response = await t.app.inject({ method: "GET", url: "/", headers: { cookie: "showroom.sid=not-a-session" } });
    expect(answers(response.body)).toEqual({ user: null });
    expect(response.headers["cache-control"]).toBe("no-cache");
  });

  it("signed in: the shell and the page's files, this session's own answers, never stored", async () => {
    const cookie = await registered("Northside Motors");
    const response = await t.app.inject({ method: "GET", url: "/", headers: { cookie } });
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(preloads(response.body)).toEqual(["app-shell-s1.js", "button-b1.js", "icon-i1.js", "DashboardPage-d1.js", "DashboardPage-d1.css"]);
    const data = answers(response.body)!;
    expect(data.user?.firstName).toBe("Ann");
    expect(data.dealerships?.map((d) => d.name)).toEqual(["Northside Motors"]);
    expect(data.platformAdminStatus).toEqual({ isPlatformAdmin: false });
    // The same answers the API gives this cookie.
    const api = await t.app.inject({ method: "GET", url: "/api/user", headers: { cookie } });
    expect(data.user).toEqual(api.json());
    // A detail page by its pattern; /auth sends a signed-in user to the dashboard.
    const detail = await t.app.inject({ method: "GET", url: "/leads/detail/xyz", headers: { cookie } });
    expect(preloads(detail.body)).toEqual(["app-shell-s1.js", "button-b1.js", "icon-i1.js", "LeadDetailPage-l1.js"]);
    const auth = await t.app.inject({ method: "GET", url: "/auth", headers: { cookie } });
    expect(preloads(auth.body)).toContain("DashboardPage-d1.js");
  });

  it("signed in on the dashboard: the page's first reads answered inside, each as the API answers this cookie", async () => {
    const cookie = await registered("Reads Motors");
    const user = (await t.app.inject({ method: "GET", url: "/api/user", headers: { cookie } })).json<{ id: string; currentDealershipId: string | null }>();
    const dealershipId = (await t.app.inject({ method: "GET", url: "/api/dealerships", headers: { cookie } })).json<Array<{ id: string }>>()[0]!.id;
    const expected = firstReads("/", { userId: user.id, dealershipId });
    expect(expected.length).toBeGreaterThan(0);
    for (const url of ["/", "/dashboard"]) {
      const reads = (answers((await t.app.inject({ method: "GET", url, headers: { cookie } })).body) as { reads?: Record<string, { body: unknown }> }).reads!;
      expect(Object.keys(reads).sort()).toEqual([...expected].sort());
      for (const path of expected) {
        const api = await t.app.inject({ method: "GET", url: path, headers: { cookie } });
        expect(api.statusCode).toBe(200);
        expect(reads[path]!.body).toEqual(api.json());
      }
    }
    // Another page reads for itself; signed out there is nothing to read.
    expect(answers((await t.app.inject({ method: "GET", url: "/leads/detail/xyz", headers: { cookie } })).body)).not.toHaveProperty("reads");
    expect(answers((await t.app.inject({ method: "GET", url: "/" })).body)).toEqual({ user: null });
  });

  it("writes a name that looks like markup as data: it cannot end the script element", async () => {
    const name = "Lot </script><script>alert(1)</script><!-- & \u2028 Co";
    const cookie = await registered(name);
    const response = await t.app.inject({ method: "GET", url: "/", headers: { cookie } });
    expect(response.body).not.toContain("<script>alert(1)");
    expect(response.body.match(/<\/script>/g)).toHaveLength(2); // the entry's and the data's own
    expect(answers(response.body)!.dealerships?.[0]?.name).toBe(name);
  });
});

describe("the route table read from routes.tsx", () => {
  it("finds every route line of the real routes.tsx with its page module", () => {
    const source = readFileSync(path.join(import.meta.dirname, "../../src/client/routes.tsx"), "utf8");
    const table = parseRouteTable(source, (s) => `${s}.tsx`);
    const lines = [...source.matchAll(/\{ path: "([^"]+)", element: <\w+ \/>/g)].map((m) => m[1]);
    const parsed = [...table.userRoutes, ...table.platformAdminRoutes, ...table.publicRoutes, ...table.openRoutes].map((r) => r.path);
    // Every route line (the 404 catch-all aside) is in the table: none is missed silently.
    expect(new Set(parsed)).toEqual(new Set(lines.filter((p) => p !== "*")));
    expect(table.userRoutes.find((r) => r.path === "/")?.module).toBe("dashboard/DashboardPage.tsx");
    expect(table.publicRoutes.map((r) => r.module)).toEqual(["auth/AuthPage.tsx"]);
    expect(table.appShell).toBe("components/shell/app-shell.tsx");
    expect(table.userRoutes.find((r) => r.path === "/platform-admin")?.shell).toBe(false);
  });
});

describe("a rebuild while the server runs", () => {
  it("serves the new index.html and its manifest, not the files of the build before", async () => {
    const html = INDEX_HTML.replace("index-abc123.js", "index-def456.js");
    writeFileSync(path.join(dir, ".vite", "manifest.json"), JSON.stringify({ ...MANIFEST, "auth/AuthPage.tsx": { file: "assets/AuthPage-a2.js" } }));
    writeFileSync(path.join(dir, "index.html"), html);
    const response = await t.app.inject({ method: "GET", url: "/auth" });
    expect(response.body).toContain("/assets/index-def456.js");
    expect(preloads(response.body)).toEqual(["AuthPage-a2.js"]);
  });
});
