import type { RestEnvelope } from '@erpcert/client';
import { describe, expect, it } from 'vitest';
import { ContractViolation } from '../violation.js';
import { assertSameRecords, recordDifference } from './same-records.js';

const env = (records: Record<string, unknown>[]) => ({ records }) as unknown as RestEnvelope<string>;
const r = { '@url': '/api/1/TRVc/2024/1', DSum: '1.00', rows: [{ '@rownumber': '0', AccNumber: '1000' }] };

describe('assertSameRecords', () => {
  it('passes on equal records whatever the member order', () => {
    expect(() =>
      assertSameRecords('TRVc', env([r]), env([{ rows: r.rows, DSum: '1.00', '@url': r['@url'] }])),
    ).not.toThrow();
  });

  it.each([
    ['a number instead of a string', [{ ...r, DSum: 1 }], 'DSum: XML "1.00" vs JSON 1'],
    ['a missing row field', [{ ...r, rows: [{ '@rownumber': '0' }] }], 'rows:'],
    ['a record less', [], 'XML holds 1 records, JSON 0'],
  ])('fails on %s', (_label, json, text) => {
    expect(() => assertSameRecords('TRVc', env([r]), env(json))).toThrow(ContractViolation);
    expect(() => assertSameRecords('TRVc', env([r]), env(json))).toThrow(text);
  });

  it('recordDifference names the first differing member', () => {
    expect(recordDifference({ a: '1', b: '2' }, { a: '1', b: '3' })).toBe('b: XML "2" vs JSON "3"');
    expect(recordDifference({ a: '1' }, { a: '1' })).toBeUndefined();
  });
});
