/**
 * Issue 19 "Done when", known deviations: a target with two known deviations (the reference server behind
 * the self-test's mutating proxy, two mutants of different rules composed), `--write-baseline` writes them,
 * the next run exits 0 with two KNOWN, a third deviation exits 1 naming exactly one new FAIL, and a deviation
 * removed from the target is reported fixed. `--only` keeps each run to the rules involved.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type RunningServer, startServer } from '@erpcert/refserver';
import type { ResultsDocument } from '@erpcert/runs';
import { validateResults } from '@erpcert/runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { restMutants } from '../selftest/mutants-rest.js';
import { type Mutant, type RunningProxy, startProxy } from '../selftest/proxy.js';

const work = mkdtempSync(join(tmpdir(), 'erpcert-baseline-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The three deviations, each a self-test mutant breaking one rule of its own. */
const [HEADER, EMPTY, META] = ['sequence-header-missing', 'json-empty-null', 'record-sequence-missing'].map(
  (id) => restMutants().find((m) => m.id === id)!,
) as [Mutant, Mutant, Mutant];
const ONLY = [...HEADER.breaks, ...EMPTY.breaks, ...META.breaks].join(',');

/** One proxy applying several mutants: each request and response passes through them in turn. */
function composed(ms: readonly Mutant[]): Mutant {
  return {
    id: ms.map((m) => m.id).join('+'),
    description: 'composed',
    breaks: ms.flatMap((m) => m.breaks),
    request: (req) => {
      let r: ReturnType<NonNullable<Mutant['request']>> = req;
      // a mutant that answers by itself ends the chain
      for (const m of ms) if (!('status' in r)) r = m.request?.(r) ?? r;
      return r;
    },
    response: (req, res) => ms.reduce((r, m) => m.response?.(req, r) ?? r, res),
  };
}

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    seed: 100,
    user: 'erpcert',
    password: 'erpcert',
    log: () => {},
  });
});
afterAll(async () => {
  await server?.close();
});

let runs = 0;
async function conformAgainst(ms: readonly Mutant[], flags: string[]) {
  const proxy: RunningProxy = await startProxy(server.url, composed(ms));
  const out = join(work, `run-${++runs}`);
  const o = new PassThrough();
  const e = new PassThrough();
  let stdout = '';
  let stderr = '';
  o.on('data', (d) => {
    stdout += d;
  });
  e.on('data', (d) => {
    stderr += d;
  });
  try {
    const args = ['conform', '--target', proxy.url, '--user', 'erpcert', '--password', 'erpcert', '--compcode', '1'];
    const code = await main([...args, '--only', ONLY, '--seed', '1', '--out', out, ...flags], {
      out: o,
      err: e,
      env: {},
      cwd: work,
    });
    const doc = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsDocument;
    return { code, doc, stdout, stderr, out };
  } finally {
    await proxy.close();
  }
}
const verdict = (doc: ResultsDocument, id: string) => doc.rules.find((r) => r.id === id)?.verdict;
const ruleOf = (m: Mutant) => m.breaks[0]!;

