/**
 * The whole machine's CPU, from /proc/stat (Linux): the counters of the aggregate `cpu` line and the number of
 * `cpuN` lines. Elsewhere (no /proc/stat) every reading is undefined and the machine signal says nothing.
 */
import { readFileSync } from 'node:fs';

/** One reading of the aggregate counters, in clock ticks since boot. */
export interface MachineCpuReading {
  /** Ticks spent on anything but idle and iowait (user, nice, system, irq, softirq, steal). */
  readonly busy: number;
  /** All ticks (busy + idle + iowait). */
  readonly total: number;
  /** Cores the counters add up (the `cpuN` lines). */
  readonly cores: number;
}

/** The machine's CPU over a window: busy cores on average, of how many. */
export interface MachineCpuUse {
  readonly busyCores: number;
  readonly cores: number;
}

/** Parses the text of /proc/stat; undefined when it has no aggregate `cpu` line. */
export function parseProcStat(text: string): MachineCpuReading | undefined {
  const lines = text.split('\n');
  const aggregate = lines.find((l) => /^cpu\s/.test(l));
  if (aggregate === undefined) return undefined;
  // user nice system idle iowait irq softirq steal (guest and guest_nice are already counted in user and nice)
  const f = aggregate.trim().split(/\s+/).slice(1, 9).map(Number);
  if (f.length < 4 || f.some((n) => !Number.isFinite(n))) return undefined;
  const total = f.reduce((a, b) => a + b, 0);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const cores = lines.filter((l) => /^cpu\d+\s/.test(l)).length;
  return cores > 0 ? { busy: total - idle, total, cores } : undefined;
}

/** Reads /proc/stat now; undefined where it is absent or unreadable. */
export function readMachineCpu(path = '/proc/stat'): MachineCpuReading | undefined {
  try {
    return parseProcStat(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The busy cores between two readings: the busy share of all ticks times the cores (so the clock-tick rate does
 * not matter). Undefined when either reading is missing or no tick passed.
 */
export function machineCpuBetween(
  from: MachineCpuReading | undefined,
  to: MachineCpuReading | undefined,
): MachineCpuUse | undefined {
  if (from === undefined || to === undefined || from.cores !== to.cores) return undefined;
  const total = to.total - from.total;
  if (!(total > 0)) return undefined;
  const busy = Math.min(total, Math.max(0, to.busy - from.busy));
  return { busyCores: Math.round((busy / total) * to.cores * 1000) / 1000, cores: to.cores };
}

/** Clock ticks per second of the times in /proc/<pid>/stat (USER_HZ: 100 on Linux). */
export const USER_HZ = 100;

/**
 * utime + stime in microseconds from a /proc stat file: `/proc/<pid>/stat` for a process (all its threads),
 * `/proc/<pid>/task/<tid>/stat` for one thread. Undefined when it cannot be read (not Linux, the process is gone).
 */
export function statCpuMicros(path: string): number | undefined {
  try {
    const stat = readFileSync(path, 'utf8');
    // the fields after the command name in parentheses: state is field 3, utime 14, stime 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1_000_000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}
