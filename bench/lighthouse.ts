import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { DEMO_PASSWORD, DEMO_USERS } from "../tests/e2e/helpers/auth";
import { FULL_CHROMIUM_PATH } from "../tests/e2e/helpers/browser";
import { startServer } from "../tests/e2e/helpers/server";

// Lighthouse 12 in mobile mode (its default: a mid-range phone, slow 4G and a 4x slower CPU, simulated) with Debian's
// Chromium, on the sign-in screen and on each role's dashboard, against the real server started as
// `npm start` does (demo data, production mode, compression). Each page is measured LIGHTHOUSE_RUNS times (3) and
// the median run is kept: the machine is shared, and one run's score moves by a few points.
// Each signed-in role is measured twice: returning (signed in through /auth in this browser: session cookie, local
// storage, service worker) and with only the session cookie; the HTTP cache is emptied before each run, so every file
// is downloaded again as on a first visit.
// Usage: npm run bench:web (build, bench/bundle-size.ts, then this)   → bench/LIGHTHOUSE.md
// Issues 12 and 32 ask for performance 95 or more and accessibility 100 on every page.

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
// Lighthouse's 4x CPU slowdown assumes a desktop-class host (its docs: benchmark index 1000 and up). On this shared
// 2-core machine the index falls to a few hundred while others build and test: a run measured then says more about
// the neighbours than about the app, so it is measured again after a pause (a few times at most), and flagged if
// the machine never calmed down. LIGHTHOUSE_MIN_INDEX=0 turns this off.
const MIN_INDEX = Number(process.env.LIGHTHOUSE_MIN_INDEX ?? 1000);
const BUSY_RETRIES = Number(process.env.LIGHTHOUSE_BUSY_RETRIES ?? 4);
const BUSY_PAUSE_MS = 30_000;
const TARGET = { performance: 95, accessibility: 100 };

interface Run {
  performance: number;
  accessibility: number;
  metrics: Record<string, string>;
  failedAccessibility: string[];
  /** Lighthouse's measure of this machine's speed at the time (higher is faster). */
  benchmarkIndex: number;
}

const busy = (run: Run) => run.benchmarkIndex < MIN_INDEX;

const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];

/**
 * Signs in through the real form in Lighthouse's browser, then empties the HTTP cache. Returning: cookies and storage
 * stay (local storage's "signed in last time" hint, the service worker). Fresh: only the session cookie stays, as
 * on a phone that signed in once and whose browser has since dropped the site's storage (issue 32).
 */
async function signIn(port: number, url: string, email: string, fresh: boolean): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    // Signed out first: the previous run's session and hint are still in this browser.
    await context.clearCookies();
    const page = await context.newPage();
    await page.goto(`${url}/auth`);
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.getByRole("heading", { name: "Dashboard" }).first().waitFor();
    const cdp = await context.newCDPSession(page);
    if (fresh) {
      // Everything of the origin but its cookies: local storage, session storage, service workers, caches, databases.
      await cdp.send("Storage.clearDataForOrigin", {
        origin: new URL(url).origin,
        storageTypes: "local_storage,service_workers,cache_storage,indexeddb,websql,file_systems,shader_cache",
      });
    }
    await cdp.send("Network.clearBrowserCache");
    await page.close();
  } finally {
    // Disconnects playwright only: the browser is chrome-launcher's.
    await browser.close();
  }
}

async function measure(port: number, url: string, signedIn: boolean): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      // Signed in: keep what signIn left (the cookie, and for a returning visitor the storage; it emptied the cache).
      disableStorageReset: signedIn,
    });
    if (!result) throw new Error(`lighthouse gave no result for ${url}`);
    const { lhr } = result;
    // LIGHTHOUSE_JSON=<dir> keeps every run's full report, to see which request or task a metric waits for.
    if (process.env.LIGHTHOUSE_JSON) writeFileSync(path.join(process.env.LIGHTHOUSE_JSON, `${new URL(url).pathname.replace(/\W+/g, "_")}-${Date.now()}.json`), JSON.stringify(lhr));
    // Lighthouse sometimes loses its trace (NO_NAVSTART, NO_FCP on a busy machine): measure again.
    if (lhr.runtimeError && attempt < 3) continue;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const accessibilityAudits = lhr.categories.accessibility?.auditRefs.map((ref) => lhr.audits[ref.id]!) ?? [];
    return {
      performance: score("performance"),
      accessibility: score("accessibility"),
      metrics: Object.fromEntries(METRICS.map((id) => [id, lhr.audits[id]?.displayValue ?? "?"])),
      failedAccessibility: accessibilityAudits.filter((a) => a.score !== null && a.score < 1).map((a) => `${a.id}: ${a.title}`),
      benchmarkIndex: lhr.environment.benchmarkIndex,
    };
  }
}

function median(runs: Run[]): Run {
  return [...runs].sort((a, b) => a.performance - b.performance)[Math.floor(runs.length / 2)]!;
}

