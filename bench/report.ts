import type { RunFigures } from "./load";

// The benchmark's tables. Throughput and latency are medians over the interleaved rounds; CPU per request is the CPU
// of all rounds over all their requests, the steadier figure when other work shares the machine.

export interface Measured {
  scenario: string;
  connections: number;
  server: string;
  round: number;
  figures: RunFigures;
}

export interface Summary {
  rps: number;
  p50: number;
  p99: number;
  /** Milliseconds of CPU per request: the server process, and the PostgreSQL backends serving it. */
  serverCpuMs: number;
  databaseCpuMs: number;
  failures: number;
  loads: number[];
  rounds: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(runs: Measured[]): Summary {
  const requests = runs.reduce((n, r) => n + r.figures.requests, 0) || 1;
  return {
    rps: Math.round(median(runs.map((r) => r.figures.rps))),
    p50: median(runs.map((r) => r.figures.p50)),
    p99: median(runs.map((r) => r.figures.p99)),
    serverCpuMs: (runs.reduce((s, r) => s + r.figures.serverCpu, 0) * 1000) / requests,
    databaseCpuMs: (runs.reduce((s, r) => s + r.figures.databaseCpu, 0) * 1000) / requests,
    failures: runs.reduce((n, r) => n + r.figures.failures, 0),
    loads: runs.map((r) => r.figures.load),
    rounds: runs.length,
  };
}

export function pick(runs: Measured[], scenario: string, connections: number, server: string): Measured[] {
  return runs.filter((r) => r.scenario === scenario && r.connections === connections && r.server === server);
}

const ms = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(1));
const cpu = (n: number) => n.toFixed(2);
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : "–");

export function loadRange(loads: number[]): string {
  if (loads.length === 0) return "–";
  const lo = Math.min(...loads);
  const hi = Math.max(...loads);
  return lo.toFixed(1) === hi.toFixed(1) ? lo.toFixed(1) : `${lo.toFixed(1)}–${hi.toFixed(1)}`;
}

function failuresNote(s: Summary): string {
  return s.failures ? ` (${s.failures} failed)` : "";
}

/**
 * The app beside the floor, one scenario a row: req/s with p50 / p99, the ratio app ÷ prepared floor, then CPU per
 * request (process + PostgreSQL backends) and the load average before the runs.
 */
export function floorTables(runs: Measured[], scenarios: string[], connections: number, servers: [string, string, string]): string {
  const [app, unnamed, prepared] = servers;
  const head = [
    `| Scenario (${connections} connections) | app req/s · p50 / p99 ms | floor, unnamed SQL | floor, prepared | app ÷ prepared (req/s) | app ÷ faster floor |`,
    "|---|---:|---:|---:|---:|---:|",
  ];
  const cpuHead = [
    `| Scenario (${connections} connections) | app CPU ms/request (process + PostgreSQL) | floor, unnamed SQL | floor, prepared | app ÷ prepared (CPU) | load average before the runs |`,
    "|---|---:|---:|---:|---:|---:|",
  ];
  const speed: string[] = [];
  const cost: string[] = [];
  for (const scenario of scenarios) {
    const [a, u, p] = [app, unnamed, prepared].map((server) => summarize(pick(runs, scenario, connections, server))) as [Summary, Summary, Summary];
    if (a.rounds === 0) continue;
    const cell = (s: Summary) => `${s.rps} · ${ms(s.p50)} / ${ms(s.p99)}${failuresNote(s)}`;
    // A prepared statement's generic plan can be the wrong one for the data (see README): the faster floor is the floor.
    speed.push(`| ${scenario} | ${cell(a)} | ${cell(u)} | ${cell(p)} | **${ratio(a.rps, p.rps)}** | ${ratio(a.rps, Math.max(u.rps, p.rps))} |`);
    const c = (s: Summary) => `${cpu(s.serverCpuMs + s.databaseCpuMs)} (${cpu(s.serverCpuMs)} + ${cpu(s.databaseCpuMs)})`;
    const loads = [...a.loads, ...u.loads, ...p.loads];
    cost.push(
      `| ${scenario} | ${c(a)} | ${c(u)} | ${c(p)} | ${ratio(a.serverCpuMs + a.databaseCpuMs, p.serverCpuMs + p.databaseCpuMs)} | ${loadRange(loads)} |`,
    );
  }
  return [...head, ...speed, "", ...cpuHead, ...cost].join("\n");
}

