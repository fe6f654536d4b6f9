/**
 * The autocannon generator's own load during a step, measured: the CPU time of the thread autocannon runs on
 * (Linux: /proc/self/task/<pid>/stat, the main thread only, so that an embedded server in a worker thread of the
 * same process is not counted; elsewhere process.cpuUsage(), the whole process) and how late its event loop ran
 * (perf_hooks monitorEventLoopDelay), and the whole machine's busy cores over the same window (/proc/stat).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type GeneratorLoad, machineCpuBetween, readMachineCpu, statCpuMicros } from '@erpcert/load-k6';

const RESOLUTION_MS = 10;

/** CPU microseconds of the main thread (Linux), or of the whole process elsewhere; `thread` says which. */
export function generatorCpuMicros(): { micros: number; thread: boolean } {
  const micros = statCpuMicros(`/proc/self/task/${process.pid}/stat`);
  if (micros !== undefined) return { micros, thread: true };
  // not Linux: the whole process
  const u = process.cpuUsage();
  return { micros: u.user + u.system, thread: false };
}

/**
 * Starts measuring; `stop(operations)` gives the load since the start. `targetCpuMicros` reads the target's CPU
 * time when it can be read (the embedded server's thread): the step then carries the target's CPU too.
 */
export function measureGenerator(targetCpuMicros?: () => number | undefined): {
  stop(operations: number): GeneratorLoad;
} {
  const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  loop.enable();
  const machine0 = readMachineCpu();
  const cpu0 = generatorCpuMicros().micros;
  const target0 = targetCpuMicros?.();
  const t0 = performance.now();
  return {
    stop(operations) {
      loop.disable();
      const cpu = generatorCpuMicros().micros - cpu0;
      const target1 = target0 === undefined ? undefined : targetCpuMicros?.();
      const machine = machineCpuBetween(machine0, readMachineCpu());
      const wallMicros = (performance.now() - t0) * 1000;
      const late = Number.isFinite(loop.mean) ? Math.max(0, loop.mean / 1e6 - RESOLUTION_MS) : 0;
      return {
        cpuCores: Math.round((cpu / Math.max(1, wallMicros)) * 1000) / 1000,
        workers: 1,
        ...(operations > 0 ? { cpuMicrosPerOp: Math.round(cpu / operations) } : {}),
        eventLoopDelayMs: Math.round(late * 10) / 10,
        ...(machine ? { machineBusyCores: machine.busyCores, machineCores: machine.cores } : {}),
        ...(target0 !== undefined && target1 !== undefined
          ? { targetCpuCores: Math.round(((target1 - target0) / Math.max(1, wallMicros)) * 1000) / 1000 }
          : {}),
      };
    },
  };
}
