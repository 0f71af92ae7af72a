import { writeFileSync, renameSync } from "node:fs";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

// Loaded into the benchmarked app's process only (`node --import bench/loop-probe.ts`, bench/servers.ts), never by
// the app itself: how long the event loop was held up (perf_hooks.monitorEventLoopDelay) and how long garbage
// collection paused it (PerformanceObserver 'gc') during one timed run, to print beside its p99 (issue 32).
// SIGUSR2 writes the figures since the last signal to BENCH_PROBE_FILE (as JSON, with a sequence number) and resets.

export interface LoopFigures {
  seq: number;
  /** Event-loop delay, ms: how late a 10 ms timer fired. */
  delayP50: number;
  delayP99: number;
  delayMax: number;
  gcCount: number;
  gcMs: number;
  gcMaxMs: number;
  /** Mark-compact collections (the old generation's), and their time. */
  majorCount: number;
  majorMs: number;
}

const file = process.env.BENCH_PROBE_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let gc = { count: 0, ms: 0, max: 0, majorCount: 0, majorMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.ms += entry.duration;
      gc.max = Math.max(gc.max, entry.duration);
      if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.majorCount++;
        gc.majorMs += entry.duration;
      }
    }
  }).observe({ entryTypes: ["gc"] });
  let seq = 0;
  process.on("SIGUSR2", () => {
    const ns = (n: number) => Math.round(n / 1e4) / 100;
    const figures: LoopFigures = {
      seq: ++seq,
      delayP50: ns(delay.percentile(50)),
      delayP99: ns(delay.percentile(99)),
      delayMax: ns(delay.max),
      gcCount: gc.count,
      gcMs: Math.round(gc.ms * 10) / 10,
      gcMaxMs: Math.round(gc.max * 10) / 10,
      majorCount: gc.majorCount,
      majorMs: Math.round(gc.majorMs * 10) / 10,
    };
    writeFileSync(`${file}.tmp`, JSON.stringify(figures));
    renameSync(`${file}.tmp`, file);
    delay.reset();
    gc = { count: 0, ms: 0, max: 0, majorCount: 0, majorMs: 0 };
  });
}