/** One server alone (PGlite: no floor), a row per scenario and connection count. */
export function aloneTable(runs: Measured[], scenarios: string[], connectionCounts: number[], server: string): string {
  const lines = [
    "| Scenario | connections | req/s | p50 / p99 ms | CPU ms/request | failed | load average before |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const scenario of scenarios) {
    for (const connections of connectionCounts) {
      const s = summarize(pick(runs, scenario, connections, server));
      if (s.rounds === 0) continue;
      // On a server the database's backends are counted too (process + PostgreSQL); on PGlite they are the process.
      const used = s.databaseCpuMs > 0 ? `${cpu(s.serverCpuMs + s.databaseCpuMs)} (${cpu(s.serverCpuMs)} + ${cpu(s.databaseCpuMs)})` : cpu(s.serverCpuMs);
      lines.push(`| ${scenario} | ${connections} | ${s.rps} | ${ms(s.p50)} / ${ms(s.p99)} | ${used} | ${s.failures} | ${loadRange(s.loads)} |`);
    }
  }
  return lines.join("\n");
}

/** Every run in the order it ran, for reading a noisy result. */
export function everyRun(runs: Measured[]): string {
  const lines = [
    "| round | scenario | conn. | server | req/s | p50 | p99 | failed | load | server CPU ms/req | PostgreSQL CPU ms/req |",
    "|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of runs) {
    const f = r.figures;
    const per = (s: number) => cpu((s * 1000) / (f.requests || 1));
    lines.push(
      `| ${r.round} | ${r.scenario} | ${r.connections} | ${r.server} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.failures} | ${f.load.toFixed(1)} | ${per(f.serverCpu)} | ${per(f.databaseCpu)} |`,
    );
  }
  return lines.join("\n");
}

/** The app's event loop and GC during a run, for the console line. */
export function loopNote(f: RunFigures): string {
  const l = f.loop;
  if (!l) return "";
  return `; loop delay p99 ${l.delayP99} max ${l.delayMax} ms, GC ${l.gcCount}× ${l.gcMs} ms (max ${l.gcMaxMs}, ${l.majorCount} major ${l.majorMs} ms)`;
}

/**
 * The tail beside what can make a request wait in the app's process: per scenario, the median over rounds of the
 * app's p99 (and its ratio to the floor's p99 in the same round, when a floor ran), the event-loop delay (p99 and
 * worst) and the GC pauses per run (count, total, longest, mark-compacts).
 */
export function tailTable(runs: Measured[], scenarios: string[], connections: number | number[], app: string, floor?: string): string {
  const counts = Array.isArray(connections) ? connections : [connections];
  const lines = [
    `| Scenario | conn. | app p99 ms${floor ? " | app p99 ÷ floor p99 (same round)" : ""} | loop delay p99 / max ms | GC per run: count, total / longest ms | mark-compact: count, ms | load |`,
    `|---|---:|---:|${floor ? "---:|" : ""}---:|---:|---:|---:|`,
  ];
  for (const scenario of scenarios) {
    for (const c of counts) {
      const mine = pick(runs, scenario, c, app).filter((r) => r.figures.loop);
      if (mine.length === 0) continue;
      const m = (f: (r: Measured) => number) => median(mine.map(f));
      const ratios = floor
        ? mine.flatMap((r) => {
            const other = runs.find((o) => o.scenario === scenario && o.connections === c && o.server === floor && o.round === r.round);
            return other && other.figures.p99 > 0 ? [r.figures.p99 / other.figures.p99] : [];
          })
        : [];
      const loop = (f: (l: NonNullable<RunFigures["loop"]>) => number) => m((r) => f(r.figures.loop!));
      lines.push(
        `| ${scenario} | ${c} | ${ms(m((r) => r.figures.p99))}${floor ? ` | ${ratios.length ? median(ratios).toFixed(2) : "–"}` : ""} | ` +
          `${ms(loop((l) => l.delayP99))} / ${ms(loop((l) => l.delayMax))} | ${loop((l) => l.gcCount)}, ${ms(loop((l) => l.gcMs))} / ${ms(loop((l) => l.gcMaxMs))} | ` +
          `${loop((l) => l.majorCount)}, ${ms(loop((l) => l.majorMs))} | ${loadRange(mine.map((r) => r.figures.load))} |`,
      );
    }
  }
  return lines.join("\n");
}
