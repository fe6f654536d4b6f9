import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRule } from '@erpcert/contract';
import { afterAll, describe, expect, it } from 'vitest';
import {
  KnownDeviationsError,
  mergeKnownDeviations,
  parseKnownDeviations,
  pruneKnownDeviations,
  readKnownDeviations,
  writeKnownDeviations,
} from './known-deviations-file.js';

const isRule = (id: string) => getRule(id) !== undefined;
const parse = (text: string) => parseKnownDeviations(text, 'baseline.yaml', isRule);
const errorOf = (text: string) => {
  try {
    parse(text);
  } catch (err) {
    if (err instanceof KnownDeviationsError) return err.message;
    throw err;
  }
  return 'no error';
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('parseKnownDeviations', () => {
  it('reads every field of every entry, with its line', () => {
    const file = parse(
      [
        '# accepted for now',
        'accepted:',
        '  - rule: REST.QUERY.FILTER_AND',
        '    reason: ORs the filters; vendor fix in 9.1',
        '    expires: 2027-03-31',
        '    ticket: https://tracker.example.com/ERP-12',
        '  - rule: REST.QUERY.LIMIT',
        '    reason: ""',
      ].join('\n'),
    );
    expect(file.entries).toEqual([
      {
        rule: 'REST.QUERY.FILTER_AND',
        reason: 'ORs the filters; vendor fix in 9.1',
        expires: '2027-03-31',
        ticket: 'https://tracker.example.com/ERP-12',
        line: 3,
      },
      { rule: 'REST.QUERY.LIMIT', reason: '', expires: null, ticket: null, line: 7 },
    ]);
  });

  it.each([
    ['an empty file', ''],
    ['only comments', '# nothing accepted yet\n'],
    ['an empty list', 'accepted: []\n'],
    ['a key without a list', 'accepted:\n'],
  ])('%s accepts nothing', (_name, text) => {
    expect(parse(text).entries).toEqual([]);
  });

  it.each([
    [
      'YAML that does not parse',
      'accepted:\n  - rule: REST.QUERY.LIMIT\n    reason: "open\n',
      /^baseline\.yaml:\d+: not valid YAML/,
    ],
    ['a list at the top', '- rule: REST.QUERY.LIMIT\n', /^baseline\.yaml:1: expected a mapping/],
    ['an unknown top-level key', 'accepted: []\nacepted: []\n', /^baseline\.yaml:2: unknown key "acepted"/],
    ['accepted not a list', 'accepted:\n  rule: REST.QUERY.LIMIT\n', /^baseline\.yaml:2: "accepted" must be a list/],
    ['an entry that is text', 'accepted:\n  - REST.QUERY.LIMIT\n', /^baseline\.yaml:2: an entry must be a mapping/],
    [
      'a misspelt key',
      'accepted:\n  - rule: REST.QUERY.LIMIT\n    reson: slow\n',
      /^baseline\.yaml:3: unknown key "reson"/,
    ],
    ['no rule', 'accepted:\n  - reason: slow\n', /^baseline\.yaml:2: an entry needs "rule"/],
    [
      'an unknown rule id',
      'accepted:\n  - rule: REST.QUERY.LIMIT\n  - rule: REST.QUERY.NO_SUCH_RULE\n',
      /^baseline\.yaml:3: unknown rule id REST\.QUERY\.NO_SUCH_RULE/,
    ],
    [
      'a glob instead of an id',
      'accepted:\n  - rule: REST.QUERY.*\n',
      /^baseline\.yaml:2: unknown rule id REST\.QUERY\.\*/,
    ],
    [
      'a rule listed twice',
      'accepted:\n  - rule: REST.QUERY.LIMIT\n  - rule: REST.QUERY.LIMIT\n',
      /^baseline\.yaml:3: REST\.QUERY\.LIMIT is listed twice \(first on line 2\)/,
    ],
    [
      'an expiry that is no day',
      'accepted:\n  - rule: REST.QUERY.LIMIT\n    expires: 2027-02-30\n',
      /^baseline\.yaml:2: "expires" of REST\.QUERY\.LIMIT must be a day YYYY-MM-DD/,
    ],
    [
      'a reason that is a list',
      'accepted:\n  - rule: REST.QUERY.LIMIT\n    reason: [a, b]\n',
      /^baseline\.yaml:3: "reason" must be a single value/,
    ],
  ])('%s is an error naming its line', (_name, text, message) => {
    expect(errorOf(text)).toMatch(message);
  });

  it('a missing file says how to write one', () => {
    expect(() => readKnownDeviations('/nonexistent/erpcert/b.yaml', 'b.yaml', isRule)).toThrow(
      /^b\.yaml: no such file \(--write-baseline FILE writes one\)/,
    );
  });
});

describe('mergeKnownDeviations (--write-baseline)', () => {
  it('a new file: a header and one entry with an empty reason per rule, sorted, that parses back', () => {
    const { text, added } = mergeKnownDeviations(undefined, ['REST.QUERY.LIMIT', 'REST.QUERY.FILTER_AND']);
    expect(added).toEqual(['REST.QUERY.FILTER_AND', 'REST.QUERY.LIMIT']);
    expect(text.startsWith('#')).toBe(true);
    // block style, one entry per block: the file is for people to fill in
    expect(text).toContain('accepted:\n  - rule: REST.QUERY.FILTER_AND\n    reason: ""\n  - rule: REST.QUERY.LIMIT\n');
    expect(parse(text).entries.map((e) => [e.rule, e.reason])).toEqual([
      ['REST.QUERY.FILTER_AND', ''],
      ['REST.QUERY.LIMIT', ''],
    ]);
  });

  it('never overwrites what is written: reasons, expiry, tickets and comments stay; listed rules are not added again', () => {
    const existing = [
      '# our ERP 8.2 staging server',
      'accepted:',
      '  # vendor knows',
      '  - rule: REST.QUERY.FILTER_AND',
      '    reason: ORs the filters',
      '    expires: 2027-03-31',
      '    ticket: ERP-12',
      '',
    ].join('\n');
    const { text, added } = mergeKnownDeviations(existing, ['REST.QUERY.FILTER_AND', 'REST.QUERY.LIMIT']);
    expect(added).toEqual(['REST.QUERY.LIMIT']);
    expect(text).toContain('# our ERP 8.2 staging server');
    expect(text).toContain('# vendor knows');
    expect(parse(text).entries.map((e) => [e.rule, e.reason, e.expires, e.ticket])).toEqual([
      ['REST.QUERY.FILTER_AND', 'ORs the filters', '2027-03-31', 'ERP-12'],
      ['REST.QUERY.LIMIT', '', null, null],
    ]);
  });

  it('writeKnownDeviations reads the file it merges into', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-kd-'));
    dirs.push(dir);
    const path = join(dir, 'baseline.yaml');
    writeFileSync(path, 'accepted:\n  - rule: REST.QUERY.LIMIT\n    reason: no data\n');
    expect(writeKnownDeviations(path, ['REST.QUERY.FILTER_AND'])).toEqual(['REST.QUERY.FILTER_AND']);
    expect(writeKnownDeviations(path, ['REST.QUERY.FILTER_AND'])).toEqual([]);
    expect(parse(readFileSync(path, 'utf8')).entries.map((e) => [e.rule, e.reason])).toEqual([
      ['REST.QUERY.LIMIT', 'no data'],
      ['REST.QUERY.FILTER_AND', ''],
    ]);
  });
});