describe('conform --baseline: the life of a known deviation', () => {
  const file = () => join(work, 'erpcert-baseline.yaml');

  it('two deviations FAIL; --write-baseline lists exactly them with empty reasons', async () => {
    const first = await conformAgainst([HEADER, EMPTY], ['--write-baseline', 'erpcert-baseline.yaml']);
    // judged against the file as written: the tests FAILed both, the file accepts both
    expect([verdict(first.doc, ruleOf(HEADER)), verdict(first.doc, ruleOf(EMPTY))]).toEqual(['KNOWN', 'KNOWN']);
    expect(first.doc.rules.filter((r) => r.known !== null).map((r) => r.known?.verdict)).toEqual(['FAIL', 'FAIL']);
    expect(first.doc.knownDeviations?.added).toEqual([ruleOf(EMPTY), ruleOf(HEADER)].sort());
    const text = readFileSync(file(), 'utf8');
    expect(text.match(/- rule: \S+/g)).toEqual([ruleOf(EMPTY), ruleOf(HEADER)].sort().map((r) => `- rule: ${r}`));
    expect(text.match(/reason: ""/g)).toHaveLength(2);
    expect(first.code).toBe(0);
  }, 120_000);

  it('the reasons filled in; the next run exits 0 with two KNOWN and no FAIL', async () => {
    const filled = readFileSync(file(), 'utf8')
      .replace(/(- rule: REST\.SEQ\.HEADER\n\s+reason: )""/, '$1"the gateway strips the header; ERP-7"')
      .replace(/(- rule: REST\.RECORD\.EMPTY_STRING\n\s+reason: )""/, '$1"sends null for empty; vendor fix in 9.1"');
    writeFileSync(file(), filled);
    const run = await conformAgainst([HEADER, EMPTY], ['--baseline', 'erpcert-baseline.yaml']);
    expect(run.code).toBe(0);
    expect([run.doc.totals.KNOWN, run.doc.totals.FAIL, run.doc.totals.ERROR]).toEqual([2, 0, 0]);
    expect(validateResults(run.doc).errors).toEqual([]);
    expect(run.doc.run.command).toMatch(/ --baseline erpcert-baseline\.yaml$/);
    expect(run.stdout).toContain('KNOWN (FAIL) REST.SEQ.HEADER: the gateway strips the header; ERP-7');
    const junit = readFileSync(join(run.out, 'junit.xml'), 'utf8');
    expect(junit).toContain('<skipped message="KNOWN (FAIL), accepted by the baseline: sends null for empty');
  }, 120_000);

  it('a third deviation: exit 1, exactly one new FAIL, named (the baseline named by erpcert.config.json)', async () => {
    writeFileSync(
      join(work, 'erpcert.config.json'),
      JSON.stringify({ conform: { baseline: 'erpcert-baseline.yaml' } }),
    );
    const run = await conformAgainst([HEADER, EMPTY, META], []);
    rmSync(join(work, 'erpcert.config.json'));
    expect(run.code).toBe(1);
    expect(run.doc.rules.filter((r) => r.verdict === 'FAIL').map((r) => r.id)).toEqual([ruleOf(META)]);
    expect(run.doc.totals.KNOWN).toBe(2);
    expect(run.stdout).toMatch(new RegExp(`\\nFAIL ${ruleOf(META).replace(/\./g, '\\.')}: `));
    expect(run.stdout).not.toMatch(/\nFAIL REST\.SEQ\.HEADER/);
  }, 120_000);

  it('a deviation removed from the target is reported fixed; --strict-baseline makes that exit 1', async () => {
    const run = await conformAgainst([EMPTY], ['--baseline', 'erpcert-baseline.yaml']);
    expect(run.code).toBe(0);
    expect(verdict(run.doc, ruleOf(HEADER))).toBe('PASS');
    expect(run.doc.knownDeviations?.fixed).toEqual([ruleOf(HEADER)]);
    expect(run.stdout).toContain(
      `fixed: ${ruleOf(HEADER)} passes now: remove it from the baseline erpcert-baseline.yaml`,
    );
    const strict = await conformAgainst([EMPTY], ['--baseline', 'erpcert-baseline.yaml', '--strict-baseline']);
    expect(strict.code).toBe(1);
  }, 120_000);

  it('--prune-baseline removes the fixed entry from the file and keeps the other; strict then passes', async () => {
    const before = readFileSync(file(), 'utf8');
    const args = ['--baseline', 'erpcert-baseline.yaml', '--strict-baseline', '--prune-baseline'];
    const run = await conformAgainst([EMPTY], args);
    expect(run.stderr + run.stdout).toContain(
      `erpcert-baseline.yaml: pruned 1 fixed entry that pass now: ${ruleOf(HEADER)}`,
    );
    expect(run.code).toBe(0);
    const after = readFileSync(file(), 'utf8');
    expect(before).toContain(`rule: ${ruleOf(HEADER)}`);
    expect(after).not.toContain(`rule: ${ruleOf(HEADER)}`);
    expect(after).toContain(`rule: ${ruleOf(EMPTY)}`);
    expect(verdict(run.doc, ruleOf(EMPTY))).toBe('KNOWN');
    expect(run.doc.knownDeviations?.fixed).toEqual([]);
  }, 120_000);
});

describe('conform --baseline: a file that cannot be used is exit 2, naming the line, nothing run', () => {
  it.each([
    [
      'an unknown rule id',
      'accepted:\n  - rule: REST.SEQ.HEADER\n    reason: ok\n  - rule: REST.SEQ.NO_SUCH\n',
      /bad\.yaml:4: unknown rule id REST\.SEQ\.NO_SUCH/,
    ],
    ['malformed YAML', 'accepted:\n  - rule: REST.SEQ.HEADER\n   reason: [\n', /bad\.yaml:\d+: not valid YAML/],
  ])('%s', async (_name, text, message) => {
    writeFileSync(join(work, 'bad.yaml'), text);
    const out = join(work, 'never-written');
    const err = new PassThrough();
    let stderr = '';
    err.on('data', (d) => {
      stderr += d;
    });
    const code = await main(['conform', '--baseline', 'bad.yaml', '--out', out], {
      out: new PassThrough(),
      err,
      env: {},
      cwd: work,
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('Nothing was run.');
    expect(existsSync(out)).toBe(false);
  });
});
