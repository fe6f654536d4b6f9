import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendLedger, readLedger } from './ledger.js';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-ledger-'));
  dirs.push(dir);
  return join(dir, 'ledger.jsonl');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ledger', () => {
  it('a missing file is an empty ledger', () => {
    expect(readLedger(tempFile())).toEqual({ entries: [], problems: [] });
  });

  it('reads entries back in creation order, once each, without the ones marked gone', () => {
    const file = tempFile();
    appendLedger(file, { register: 'IVVc', key: '1001', company: 1 });
    appendLedger(file, { register: 'CUVc', key: 'EC1 A' });
    appendLedger(file, { register: 'PLVc', key: 'P1/ART 1', company: 1 });
    appendLedger(file, { register: 'IVVc', key: '1001', company: 1, gone: true });
    appendLedger(file, { register: 'CUVc', key: 'EC1 A', test: 'again' });
    const { entries, problems } = readLedger(file);
    expect(problems).toEqual([]);
    expect(entries).toEqual([
      { register: 'PLVc', key: 'P1/ART 1', company: 1 },
      { register: 'CUVc', key: 'EC1 A', test: 'again' },
    ]);
  });

  it('keeps the same key of two companies apart', () => {
    const file = tempFile();
    appendLedger(file, { register: 'IVVc', key: '7', company: 1 });
    appendLedger(file, { register: 'IVVc', key: '7', company: 2 });
    expect(readLedger(file).entries).toHaveLength(2);
  });

  it('reports malformed lines with their numbers and keeps the rest', () => {
    const file = tempFile();
    writeFileSync(
      file,
      [
        '{"register":"IVVc","key":"1"}',
        'not json',
        '{"register":"IVVc"}',
        '{"register":"X","key":"2","company":"a"}',
        '{"register":"X","key":"3","tag":7}',
        '{"register":"TRVc","key":"2026/1","tag":"erpcert-load-1a2b3c4d"}',
        '{"register":"registerapi","key":"u1","permanent":""}',
        '{"register":"registerapi","key":"u2","permanent":"no documented removal"}',
        '',
      ].join('\n'),
    );
    const { entries, problems } = readLedger(file);
    expect(entries).toEqual([
      { register: 'IVVc', key: '1' },
      { register: 'TRVc', key: '2026/1', tag: 'erpcert-load-1a2b3c4d' },
      { register: 'registerapi', key: 'u2', permanent: 'no documented removal' },
    ]);
    expect(problems).toEqual([
      'ledger line 2: not JSON',
      'ledger line 3: needs "register" and "key" strings',
      'ledger line 4: "company" must be an integer',
      'ledger line 5: "tag" must be a string',
      'ledger line 7: "permanent" must be a non-empty string',
    ]);
  });
});
