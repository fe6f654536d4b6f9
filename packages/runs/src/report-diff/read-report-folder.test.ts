import { describe, expect, it } from 'vitest';
import { LOAD_RESULTS_SCHEMA } from '../load/load-results.js';
import { ReportFolderError, reportRunFromDocument } from './read-report-folder.js';

describe('reportRunFromDocument: the run a parsed results.json holds (the hub reads it from its store)', () => {
  it('reads a conformance document as report diff does', () => {
    const run = reportRunFromDocument(
      {
        kind: 'erpcert-conformance',
        schemaVersion: 3,
        run: {
          startedAt: '2026-01-01T00:00:00.000Z',
          profile: 'gate',
          only: null,
          target: { url: 'https://erp', embedded: false },
          exitCode: 1,
        },
        rules: [{ id: 'REST.VERSION.PATH', verdict: 'FAIL', reason: 'no /api/1/' }],
      },
      'run 7',
    );
    expect(run).toEqual({
      kind: 'conformance',
      schemaVersion: 3,
      startedAt: '2026-01-01T00:00:00.000Z',
      profile: 'gate',
      only: null,
      targetUrl: 'https://erp',
      embedded: false,
      exitCode: 1,
      rules: [{ id: 'REST.VERSION.PATH', verdict: 'FAIL', reason: 'no /api/1/' }],
    });
  });

  const refused: [string, unknown, RegExp][] = [
    ['an array', [], /run 7\/results\.json holds no JSON object/],
    ["another tool's document", { kind: 'other' }, /neither a conformance nor a load results document/],
    [
      'a conformance document of another version',
      { kind: 'erpcert-conformance', schemaVersion: 9 },
      /schema version 9/,
    ],
    [
      'a load document that fails its schema',
      { schema: LOAD_RESULTS_SCHEMA, scenarios: 'none' },
      /run 7\/results\.json does not match load-results\.schema\.json/,
    ],
  ];
  it.each(refused)('refuses %s, naming the run as shown', (_name, doc, message) => {
    expect(() => reportRunFromDocument(doc, 'run 7')).toThrow(ReportFolderError);
    expect(() => reportRunFromDocument(doc, 'run 7')).toThrow(message);
  });
});
