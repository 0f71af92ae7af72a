import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { startServer, TEMPLATE_ENV } from "./server";

// The server build first (about a second; `npm run build:server`), so a run never drives a server older than the
// sources, whoever built the client last. Then one cold start per run (migrations and demo data into a fresh
// directory), stopped cleanly; every spec file's server then starts on a copy of that directory (./server.ts). The
// workers inherit the variable set here.
export default async function setup() {
  execFileSync("npm", ["run", "--silent", "build:server"], { stdio: "inherit" });
  const template = await startServer({ startupTimeoutMs: 240_000 });
  const code = await template.stop();
  if (code !== 0) throw new Error(`the template server exited with ${code}:\n${template.output()}`);
  process.env[TEMPLATE_ENV] = template.dataDir;
  return () => rmSync(template.dataDir, { recursive: true, force: true });
}
