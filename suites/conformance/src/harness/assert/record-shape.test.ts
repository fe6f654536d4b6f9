import { describe, expect, it } from 'vitest';
import type { AnyRecord } from '../records.js';
import { ContractViolation } from '../violation.js';
import { assertRecordShape } from './record-shape.js';

/** The record with `over` applied; an undefined value removes the member (JSON has no undefined). */
const drop = (r: Record<string, unknown>): AnyRecord =>
  Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
const cu = (over: Record<string, unknown> = {}): AnyRecord =>
  drop({
    '@register': 'CUVc',
    '@sequence': '5',
    '@url': '/api/1/CUVc/C%201',
    Code: 'C 1',
    Name: 'N',
    UUID: 'u',
    ServerSequence: '5',
    SyncFlags: '0',
    rows: [],
    ...over,
  });
const tr = (over: Record<string, unknown> = {}): AnyRecord => ({
  '@register': 'TRVc',
  '@sequence': '5',
  '@url': '/api/1/TRVc/2024/7',
  IntYc: '2024',
  Number: '7',
  rows: [
    { '@rownumber': '0', stp: '1' },
    { '@rownumber': '1', stp: '1' },
  ],
  ...over,
});

function ruleOf(f: () => void): string | undefined {
  try {
    f();
    return undefined;
  } catch (err) {
    if (err instanceof ContractViolation) return err.rule;
    throw err;
  }
}

describe('assertRecordShape', () => {
  it.each([
    ['a good CUVc record', 'CUVc', cu(), {}, undefined],
    ['a good composite-key TRVc record', 'TRVc', tr(), {}, undefined],
    [
      'an empty key part',
      'ItemStatusVc',
      {
        '@register': 'ItemStatusVc',
        '@sequence': '1',
        '@url': '/api/1/ItemStatusVc/A1/',
        Code: 'A1',
        Location: '',
        Instock: '1',
        OrddOut: '0',
        POQty: '0',
        RsrvQty: '0',
        rows: [],
      },
      {},
      undefined,
    ],
    ['no @sequence', 'CUVc', cu({ '@sequence': undefined }), {}, 'REST.RECORD.META_FIELDS'],
    ['another @register', 'CUVc', cu({ '@register': 'INVc' }), {}, 'REST.RECORD.META_FIELDS'],
    ['@url of another register', 'CUVc', cu({ '@url': '/api/1/INVc/C%201' }), {}, 'REST.RECORD.URL_FORMAT'],
    ['a raw space in @url', 'CUVc', cu({ '@url': '/api/1/CUVc/C 1' }), {}, 'REST.RECORD.URL_FORMAT'],
    ['@url of another key', 'CUVc', cu({ '@url': '/api/1/CUVc/C2' }), {}, 'REST.RECORD.URL_KEY_MATCHES'],
    [
      'composite key parts not joined',
      'TRVc',
      tr({ '@url': '/api/1/TRVc/2024-7' }),
      {},
      'REST.RECORD.URL_COMPOSITE_KEY',
    ],
    ['a number value', 'CUVc', cu({ Name: 5 }), {}, 'REST.RECORD.STRING_VALUES'],
    ['a null value', 'CUVc', cu({ Name: null }), {}, 'REST.RECORD.EMPTY_STRING'],
    // the @ members are no fields: a number there is the rule's that owns the member, not STRING_VALUES's
    ['@url a number', 'CUVc', cu({ '@url': 7 }), {}, 'REST.RECORD.URL_FORMAT'],
    ['@rownumber a number', 'TRVc', tr({ rows: [{ '@rownumber': 0, stp: '1' }] }), {}, 'REST.RECORD.ROWNUMBER'],
    ['a number in a row', 'TRVc', tr({ rows: [{ '@rownumber': '0', DebVal: 1 }] }), {}, 'REST.RECORD.STRING_VALUES'],
    ['rows from 1', 'TRVc', tr({ rows: [{ '@rownumber': '1' }] }), {}, 'REST.RECORD.ROWNUMBER'],
    ['rows not an array', 'TRVc', tr({ rows: {} }), {}, 'REST.RECORD.ROWS_ARRAY'],
    [
      'no rows on a register without lines',
      'CUVc',
      cu({ rows: undefined }),
      {},
      'REST.RECORD.ROWS_EMPTY_WITHOUT_LINES',
    ],
    ['no rows, but fields were named', 'CUVc', cu({ rows: undefined }), { projected: true }, undefined],
    [
      'lines on a register without lines',
      'CUVc',
      cu({ rows: [{ '@rownumber': '0' }] }),
      {},
      'REST.RECORD.ROWS_EMPTY_WITHOUT_LINES',
    ],
    ['a base register without UUID', 'CUVc', cu({ UUID: undefined }), { base: true }, 'REST.RECORD.BASE_SYNC_FIELDS'],
    ['a register not known to be base, without UUID', 'CUVc', cu({ UUID: undefined }), {}, undefined],
    ['OKFlag 0 (draft)', 'CUVc', cu({ OKFlag: '0' }), {}, undefined],
    ['OKFlag 1 (confirmed)', 'CUVc', cu({ OKFlag: '1' }), {}, undefined],
    ['no OKFlag (not carried: nothing to judge)', 'CUVc', cu({ OKFlag: undefined }), {}, undefined],
    // §3: 0 draft, 1 confirmed; the XSD (Flag01) and the JSON enum refuse an empty one just the same
    ['an empty OKFlag', 'CUVc', cu({ OKFlag: '' }), {}, 'REST.STATE.OKFLAG_VALUES'],
    ['OKFlag 2', 'CUVc', cu({ OKFlag: '2' }), {}, 'REST.STATE.OKFLAG_VALUES'],
  ])('%s', (_label, register, record, opts, rule) => {
    expect(ruleOf(() => assertRecordShape(register, record as AnyRecord, opts))).toBe(rule);
  });
});

describe('assertRecordShape: field modes', () => {
  const main = ['Code', 'Location', 'Instock', 'OrddOut', 'POQty', 'RsrvQty'];
  const stock = (fields: Record<string, string>) =>
    ({
      '@register': 'ItemStatusVc',
      '@sequence': '1',
      '@url': '/api/1/ItemStatusVc/A1/L',
      rows: [],
      ...fields,
    }) as AnyRecord;
  it.each([
    [
      'all fields, empty ones as ""',
      { ...Object.fromEntries(main.map((f) => [f, '1'])), Code: 'A1', Location: 'L', RsrvQty: '' },
      undefined,
    ],
    ['only non-empty fields', { Code: 'A1', Location: 'L', Instock: '3' }, undefined],
    ['an empty field but main fields missing', { Code: 'A1', Location: 'L', Instock: '' }, 'REST.RECORD.FIELD_MODES'],
  ])('%s', (_label, fields, rule) => {
    expect(ruleOf(() => assertRecordShape('ItemStatusVc', stock(fields)))).toBe(rule);
  });
});
