/** The autocannon generator's load: its own thread's CPU and the whole machine's over the same window. */
import { existsSync, readFileSync } from 'node:fs';
import { parseProcStat } from '@erpcert/load-k6';
import { describe, expect, it } from 'vitest';
import { measureGenerator } from './generator-load.js';

describe('measureGenerator', () => {
  const linux = existsSync('/proc/stat');

  it.skipIf(!linux)(
    'gives the machine figures beside the generator figures, the busy cores counting the generator',
    () => {
      const m = measureGenerator();
      const t = Date.now();
      while (Date.now() - t < 500); // the generator's thread busy
      const g = m.stop(100);
      const cores = parseProcStat(readFileSync('/proc/stat', 'utf8'))?.cores;
      expect(g.machineCores).toBe(cores);
      expect(g.cpuCores).toBeGreaterThan(0);
      // 10 ms clock ticks over half a second: a small tolerance
      expect(g.machineBusyCores).toBeGreaterThanOrEqual(g.cpuCores - 0.25);
      expect(g.machineBusyCores).toBeLessThanOrEqual(cores ?? 0);
      expect(g.cpuMicrosPerOp).toBeGreaterThan(0);
    },
  );
});
