import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../options.js';
import { readReportSource } from './report-source.js';

const work = mkdtempSync(join(tmpdir(), 'erpcert-report-source-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const target = { url: 'http://erp', embedded: false, user: 'u', compcode: 3, companyIn: 'path', portalPath: '/P.hal' };

function folder(name: string, results: unknown, ledger?: readonly object[]): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  if (results !== undefined)
    writeFileSync(join(dir, 'results.json'), typeof results === 'string' ? results : JSON.stringify(results));
  if (ledger) writeFileSync(join(dir, 'ledger.jsonl'), ledger.map((e) => `${JSON.stringify(e)}\n`).join(''));
  return dir;
}

describe('readReportSource', () => {
  it.each([
    ['no such folder', join(work, 'missing'), 'no such folder'],
    ['no results.json', folder('empty', undefined), 'no results.json'],
    ['results.json not JSON', folder('garbled', '{'), 'not a JSON object'],
    ['another kind of results', folder('other', { kind: 'something', run: { target } }), 'neither'],
    ['no target', folder('no-target', { kind: 'erpcert-conformance', run: { runTag: 'EC4K2Q' } }), 'names no target'],
    [
      'a conformance run without a run tag',
      folder('no-tag', { kind: 'erpcert-conformance', run: { target } }),
      'no run tag',
    ],
    [
      'a load ledger with two tags',
      folder('two-tags', { schema: 'erpcert-load-results/1', run: { target } }, [
        { register: 'IVVc', key: '1', tag: 'erpcert-load-00000001' },
        { register: 'IVVc', key: '2', tag: 'erpcert-load-00000002' },
      ]),
      'several run tags',
    ],
    [
      'a load ledger without a tag',
      folder('untagged', { schema: 'erpcert-load-results/1', run: { target } }, [{ register: 'IVVc', key: '1' }]),
      'carry no load run tag',
    ],
  ])('%s: UsageError', (_name, dir, message) => {
    expect(() => readReportSource(dir)).toThrow(UsageError);
    expect(() => readReportSource(dir)).toThrow(message);
  });

  it('a conformance folder: the run tag, the target and the open ledger entries', () => {
    const dir = folder('conform', { kind: 'erpcert-conformance', run: { runTag: 'EC4K2Q', target } }, [
      { register: 'CUVc', key: 'EC4K2Q7ZA0001', company: 3 },
      { register: 'IVVc', key: '10000001', company: 3 },
      { register: 'IVVc', key: '10000001', company: 3, gone: true },
    ]);
    const s = readReportSource(dir);
    expect(s).toMatchObject({ kind: 'conformance', folder: 'conform', runTag: 'EC4K2Q', hasLedger: true });
    expect(s.target).toEqual(target);
    expect(s.entries.map((e) => e.key)).toEqual(['EC4K2Q7ZA0001']);
  });

  it('a load folder: the tag of its ledger; without a ledger it says so', () => {
    const load = { schema: 'erpcert-load-results/1', run: { target } };
    const s = readReportSource(
      folder('load', load, [{ register: 'IVVc', key: '10000001', tag: 'erpcert-load-1a2b3c4d' }]),
    );
    expect(s).toMatchObject({ kind: 'load', runTag: 'erpcert-load-1a2b3c4d', hasLedger: true });
    expect(readReportSource(folder('load-old', load))).toMatchObject({ hasLedger: false, runTag: undefined });
  });
});
