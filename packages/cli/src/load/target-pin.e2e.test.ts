/**
 * `erpcert load --target-guard` with each real engine: the target's name is served by a test resolver that answers
 * an allowed loopback address first and a refused one after (DNS rebinding). The guard resolves it once and pins
 * the run, so every request of the run (the preflight, the engine's setup and its load) reaches the allowed server
 * and names the target as Host; the system resolver does not know the name (`.test`, RFC 6761), so an engine that
 * resolved it itself would reach nothing. Bounded: one invoices run of 2 s at the documented 4/s per engine.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@erpcert/refserver';
import type { LoadRunDocument } from '@erpcert/runs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testResolver } from '../../../hub/src/testing/test-resolver.js';
import type { CommandIO } from '../command.js';
import { load as command } from '../commands/load.js';
import { parseArgs } from '../options.js';
import { k6Path } from './engines.js';
import { runLoad } from './run-load.js';

const work = mkdtempSync(join(tmpdir(), 'erpcert-load-pin-'));
const auth = ['--user', 'erpcert', '--password', 'erpcert', '--compcode', '1'];
let server: RunningServer;
/** Every request the allowed server received: method, path and Host. */
let seen: { method: string; path: string; host: string }[] = [];
let connections = 0;

beforeAll(async () => {
  server = await startServer({ port: 0, seed: 200, log: () => {} });
  server.server.on('request', (req) =>
    seen.push({ method: req.method ?? '', path: req.url ?? '', host: req.headers.host ?? '' }),
  );
  server.server.on('connection', () => connections++);
}, 60_000);
beforeEach(() => {
  seen = [];
  connections = 0;
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

/** `erpcert load ARGS` in this process (the parsing of main(), then runLoad), names resolved by `resolver`. */
async function load(args: string[], resolver: ReturnType<typeof testResolver>) {
  let out = '';
  let err = '';
  const io: CommandIO = {
    out: {
      write(t: string) {
        out += t;
        return true;
      },
    } as NodeJS.WritableStream,
    err: {
      write(t: string) {
        err += t;
        return true;
      },
    } as NodeJS.WritableStream,
    env: {},
    cwd: work,
  };
  const parsed = parseArgs('load', command.flags, args, io.env, io.cwd);
  const code = await runLoad(parsed.values, io, { signals: false, resolver });
  return { code, out, err };
}

const engines = [['autocannon'], ...(k6Path() ? [['k6']] : [])];

describe('erpcert load --target-guard pins the run to the address it checked', () => {
  it.each(engines)(
    '%s: a rebinding name (allowed loopback first, link-local after): every request reaches the allowed server',
    async (engine) => {
      const resolver = testResolver({ 'erp.test': ['127.0.0.1', '169.254.169.254'] });
      const url = `http://erp.test:${server.port}`;
      const out = join(work, `pinned-${engine}`);
      const r = await load(
        [
          '--target',
          url,
          '--target-guard',
          '127.0.0.1/32',
          ...auth,
          '--scenario',
          'invoices',
          '--duration',
          '2',
          '--engine',
          engine!,
          '--out',
          out,
        ],
        resolver,
      );
      expect(r.err).toContain('the run is pinned to 127.0.0.1');
      expect(r.code, r.err).toBe(0);
      // asked once: the second, refused answer is never given, and nothing else resolved the name
      expect(resolver.asked).toEqual(['erp.test']);
      // the preflight, the engine's setup and its load all arrived here, naming the target
      expect(seen.length).toBeGreaterThan(4);
      expect(new Set(seen.map((s) => s.host))).toEqual(new Set([`erp.test:${server.port}`]));
      expect(seen.filter((s) => s.method === 'POST' && /^\/api\/1\/IVVc\b/.test(s.path)).length).toBe(8);
      // the report names the target as given; the pinned address appears only in the progress line
      const doc = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as LoadRunDocument;
      expect(doc.run.target.url).toBe(url);
      expect(doc.problems).toEqual([]);
      expect(doc.scenarios[0]).toMatchObject({ scenario: 'invoices', engine, verdict: 'pass' });
      for (const file of readdirSync(out, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()))
        expect(readFileSync(join(file.parentPath, file.name), 'utf8'), file.name).not.toContain('127.0.0.1');
    },
    120_000,
  );

  it('a name resolving to the metadata address is refused before anything is sent, and no report is written', async () => {
    const out = join(work, 'refused');
    const r = await load(
      ['--target', `http://erp.test:${server.port}`, '--target-guard', '127.0.0.1/32', ...auth, '--out', out],
      testResolver({ 'erp.test': '169.254.169.254' }),
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      "erpcert load: refused by the hub's target guard: erp.test resolves to 169.254.169.254 is link-local",
    );
    expect(r.err).toContain('Nothing was run.');
    expect(connections).toBe(0);
    expect(existsSync(out)).toBe(false);
  });
});
