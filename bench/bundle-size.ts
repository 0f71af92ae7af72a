import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";

// What a phone downloads before each entry route can show anything: the files index.html loads (the shell), plus the
// route's lazy page chunk and every chunk it imports statically. Raw, gzip and brotli, from dist/client.
// Usage: npm run build && npm run bench:bundle   (writes bench/BUNDLE.md; exits 1 when an entry route is over budget)

/** Issue 12: the first screen of a signed-out visitor and of a signed-in sales rep, each at most this, gzip. */
export const FIRST_SCREEN_BUDGET_GZIP = 150 * 1024;

const APP_SHELL = "app-shell";
const PLATFORM_SHELL = "platform-admin-shell";

/**
 * The routes a visit can start on: the lazy modules routes.tsx loads for each (the page, and the shell it is drawn
 * in), named by file. `budget`: the first screens issue 12 caps. Add a line when you add a route.
 */
export const ENTRY_ROUTES: ReadonlyArray<{ path: string; lazy: string[]; who: string; budget?: boolean }> = [
  { path: "/auth", lazy: ["AuthPage"], who: "signed-out visitor", budget: true },
  { path: "/", lazy: [APP_SHELL, "DashboardPage"], who: "signed-in rep (dashboard)", budget: true },
  { path: "/leads/new", lazy: [APP_SHELL, "NewLeadsPage"], who: "signed-in user" },
  { path: "/leads/my", lazy: [APP_SHELL, "MyClientsPage"], who: "signed-in user" },
  { path: "/leads/create", lazy: [APP_SHELL, "CreateLeadPage"], who: "signed-in user" },
  { path: "/leads/detail/:leadId", lazy: [APP_SHELL, "LeadDetailPage"], who: "signed-in user" },
  { path: "/calendar", lazy: [APP_SHELL, "CalendarPage"], who: "signed-in user" },
  { path: "/appointments/new", lazy: [APP_SHELL, "ScheduleAppointmentPage"], who: "signed-in user" },
  { path: "/test-drives", lazy: [APP_SHELL, "TestDrivesPage"], who: "signed-in user" },
  { path: "/test-drives/book", lazy: [APP_SHELL, "BookTestDrivePage"], who: "signed-in user" },
  { path: "/test-drives/:testDriveId", lazy: [APP_SHELL, "TestDriveDetailPage"], who: "signed-in user" },
  { path: "/admin", lazy: [APP_SHELL, "AdminPage"], who: "management" },
  { path: "/sales-analytics", lazy: [APP_SHELL, "SalesRepAnalyticsPage"], who: "management" },
  { path: "/tdus", lazy: [APP_SHELL, "TestDriveAnalyticsPage"], who: "management" },
  { path: "/platform-admin", lazy: [PLATFORM_SHELL, "PlatformAdminPage"], who: "platform admin" },
];

