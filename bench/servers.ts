import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LoopFigures } from "./loop-probe";

// The servers under test, each its own child process (so its CPU time and memory are its own): the app exactly as
// `npm start` runs it (the server bundle dist/server/main.mjs, built from the checkout once per benchmark run), and
// the floor server in either mode. Always stopped by the caller.

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, "..");
const LOG_DIR = path.join(HERE, ".data", "logs");

export interface RunningServer {
  name: string;
  pid: number;
  base: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill("SIGTERM");
    });
}

async function waitForHealth(base: string, child: ChildProcess, name: string, log: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} while starting; see ${log}`);
    try {
      const response = await fetch(`${base}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not answer /api/health within 3 minutes; see ${log}`);
}

function spawnLogged(name: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, nodeArgs: string[] = []): { child: ChildProcess; log: string } {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = path.join(LOG_DIR, `${name}.log`);
  const out = createWriteStream(log);
  // `node` itself, not npm: the pid read for CPU and memory must be the server's.
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", ...args], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  child.stderr?.pipe(out);
  return { child, log };
}

export interface AppOptions {
  name: string;
  /** The checkout whose app runs (BENCH_APP_DIR; this one by default). */
  appDir: string;
  env: Record<string, string>;
  /** pino's request lines cost the app CPU as in production, but nobody reads them here. */
  keepStdout?: boolean;
  /** Every chunk of the app's stdout (the request log: one JSON line per request with its `ms`). */
  onStdout?: (chunk: string) => void;
}

/** The app's event-loop delay and GC pauses since the last reading (bench/loop-probe.ts), or null if it is gone. */
export type LoopReading = () => Promise<LoopFigures | null>;

function loopReader(child: ChildProcess, file: string): LoopReading {
  let seq = 0;
  return async () => {
    if (child.exitCode !== null || !child.kill("SIGUSR2")) return null;
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      if (existsSync(file)) {
        const figures = JSON.parse(readFileSync(file, "utf8")) as LoopFigures;
        if (figures.seq > seq) {
          seq = figures.seq;
          return figures;
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return null;
  };
}

const built = new Set<string>();

/**
 * What `npm start` runs: the server bundle (`npm run build:server`, an esbuild bundle of src/server/main.ts, about a
 * second), built once per benchmark process and checkout. A checkout from before the bundle existed runs its sources.
 */
function appEntry(appDir: string): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(appDir, "package.json"), "utf8")) as { scripts?: Record<string, string> }).scripts ?? {};
  if (!scripts["build:server"]) return ["src/server/main.ts"];
  if (!built.has(appDir)) {
    execFileSync("npm", ["run", "--silent", "build:server"], { cwd: appDir, stdio: "inherit" });
    built.add(appDir);
  }
  // Node's flags as `npm start` gives them (decision 254's young generation among them), read from its script.
  const flags = /node ((?:--\S+ )*)dist\/server\/main\.mjs/.exec(scripts.start ?? "")?.[1]?.trim().split(" ") ?? ["--enable-source-maps"];
  return [...flags, "dist/server/main.mjs"];
}

/**
 * The app of appDir as `npm start` runs it (appEntry) with the given environment, on a free port of 127.0.0.1, with
 * bench/loop-probe.ts loaded to read its event-loop delay and GC pauses.
 */
export async function startApp(options: AppOptions): Promise<RunningServer & { stdout: () => string; loop: LoopReading }> {
  const port = await freePort();
  mkdirSync(LOG_DIR, { recursive: true });
  const probeFile = path.join(LOG_DIR, `${options.name}.loop.json`);
  rmSync(probeFile, { force: true });
  const env = { HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "info", BENCH_PROBE_FILE: probeFile, ...options.env };
  // BENCH_APP_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") go to the app's node alone, not the floors'.
  const nodeArgs = process.env.BENCH_APP_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const probe = ["--import", path.join(HERE, "loop-probe.ts")];
  const { child, log } = spawnLogged(options.name, [...probe, ...appEntry(options.appDir)], env, options.appDir, nodeArgs);
  let stdout = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    // Keep the start-up lines (demo logins, errors), not the request log.
    if (options.keepStdout && stdout.length < 100_000) stdout += chunk.toString();
    options.onStdout?.(chunk.toString());
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  try {
    await waitForHealth(base, child, options.name, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { name: options.name, pid: child.pid!, base, stop, stdout: () => stdout, loop: loopReader(child, probeFile) };
}

/** bench/floor-server.ts in one mode, connected as application_name `name` (to find its PostgreSQL backends). */
export async function startFloor(name: string, databaseUrl: string, mode: "unnamed" | "prepared"): Promise<RunningServer> {
  const { child, log } = spawnLogged(name, [path.join(HERE, "floor-server.ts")], { FLOOR_DATABASE_URL: databaseUrl, FLOOR_MODE: mode, PORT: "0" }, REPO);
  const stop = stopper(child);
  const port = await new Promise<number>((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\d+)/.exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code} while starting; see ${log}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { name, pid: child.pid!, base: `http://127.0.0.1:${port}`, stop };
}

/** A connection string naming its connections, so their backends can be told apart in pg_stat_activity. */
export function withApplicationName(url: string, applicationName: string): string {
  const u = new URL(url);
  u.searchParams.set("application_name", applicationName);
  return u.toString();
}
