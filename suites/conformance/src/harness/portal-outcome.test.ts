/** attempt(): a body the client cannot decode is blamed by path on the rule that owns the broken part (issue 18). */
import { DecodeError, ErpError, type Exchange } from '@erpcert/client';
import { closeXmlValidator } from '@erpcert/contract';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assertPortalXml,
  attempt,
  blameRefusedRegister,
  expectSuccess,
  type Outcome,
  XSD_SAMPLES_PER_TEST,
} from './portal-outcome.js';
import { ContractViolation } from './violation.js';

afterAll(() => closeXmlValidator());

const exchange = (query: string, text: string, truncated = false): Exchange => ({
  id: 1,
  api: 'portal',
  operation: 'op',
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 1,
  request: { method: 'GET', url: `http://127.0.0.1:1/WebErpAPI.hal?${query}`, headers: [] },
  response: {
    status: 200,
    statusText: 'OK',
    httpVersion: '1.1',
    headers: [],
    body: { mimeType: 'application/xml', text, size: text.length, ...(truncated ? { truncated } : {}) },
  },
});
const undecodable = (query: string, text: string, truncated = false) =>
  new DecodeError('no <res> element in <data>', {
    operation: 'op',
    status: 200,
    exchange: exchange(query, text, truncated),
  });

describe('attempt', () => {
  it('FAILs the owner of the missing part of an undecodable operation result', async () => {
    const err = await attempt(Promise.reject(undecodable('action=delete&register=IVVc&id=1', '<data/>'))).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ContractViolation);
    expect((err as ContractViolation).rule).toBe('PORTAL.DISPATCH.OPERATION_RESULT');
  });

  it('keeps the outcome when the body is valid, truncated, or of no documented XML kind', async () => {
    for (const [query, text, truncated] of [
      ['action=delete&register=IVVc&id=1', '<data><res errstr=""/></data>', false],
      ['action=delete&register=IVVc&id=1', '<data/>', true],
      ['action=action&register=getactivitydata', '<data/>', false],
    ] as const) {
      const o = await attempt(Promise.reject(undecodable(query, text, truncated)));
      expect(o.ok).toBe(false);
    }
  });
});

describe('expectSuccess blames a refused documented register on the rule that lists it', () => {
  const refusal = (query: string) =>
    new ErpError('errstr', [{ description: 'Register not supported' }], {
      operation: 'op',
      status: 200,
      exchange: exchange(query, '<data><res errstr="Register not supported"/></data>'),
    });
  const ruleOf = (query: string, rule: string) => {
    try {
      expectSuccess({ ok: false, error: refusal(query) }, rule, 'the call');
      return undefined;
    } catch (e) {
      return (e as ContractViolation).rule;
    }
  };
  it.each([
    ['action=delete&register=ORVc&id=1', 'PORTAL.DELETE.ACTION', 'PORTAL.DELETE.REGISTERS'],
    ['action=action&register=unokrecord&regname=ORVc&id=1', 'PORTAL.UNOK.TO_DRAFT', 'PORTAL.UNOK.REGISTERS'],
    ['register=CUVc&page=1', 'PORTAL.LIST.QUERY', 'PORTAL.LIST.REGISTERS'],
    // a register the docs do not list for the operation: the operation's own rule
    ['action=delete&register=CCatVc&id=1', 'PORTAL.DELETE.ACTION', 'PORTAL.DELETE.ACTION'],
    ['action=action&register=getcomments&regname=ActVc', 'PORTAL.ACTIVITY.GETCOMMENTS', 'PORTAL.ACTIVITY.GETCOMMENTS'],
  ])('%s, judged for %s, FAILs %s', (query, rule, want) => {
    expect(ruleOf(query, rule)).toBe(want);
  });
});

describe('blameRefusedRegister', () => {
  const refused = (query: string): Outcome<unknown> => ({
    ok: false,
    error: new ErpError('errstr', [{ description: 'no' }], {
      operation: 'op',
      status: 200,
      exchange: exchange(query, '<data><res errstr="no"/></data>'),
    }),
  });
  it('FAILs the rule that lists a refused register and lets any other outcome pass', () => {
    expect(() => blameRefusedRegister(refused('register=IVVc&page=1&perpage=100'), 'list IVVc')).toThrow(
      ContractViolation,
    );
    expect(() => blameRefusedRegister(refused('register=NoSuchVc&page=1'), 'list NoSuchVc')).not.toThrow();
    expect(() => blameRefusedRegister({ ok: true, value: 1 }, 'list IVVc')).not.toThrow();
  });
});

describe('assertPortalXml', () => {
  const good =
    '<data><attachment uuid="a3f1c2d4-1111-4222-8333-944445555666" filename="a.txt" size="1" date="2026-01-01"/></data>';
  const broken = '<data><attachment uuid="a3f1c2d4-1111-4222-8333-944445555666" size="1" date="2026-01-01"/></data>';
  const rule = 'PORTAL.ATTACH.LIST_SHAPE';

  it('validates the first bodies of a kind in a test, and leaves the later ones to the test', async () => {
    const ctx = { name: 'samples' };
    for (let i = 0; i < XSD_SAMPLES_PER_TEST; i++) await assertPortalXml(ctx, good, 'portal-attachments', rule);
    await expect(assertPortalXml(ctx, broken, 'portal-attachments', rule)).resolves.toBeUndefined();
  });

  it('once a body failed, every later body of the kind is validated (the replays of a shrinking run)', async () => {
    const ctx = { name: 'shrinking' };
    await assertPortalXml(ctx, good, 'portal-attachments', rule);
    await expect(assertPortalXml(ctx, broken, 'portal-attachments', rule)).rejects.toThrow(ContractViolation);
    for (let i = 0; i < 3; i++)
      await expect(assertPortalXml(ctx, broken, 'portal-attachments', rule)).rejects.toThrow(/filename/);
  });
});
