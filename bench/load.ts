import os from "node:os";
import autocannon from "autocannon";
import type pg from "pg";
import type { LoopFigures } from "./loop-probe";
import { backendsOf, cpuBetween, cpuOfEach, cpuSeconds } from "./proc";

// One timed run: autocannon against one server after a 1 s warm-up, with the load average before it and the CPU the
// server process and its PostgreSQL backends spent during it.

export interface Target {
  name: string;
  pid: number;
  base: string;
  /** application_name of its PostgreSQL connections; none on PGlite (the database runs inside the process). */
  backends?: string;
  /** The app's event-loop delay and GC pauses since the last call (bench/loop-probe.ts); the floors have none. */
  loop?: () => Promise<LoopFigures | null>;
}

export interface Load {
  path: string;
  method: "GET" | "POST";
  cookie: string;
  connections: number;
  seconds: number;
  /** Each request's path (a claim takes the next lead of the pool). */
  nextPath?: () => string;
}

export interface RunFigures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Non-2xx answers plus connection errors (timeouts included): should be 0. */
  failures: number;
  /** 1-minute load average just before the run. */
  load: number;
  serverCpu: number;
  databaseCpu: number;
  /** The app's event loop and GC during the timed run (not the warm-up). */
  loop?: LoopFigures | null;
}

function cannon(target: Target, load: Load, seconds: number): Promise<autocannon.Result> {
  const request = load.nextPath ? [{ method: load.method, setupRequest: (r: autocannon.RequestParams) => ({ ...r, path: load.nextPath!() }) }] : undefined;
  return autocannon({
    url: target.base + load.path,
    method: load.method,
    connections: load.connections,
    duration: seconds,
    headers: { cookie: load.cookie },
    ...(request ? { requests: request } : {}),
  });
}

export async function timedRun(target: Target, load: Load, admin?: pg.Client): Promise<RunFigures> {
  await cannon(target, load, 1); // warm-up: JIT, pool connections, plans
  const loadAverage = os.loadavg()[0] ?? 0;
  const pidsBefore = admin && target.backends ? await backendsOf(admin, target.backends) : [];
  const dbBefore = cpuOfEach(pidsBefore);
  await target.loop?.(); // resets the probe's figures
  const serverBefore = cpuSeconds(target.pid) ?? 0;
  const result = await cannon(target, load, load.seconds);
  const serverAfter = cpuSeconds(target.pid) ?? serverBefore;
  const loop = target.loop ? await target.loop() : undefined;
  const pidsAfter = admin && target.backends ? await backendsOf(admin, target.backends) : [];
  const dbAfter = cpuOfEach([...new Set([...pidsBefore, ...pidsAfter])]);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors,
    load: loadAverage,
    serverCpu: serverAfter - serverBefore,
    databaseCpu: cpuBetween(dbBefore, dbAfter),
    ...(loop !== undefined ? { loop } : {}),
  };
}