// Seeding the demo data takes minutes when the shared machine is busy: the benchmark waits rather than fails.
const server = await startServer({ env: { NODE_ENV: "production", LOG_LEVEL: "error" }, startupTimeoutMs: 600_000 });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? FULL_CHROMIUM_PATH,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
// Every role's dashboard, as a returning visitor and with only the session cookie (no local-storage hint, no service
// worker: issue 32). LIGHTHOUSE_PAGES=auth,sales (names below) measures only those.
const ROLES = [
  ["sales rep", DEMO_USERS.sales],
  ["front desk", DEMO_USERS.frontDesk],
  ["management", DEMO_USERS.management],
] as const;
const allPages = [
  { key: "auth", name: "/auth (signed out)", path: "/auth", as: null, fresh: false },
  ...ROLES.flatMap(([role, email]) => [
    { key: role.split(" ")[0]!, name: `/ dashboard (${role}, returning: cookie and local storage)`, path: "/", as: email, fresh: false },
    { key: `${role.split(" ")[0]!}-fresh`, name: `/ dashboard (${role}, only the session cookie)`, path: "/", as: email, fresh: true },
  ]),
];
const only = process.env.LIGHTHOUSE_PAGES?.split(",");
const pages = only ? allPages.filter((p) => only.includes(p.key)) : allPages;
const results: Array<{ name: string; runs: Run[]; median: Run }> = [];
const loadBefore = os.loadavg()[0]!.toFixed(1);
try {
  for (const page of pages) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      let run: Run;
      for (let attempt = 0; ; attempt++) {
        if (page.as) await signIn(chrome.port, server.url, page.as, page.fresh);
        run = await measure(chrome.port, `${server.url}${page.path}`, page.as !== null);
        console.log(`${page.name} run ${i + 1}: performance ${run.performance}, accessibility ${run.accessibility}, benchmark index ${Math.round(run.benchmarkIndex)} (load ${os.loadavg()[0]!.toFixed(1)})`);
        if (!busy(run) || attempt >= BUSY_RETRIES) break;
        console.log(`  machine busy (index under ${MIN_INDEX}): measuring again in ${BUSY_PAUSE_MS / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, BUSY_PAUSE_MS));
      }
      runs.push(run);
    }
    results.push({ name: page.name, runs, median: median(runs) });
  }
} finally {
  chrome.kill();
  await server.remove();
}

const met = results.every((r) => r.median.performance >= TARGET.performance && r.median.accessibility >= TARGET.accessibility);
const lines = [
  "# Lighthouse (mobile)",
  "",
  `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with Lighthouse 12 (\`npm run bench:web\`): mobile form factor,`,
  "simulated slow 4G and 4x CPU slowdown (Lighthouse's defaults), Debian's Chromium headless, the real server in",
  `production mode with demo data on this machine. Median of ${RUNS} runs by performance score; every run is listed.`,
  "Each signed-in person signed in through /auth in that browser before, then the HTTP cache was emptied: every file",
  "is downloaded again. Returning: cookie, local storage (the \"signed in last time\" hint) and service worker kept;",
  "only the session cookie: the origin's storage cleared too, as on a fresh profile carrying the cookie alone.",
  `Machine: ${os.cpus().length} cores, load average ${loadBefore} before the runs and ${os.loadavg()[0]!.toFixed(1)} after; Lighthouse's`,
  `benchmark index of the median runs ${results.map((r) => Math.round(r.median.benchmarkIndex)).join(" / ")} (its CPU numbers scale with this machine's speed at the time;`,
  `the 4x slowdown assumes an index of 1000 or more: runs below ${MIN_INDEX} were measured again after a pause, up to ${BUSY_RETRIES} times,`,
  "and are marked * when the machine never calmed down).",
  "On this shared machine Lighthouse's CPU figures (blocking time, and the score with it) move with the neighbours'",
  "load from run to run: to judge a change, trust a ratio measured in one sitting (traces of the same page before and",
  "after it, alternated) over two of these tables (decision 251).",
  "",
  `**Target (issues 12 and 32): performance ${TARGET.performance}+ and accessibility ${TARGET.accessibility} on every page: ${met ? "met" : "NOT met"}.**`,
  "",
  "| page | performance | accessibility | FCP | LCP | TBT | CLS | Speed Index | all runs (performance; * busy machine) |",
  "|---|---|---|---|---|---|---|---|---|",
  ...results.map(({ name, runs, median: m }) =>
    [name, m.performance, m.accessibility, ...METRICS.map((id) => m.metrics[id]), runs.map((r) => `${r.performance}${busy(r) ? "*" : ""}`).join(", ")].join(" | ").replace(/^/, "| ").concat(" |"),
  ),
  "",
  ...results.flatMap(({ name, median: m }) => (m.failedAccessibility.length ? [`Accessibility audits failing on ${name}:`, ...m.failedAccessibility.map((a) => `- ${a}`), ""] : [])),
];
writeFileSync(path.join(ROOT, "bench/LIGHTHOUSE.md"), lines.join("\n"));
console.log(lines.join("\n"));
if (!met) process.exitCode = 1;
