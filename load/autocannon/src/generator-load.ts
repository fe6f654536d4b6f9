/**
 * The autocannon generator's own load during a step, measured: the CPU time of the thread autocannon runs on
 * (Linux: /proc/self/task/<pid>/stat, the main thread only, so that an embedded server in a worker thread of the
 * same process is not counted; elsewhere process.cpuUsage(), the whole process) and how late its event loop ran
 * (perf_hooks monitorEventLoopDelay), and the whole machine's busy cores over the same window (/proc/stat).
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type GeneratorLoad, machineCpuBetween, readMachineCpu } from '@erpcert/load-k6';

/** Clock ticks per second of /proc stat times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;
const RESOLUTION_MS = 10;

/** CPU microseconds of the main thread (Linux), or of the whole process elsewhere; `thread` says which. */
export function generatorCpuMicros(): { micros: number; thread: boolean } {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // fields after the command name in parentheses: state is field 3, utime 14, stime 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    if (Number.isFinite(ticks)) return { micros: (ticks * 1_000_000) / USER_HZ, thread: true };
  } catch {
    // not Linux: the whole process
  }
  const u = process.cpuUsage();
  return { micros: u.user + u.system, thread: false };
}

/** Starts measuring; `stop(operations)` gives the load since the start. */
export function measureGenerator(): { stop(operations: number): GeneratorLoad } {
  const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  loop.enable();
  const machine0 = readMachineCpu();
  const cpu0 = generatorCpuMicros().micros;
  const t0 = performance.now();
  return {
    stop(operations) {
      loop.disable();
      const cpu = generatorCpuMicros().micros - cpu0;
      const machine = machineCpuBetween(machine0, readMachineCpu());
      const wallMicros = (performance.now() - t0) * 1000;
      const late = Number.isFinite(loop.mean) ? Math.max(0, loop.mean / 1e6 - RESOLUTION_MS) : 0;
      return {
        cpuCores: Math.round((cpu / Math.max(1, wallMicros)) * 1000) / 1000,
        workers: 1,
        ...(operations > 0 ? { cpuMicrosPerOp: Math.round(cpu / operations) } : {}),
        eventLoopDelayMs: Math.round(late * 10) / 10,
        ...(machine ? { machineBusyCores: machine.busyCores, machineCores: machine.cores } : {}),
      };
    },
  };
}
