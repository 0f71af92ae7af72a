// Screenshots of pages at 1280 px and 375 px against a freshly started demo server.
//   node --import tsx tests/e2e/shoot.ts --as sales --out /tmp/shots / /dashboard /leads/new
//   --as <demo role key | none> (tests/e2e/helpers/auth.ts DEMO_USERS), --out <dir>, --full (full page), then paths.
// Requires `npm run build` first (the server serves dist/client); the server bundle is rebuilt here, from the sources.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { DEMO_USERS, logIn } from "./helpers/auth";
import { DESKTOP, launchBrowser, newPage, PHONE } from "./helpers/browser";
import { startServer } from "./helpers/server";

const args = process.argv.slice(2);
let as = "none";
let out = "/tmp/showroom-shots";
let full = false;
const paths: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === "--as") as = args[++i]!;
  else if (a === "--out") out = args[++i]!;
  else if (a === "--full") full = true;
  else paths.push(a);
}
mkdirSync(out, { recursive: true });

execFileSync("npm", ["run", "--silent", "build:server"], { stdio: "inherit" });
const server = await startServer();
const browser = await launchBrowser();
try {
  for (const [label, viewport] of [["1280", DESKTOP], ["375", PHONE]] as const) {
    const { context, page } = await newPage(browser, server.url, viewport);
    if (as !== "none") await logIn(page, DEMO_USERS[as as keyof typeof DEMO_USERS]);
    for (const p of paths.length ? paths : ["/"]) {
      await page.goto(p);
      await page.waitForLoadState("networkidle");
      await page.waitForTimeout(400);
      const file = path.join(out, `${as}${p.replace(/[/?=&]+/g, "_") || "_root"}-${label}.png`);
      await page.screenshot({ path: file, fullPage: full });
      console.log(file);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.remove();
}
