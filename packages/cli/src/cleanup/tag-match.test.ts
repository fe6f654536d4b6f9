import { describe, expect, it } from 'vitest';
import {
  FIXTURE_REGISTERS,
  hasFixturePrefix,
  type ScannedRecord,
  tagKind,
  tagPlaceOf,
  valueCarriesTag,
} from './tag-match.js';

const record = (
  register: string,
  key: string,
  fields: Record<string, string> = {},
  rows: Record<string, string>[] = [],
) => ({ register, key, sequence: 1, fields, rows }) satisfies ScannedRecord;

describe('tagKind', () => {
  it.each([
    ['EC4K2Q', 'conformance'],
    ['erpcert-load-1a2b3c4d', 'load'],
    ['ec4k2q', undefined],
    ['EC4K2', undefined],
    ['EC4K2QX', undefined],
    ['erpcert-load-1a2b3c4', undefined],
    ['erpcert-load-1A2B3C4D', undefined],
    ['k6-lx2k', undefined],
    ['', undefined],
  ])('%j -> %s', (tag, want) => {
    expect(tagKind(tag)).toBe(want);
  });
});

describe('valueCarriesTag', () => {
  it.each([
    // codes of the conformance harness: the tag and 7 upper-case letters or digits (uniqueCode)
    ['EC4K2Q7ZA0003', 'EC4K2Q', 'code', true],
    ['EC4K2Q7ZA0003L', 'EC4K2Q', 'code', true],
    ['EC4K2Q7ZA0003?3q5', 'EC4K2Q', 'code', true],
    ['EC4K2Q', 'EC4K2Q', 'code', false],
    ['EC4K2Q7ZA', 'EC4K2Q', 'code', false],
    ['ec4k2q7za0003', 'EC4K2Q', 'code', false],
    ['XEC4K2Q7ZA0003', 'EC4K2Q', 'code', false],
    ['EC4K2A7ZA0003', 'EC4K2Q', 'code', false],
    ['EC4K2Q7za0003', 'EC4K2Q', 'code', false],
    // load tags never sit in codes
    ['erpcert-load-1a2b3c4dAAAAAAA', 'erpcert-load-1a2b3c4d', 'code', false],
    // text: a whole word, or the word and -more
    ['EC4K2Q credit', 'EC4K2Q', 'text', true],
    ['EC4K2Q', 'EC4K2Q', 'text', true],
    ['model EC4K2Q 3', 'EC4K2Q', 'text', true],
    ['EC4K2Q1 credit', 'EC4K2Q', 'text', false],
    ['xEC4K2Q credit', 'EC4K2Q', 'text', false],
    ['ec4k2q credit', 'EC4K2Q', 'text', false],
    ['erpcert-load-1a2b3c4d-17', 'erpcert-load-1a2b3c4d', 'text', true],
    ['erpcert-load-1a2b3c4d-s2-4', 'erpcert-load-1a2b3c4d', 'text', true],
    ['erpcert load erpcert-load-1a2b3c4d', 'erpcert-load-1a2b3c4d', 'text', true],
    ['erpcert load erpcert-load-1a2b3c4d k3x9a', 'erpcert-load-1a2b3c4d', 'text', true],
    ['erpcert-load-1a2b3c4d9-1', 'erpcert-load-1a2b3c4d', 'text', false],
    ['erpcert-load-1a2b3c4', 'erpcert-load-1a2b3c4d', 'text', false],
    ['ERPCERT-LOAD-1A2B3C4D-1', 'erpcert-load-1a2b3c4d', 'text', false],
    ['xerpcert-load-1a2b3c4d-1', 'erpcert-load-1a2b3c4d', 'text', false],
    ['', 'EC4K2Q', 'text', false],
  ] as const)('%j carries %s as %s: %s', (value, tag, mode, want) => {
    expect(valueCarriesTag(value, tag, mode)).toBe(want);
  });
});

describe('tagPlaceOf: only the places runs write the tag count', () => {
  it.each([
    ['CUVc by its code', record('CUVc', 'EC4K2Q7ZA0003', { Name: 'x' }), 'key'],
    ['CUVc with the tag in Name only', record('CUVc', 'C0001', { Name: 'EC4K2Q url' }), undefined],
    ['IVVc by a row Spec', record('IVVc', '10000049', {}, [{ Spec: 'x' }, { Spec: 'EC4K2Q credit' }]), 'rows[].Spec'],
    ['IVVc with the tag in Addr0 only', record('IVVc', '10000050', { Addr0: 'EC4K2Q' }, [{ Spec: 'bolt' }]), undefined],
    ['VIVc by RefStr', record('VIVc', '10000015', { RefStr: 'EC4K2Q7ZA0003F' }), 'RefStr'],
    ['VIVc with a RefStr word', record('VIVc', '10000016', { RefStr: 'EC4K2Q credit' }), undefined],
    ['EPOrderDocVc by Comment', record('EPOrderDocVc', '10000003', { Comment: 'EC4K2Q posttext' }), 'Comment'],
    ['TRVc by a row Comment', record('TRVc', '2026/7', {}, [{ Comment: 'EC4K2Q x' }]), 'rows[].Comment'],
    ['QTVc: no place but the key', record('QTVc', '10000006', { Spec: 'EC4K2Q credit' }), undefined],
    ['composite key part', record('PLVc', 'P1/EC4K2Q7ZA0003'), 'key'],
  ])('%s', (_name, r, want) => {
    expect(tagPlaceOf(r, 'EC4K2Q')).toBe(want);
  });
});

describe('fixture prefix', () => {
  it.each([
    ['ERPCERT-FX-ITEM-01', true],
    ['ERPCERT-FX-', true],
    ['ERPCERT-FX', false],
    ['erpcert-fx-item-01', false],
    ['X-ERPCERT-FX-ITEM', false],
    ['ERPCERT-FXITEM', false],
  ])('%s: %s', (code, want) => {
    expect(hasFixturePrefix({ key: code }, 'ERPCERT-FX-')).toBe(want);
  });

  it('searches the writable registers keyed by one code, not documents or read-only ones', () => {
    expect(FIXTURE_REGISTERS).toContain('INVc');
    expect(FIXTURE_REGISTERS).toContain('CUVc');
    expect(FIXTURE_REGISTERS).toContain('AccVc');
    for (const r of ['IVVc', 'TRVc', 'ItemStatusVc', 'PLVc', 'ARPayVc']) expect(FIXTURE_REGISTERS).not.toContain(r);
  });
});