describe('pruneKnownDeviations (--prune-baseline)', () => {
  const existing = [
    '# our ERP 8.2 staging server',
    'accepted:',
    '  # vendor knows',
    '  - rule: REST.QUERY.FILTER_AND',
    '    reason: ORs the filters',
    '    ticket: ERP-12',
    '  - rule: REST.QUERY.LIMIT',
    '    reason: ignores limit',
    '  - rule: REST.SEQ.HEADER',
    '    reason: no header',
    '    expires: 2027-03-31',
    '',
  ].join('\n');

  it('removes only the entries of the given rules; the others, their fields and the comments stay', () => {
    const { text, removed } = pruneKnownDeviations(existing, ['REST.QUERY.LIMIT', 'REST.QUERY.SORT_ASCENDING']);
    expect(removed).toEqual(['REST.QUERY.LIMIT']);
    expect(text).toContain('# our ERP 8.2 staging server');
    expect(text).toContain('# vendor knows');
    expect(text).not.toContain('ignores limit');
    expect(parse(text).entries.map((e) => [e.rule, e.reason, e.expires, e.ticket])).toEqual([
      ['REST.QUERY.FILTER_AND', 'ORs the filters', null, 'ERP-12'],
      ['REST.SEQ.HEADER', 'no header', '2027-03-31', null],
    ]);
  });

  it('a rule the file does not list changes nothing, byte for byte', () => {
    expect(pruneKnownDeviations(existing, ['REST.QUERY.SORT_ASCENDING'])).toEqual({ text: existing, removed: [] });
  });
});