export interface Size {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface EntryRoute {
  path: string;
  who: string;
  budget: boolean;
  /** The lazy modules without a chunk of their own in this build (renamed, or no longer lazy): the numbers lie. */
  missing: string[];
  files: string[];
  size: Size;
}

export interface BundleReport {
  shell: { files: string[]; size: Size };
  routes: EntryRoute[];
  files: Array<{ file: string; inShell: boolean } & Size>;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

// Built chunks import each other as `import{x}from"./file.js"` or `import"./file.js"`; `import(` is a lazy load.
const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["'`]\.\/([^"'`]+\.js)["'`]/g;

export function measureBundle(dist = path.join(ROOT, "dist/client")): BundleReport {
  const assets = path.join(dist, "assets");
  if (!existsSync(path.join(dist, "index.html"))) throw new Error(`no build in ${dist}: run npm run build first`);
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  const sizes = new Map<string, Size>();
  const sizeOf = (file: string): Size => {
    let size = sizes.get(file);
    if (!size) {
      const bytes = readFileSync(path.join(assets, file));
      size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length };
      sizes.set(file, size);
    }
    return size;
  };
  const closure = (start: string[]): string[] => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      if (!file.endsWith(".js")) return;
      for (const m of readFileSync(path.join(assets, file), "utf8").matchAll(STATIC_IMPORT)) visit(m[1]!);
    };
    start.forEach(visit);
    return [...seen];
  };
  const total = (files: string[]): Size =>
    files.reduce((s, f) => {
      const size = sizeOf(f);
      return { raw: s.raw + size.raw, gzip: s.gzip + size.gzip, brotli: s.brotli + size.brotli };
    }, { raw: 0, gzip: 0, brotli: 0 });

  const shellFiles = closure([...html.matchAll(/(?:src|href)="\/?assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]!));
  const all = readdirSync(assets).filter((f) => /\.(js|css)$/.test(f));
  const routes = ENTRY_ROUTES.map((route): EntryRoute => {
    const chunkOf = (name: string) => all.find((f) => f.startsWith(`${name}-`) && /^[\w-]+\.js$/.test(f));
    const chunks = route.lazy.map(chunkOf).filter((f) => f !== undefined);
    const files = closure([...shellFiles, ...chunks]);
    const missing = route.lazy.filter((name) => !chunkOf(name));
    return { path: route.path, who: route.who, budget: route.budget === true, missing, files, size: total(files) };
  });
  const shell = new Set(shellFiles);
  return {
    shell: { files: shellFiles, size: total(shellFiles) },
    routes,
    files: all.map((file) => ({ file, inShell: shell.has(file), ...sizeOf(file) })).sort((a, b) => b.gzip - a.gzip),
  };
}

export function overBudget(report: BundleReport): EntryRoute[] {
  return report.routes.filter((r) => r.budget && (r.missing.length > 0 || r.size.gzip > FIRST_SCREEN_BUDGET_GZIP));
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
// Chunk names list the pages sharing them; the hash and the tail of a long list say nothing to a reader.
const shortName = (file: string) => file.replace(/-[\w-]{8}\.(js|css)$/, ".$1").replace(/~[a-z0-9]{8}\./, "~….");

function markdown(report: BundleReport): string {
  const budget = overBudget(report);
  return [
    "# Bundle size",
    "",
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC from \`dist/client\` (\`npm run build && npm run bench:bundle\`,`,
    "or `npm run bench:web` with Lighthouse). Every page is a lazy chunk (src/client/routes.tsx); a visit downloads the",
    "shell (what index.html loads) and the chunks of the page it opens. The API answers are not counted; there is no web",
    "font (decision 160: the device's own UI font).",
    "",
    `**Budget (issue 12): the first screen of a signed-out visitor (/auth) and of a signed-in rep (/) at most ${kb(FIRST_SCREEN_BUDGET_GZIP)} gzip: ${budget.length === 0 ? "met" : `OVER on ${budget.map((r) => r.path).join(", ")}`}.**`,
    "",
    "## First screen per entry route (shell + page)",
    "",
    "| route | who | files | raw | gzip | brotli |",
    "|---|---|---|---|---|---|",
    `| (shell only) | everyone | ${report.shell.files.length} | ${kb(report.shell.size.raw)} | ${kb(report.shell.size.gzip)} | ${kb(report.shell.size.brotli)} |`,
    ...report.routes.map(
      (r) =>
        `| ${r.budget ? `**${r.path}**` : r.path} | ${r.who} | ${r.missing.length ? `no chunk for ${r.missing.join(", ")}` : r.files.length} | ${kb(r.size.raw)} | ${r.budget ? `**${kb(r.size.gzip)}**` : kb(r.size.gzip)} | ${kb(r.size.brotli)} |`,
    ),
    "",
    "## Files",
    "",
    "| file | in the shell | raw | gzip | brotli |",
    "|---|---|---|---|---|",
    ...report.files.map((f) => `| ${shortName(f.file)} | ${f.inShell ? "yes" : "on demand"} | ${kb(f.raw)} | ${kb(f.gzip)} | ${kb(f.brotli)} |`),
    "",
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = measureBundle();
  const text = markdown(report);
  writeFileSync(path.join(ROOT, "bench/BUNDLE.md"), text);
  console.log(text);
  if (overBudget(report).length > 0) process.exitCode = 1;
}
