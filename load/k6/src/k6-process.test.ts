import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOAD_START_MARK, maskSecret, runK6Process } from './k6-process.js';
import { parseProcStat } from './machine-cpu.js';

describe('maskSecret (k6 output)', () => {
  it('masks a password of MIN_SECRET_LENGTH characters or more wherever it stands', () => {
    expect(maskSecret('login erpcert1 failed: erpcert1', 'erpcert1')).toBe('login *** failed: ***');
  });

  it.each(['p', 'test', 'data', 'rules'])('leaves the output alone for the short password %j', (password) => {
    const line = 'running 3 scenarios: test data, rules of the http_req_duration p(95)';
    expect(maskSecret(line, password)).toBe(line);
  });
});

describe('runK6Process watch (the generator and the machine over the load window)', () => {
  const linux = existsSync('/proc/stat');

  // a stand-in for k6: Node prints the load-start mark, then keeps one core busy for a second
  it.skipIf(!linux)(
    'measures the machine over the same window as the generator, its busy cores including the generator',
    async () => {
      const script = `console.log('${LOAD_START_MARK}'); const t = Date.now(); while (Date.now() - t < 1300);`;
      const exit = await runK6Process(process.execPath, ['-e', script], {
        cwd: process.cwd(),
        env: process.env,
        limitMs: 30_000,
        watch: { seconds: 1 },
      });
      const g = exit.generator;
      expect(g?.marked).toBe(true);
      const cores = parseProcStat(readFileSync('/proc/stat', 'utf8'))?.cores;
      expect(g?.machine?.cores).toBe(cores);
      const generatorCores = (g?.cpuMicros ?? 0) / 1e6 / (g?.seconds ?? 1);
      expect(generatorCores).toBeGreaterThan(0);
      // the machine's busy cores count the generator's own (10 ms clock ticks: a small tolerance)
      expect(g?.machine?.busyCores).toBeGreaterThanOrEqual(generatorCores - 0.25);
      expect(g?.machine?.busyCores).toBeLessThanOrEqual(cores ?? 0);
    },
  );
});
