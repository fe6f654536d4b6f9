import { describe, expect, it } from 'vitest';
import { companiesDiffer, ONE_COMPANY, twoCompanies } from './companies.js';
import type { AnyRecord } from './records.js';

const item = (Code: string, Name: string, url = `/api/1/INVc/${Code}`): AnyRecord => ({ '@url': url, Code, Name });
const byCode = (r: AnyRecord) => String(r.Code);

describe('companiesDiffer', () => {
  it.each([
    ['the same records (a server that ignores the company)', [item('A1', 'Chair')], [item('A1', 'Chair')], false],
    ['the same records under other URLs', [item('A1', 'Chair')], [item('A1', 'Chair', '/api/2/INVc/A1')], false],
    ['a common key with another name', [item('A1', 'Chair'), item('A2', 'Desk')], [item('A1', 'Beta Chair')], true],
    ['no common key', [item('A1', 'Chair')], [item('B1', 'Chair')], true],
    ['one company empty', [item('A1', 'Chair')], [], true],
    ['both empty', [], [], false],
    [
      'records only one page holds (written between the reads) do not count',
      [item('A1', 'Chair')],
      [item('A1', 'Chair'), item('X9', 'new')],
      false,
    ],
  ])('%s', (_name, a, b, want) => {
    expect(companiesDiffer(a, b, byCode)).toBe(want);
  });
});

describe('twoCompanies', () => {
  const skip = (reason: string): never => {
    throw new Error(`skip: ${reason}`);
  };
  const ctx = (compcode?: number, otherCompcode?: number) =>
    ({ target: { compcode, otherCompcode }, skip }) as unknown as Parameters<typeof twoCompanies>[0];

  it('gives both companies', () => {
    expect(twoCompanies(ctx(1, 2))).toEqual({ company: 1, other: 2 });
  });

  it('skips with the reason without a second company, or without the run company', () => {
    expect(() => twoCompanies(ctx(1))).toThrow(`skip: ${ONE_COMPANY}`);
    expect(() => twoCompanies(ctx(undefined, 2))).toThrow(/without --compcode/);
  });
});
