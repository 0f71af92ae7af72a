import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Starts the real server (node dist/server/main.mjs, the build) on a free port with its own data directory, exactly as
// `npm start` runs it (minus the build, which test:e2e does first).

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
// E2E_STARTUP_TIMEOUT_MS: more time when the machine is shared and busy (seeding the demo data slows down a lot).
const STARTUP_TIMEOUT_MS = Number(process.env.E2E_STARTUP_TIMEOUT_MS ?? 90_000);

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** Everything the process printed, for failure messages. */
  output: () => string;
  /** SIGTERM and wait for a clean exit; the data directory stays (use `remove` to delete it). */
  stop(): Promise<number | null>;
  /** Stop (if running) and delete the data directory. */
  remove(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function makeDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "showroom-e2e-"));
}

/** Set by tests/e2e/helpers/global-setup.ts: a data directory already migrated and seeded with the demo data. */
export const TEMPLATE_ENV = "E2E_DATA_TEMPLATE";

/**
 * A new data directory: a copy of the run's seeded template when there is one (a start on it takes about 9 s instead
 * of about 35 s for migrations and demo data), else empty. restart.e2e.ts still covers the cold first start.
 */
function dataDirFor(env: Record<string, string> | undefined): string {
  const dir = makeDataDir();
  const template = process.env[TEMPLATE_ENV];
  const seeded = !env?.DATABASE_URL && env?.SEED_DEMO !== "0";
  if (template && seeded) cpSync(template, dir, { recursive: true });
  return dir;
}

export async function startServer(options: { dataDir?: string; env?: Record<string, string>; startupTimeoutMs?: number } = {}): Promise<RunningServer> {
  const startupTimeoutMs = options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS;
  const dataDir = options.dataDir ?? dataDirFor(options.env);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  const child: ChildProcess = spawn(process.execPath, ["--enable-source-maps", "dist/server/main.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SEED_DEMO: "1",
      DATABASE_URL: "",
      APP_URL: url,
      LOG_LEVEL: "warn",
      NODE_ENV: "test",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let running = true;
  void exited.then(() => (running = false));

  const deadline = Date.now() + startupTimeoutMs;
  for (;;) {
    if (!running) throw new Error(`server exited during start-up:\n${log}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become healthy within ${startupTimeoutMs} ms:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  const stop = async () => {
    if (!running) return exited;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return {
    url,
    port,
    dataDir,
    output: () => log,
    stop,
    async remove() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
