import { getRegister } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { bodyViolations, registerRead, validPages } from './register-pages.js';
import type { RuleContext } from './rule-test.js';

const sdvc = { '@register': 'SDVc', '@sequence': '3', '@url': '/api/1/SDVc/1', SerNr: '1', OKFlag: '1', rows: [] };
const envelope = (register: string, records: unknown[]) => ({
  data: { '@register': register, '@sequence': '12', '@systemversion': '1.0', [register]: records },
});

/** A context whose client answers each list of a register in JSON with `json` and in XML with `xml`. */
function ctxOf(json: unknown, xml: string): RuleContext {
  const list = async (_register: string, _query: unknown, { format }: { format: 'xml' | 'json' }) => {
    const text = format === 'json' ? JSON.stringify(json) : xml;
    const data = (json as { data?: { SDVc?: unknown[] } } | null)?.data;
    return {
      format,
      records: Array.isArray(data?.SDVc) ? data.SDVc : [],
      sequence: '12',
      hasEnvelope: true,
      raw: { status: 200, text },
    };
  };
  return { client: { rest: { list } } } as unknown as RuleContext;
}

const xmlPage = (sequence: string) =>
  `<data register="SDVc" sequence="${sequence}" systemversion="1.0"><SDVc register="SDVc" sequence="3" url="/api/1/SDVc/1"><SerNr>1</SerNr><OKFlag>1</OKFlag></SDVc></data>`;

describe('registerRead: a page of a register in both formats, every body validated', () => {
  // each case its own register entry: reads are cached per worker by register name
  const def = getRegister('SDVc')!;

  it('keeps valid pages, and an invalid body as the violation of the rule that owns the broken part', async () => {
    const read = await registerRead(ctxOf(envelope('SDVc', [sdvc]), xmlPage('')), def);
    expect(read.pages.map((p) => [p.format, p.invalid?.rule])).toEqual([
      ['json', undefined],
      ['xml', 'REST.ENVELOPE.SEQUENCE'],
    ]);
    expect(validPages([read]).map((p) => p.format)).toEqual(['json']);
    expect(bodyViolations([read]).map((v) => v.rule)).toEqual(['REST.ENVELOPE.SEQUENCE']);
    // read once per worker: the same answer for the next caller, with no new request
    expect(await registerRead(ctxOf(null, ''), def)).toBe(read);
  });

  it('a first read with data null is a broken envelope, not a register without records', async () => {
    const read = await registerRead(ctxOf({ data: null }, xmlPage('12')), getRegister('ExpVc')!);
    expect(read.skip).toBeUndefined();
    expect(read.broken?.rule).toBe('REST.QUERY.LIST_RECORDS');
    expect(bodyViolations([read]).map((v) => v.rule)).toEqual(['REST.QUERY.LIST_RECORDS']);
  });

  it('a valid empty register is skipped with the reason', async () => {
    const read = await registerRead(ctxOf(envelope('GCVc', []), ''), getRegister('GCVc')!);
    expect(read.skip).toBe('the target has no GCVc records');
    expect(bodyViolations([read])).toEqual([]);
  });
});
