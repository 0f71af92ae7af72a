import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type pg from "pg";

// What a process costs, read from Linux's /proc: CPU time (user + system) and resident memory. The benchmark reads
// it for the server processes it started and for the PostgreSQL backends serving them, so "CPU per request" does
// not depend on how busy the rest of the machine is, unlike req/s.

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  return ticksPerSecond;
}

/**
 * CPU seconds a process has used so far (utime + stime, fields 14 and 15 of /proc/<pid>/stat), or null when it is
 * gone. The command name (field 2) may hold spaces and parentheses, so fields are counted after its closing one.
 */
export function cpuSeconds(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) / clockTicks();
}

/** Resident memory now and at its peak, in MiB (VmRSS and VmHWM of /proc/<pid>/status). */
export function residentMemory(pid: number): { rssMb: number; peakMb: number } | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakMb: Math.round(kb("VmHWM") / 1024) };
}

/** The PostgreSQL backends (process ids) of the connections that named themselves `applicationName`. */
export async function backendsOf(admin: pg.Client, applicationName: string): Promise<number[]> {
  const result = await admin.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [applicationName]);
  return result.rows.map((r) => r.pid);
}

/** CPU seconds of each process, by pid. */
export function cpuOfEach(pids: number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    const s = cpuSeconds(pid);
    if (s !== null) seconds.set(pid, s);
  }
  return seconds;
}

/**
 * CPU seconds the processes used between two readings. A process seen only at the end started in between and counts
 * whole; one that ended in between is lost (the benchmark reads backends after its warm-up, when the pool is full).
 */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, end] of after) total += end - (before.get(pid) ?? 0);
  return total;
}
