/** Blame by path (issue 18): a whole-body schema failure FAILs the rule that owns the failing part. */
import { closeXmlValidator } from '@erpcert/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { ContractViolation } from '../violation.js';
import { assertJsonValid, assertXmlValid } from './schemas.js';

afterAll(() => closeXmlValidator());

const list =
  '<data count="2" page="1" perpage="20" totalpages="1"><IVVc><SerNr>1</SerNr><InvDate>2026-01-05</InvDate><CustCode>C1</CustCode><Sum4>1.00</Sum4></IVVc><IVVc><SerNr>2</SerNr><InvDate>2026-01-06</InvDate><CustCode>C2</CustCode><Sum4>2.00</Sum4></IVVc></data>';

async function ruleOfXml(body: string): Promise<string | undefined> {
  try {
    await assertXmlValid(body, 'portal-list', 'PORTAL.LIST.PAGED_SHAPE');
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(ContractViolation);
    return (e as ContractViolation).rule;
  }
}

function ruleOfJson(value: unknown): string | undefined {
  try {
    assertJsonValid(value, { schema: 'IVVcEnvelope' }, 'REST.QUERY.LIST_RECORDS');
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(ContractViolation);
    return (e as ContractViolation).rule;
  }
}

describe('assertXmlValid blames by path', () => {
  it('passes a valid paged list', async () => expect(await ruleOfXml(list)).toBeUndefined());
  it('FAILs PORTAL.LIST.IVVC_FIELDS, not the paged shape, for an IVVc record without Sum4', async () =>
    expect(await ruleOfXml(list.replace('<Sum4>2.00</Sum4>', ''))).toBe('PORTAL.LIST.IVVC_FIELDS'));
  it('FAILs the paged shape for a failure of <data> itself', async () =>
    expect(await ruleOfXml(list.replace(' totalpages="1"', ''))).toBe('PORTAL.LIST.PAGED_SHAPE'));
});

describe('assertJsonValid blames by path', () => {
  const envelope = (over: Record<string, unknown> = {}, record: Record<string, unknown> = {}) => ({
    data: {
      '@register': 'IVVc',
      '@sequence': '5',
      '@systemversion': '1',
      IVVc: [{ '@register': 'IVVc', '@sequence': '4', '@url': '/api/1/IVVc/1', SerNr: '1', ...record }],
      ...over,
    },
  });
  it.each([
    ['a valid envelope', envelope(), undefined],
    ['a wrong @register', envelope({ '@register': 'CUVc' }), 'REST.ENVELOPE.REGISTER'],
    ['a record @url of null', envelope({}, { '@url': null }), 'REST.RECORD.URL_FORMAT'],
    ['a field of null', envelope({}, { InvDate: null }), 'REST.RECORD.EMPTY_STRING'],
    ['a field that is a number', envelope({}, { InvDate: 20260105 }), 'REST.RECORD.STRING_VALUES'],
    ['no data at all', { other: 1 }, 'REST.QUERY.LIST_RECORDS'],
  ] as const)('%s', (_name, value, want) => expect(ruleOfJson(value)).toBe(want));
});
