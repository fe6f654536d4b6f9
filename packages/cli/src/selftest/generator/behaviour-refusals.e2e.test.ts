/**
 * Refusals of accepted requests over the whole behaviour family (issue 28, README "Behaviour mutants"), each
 * against its server through the self-test engine: a refusal is a FAIL of the rule that allows the request, and
 * of no other.
 * - createsigningactivity refused for every register FAILs PORTAL.SIGN.REGISTERS (a refusal is an operation
 *   result, so CREATESIGNINGACTIVITY holds);
 * - every JSON POST refused FAILs REST.WRITE.CREATE_JSON (a JSON POST carrying every main field of a contact the
 *   target holds was refused too), not an ERROR of each test that posts JSON;
 * - a JSON purchase invoice with VATVal refused FAILs REST.WRITE.PURCHASE_INVOICE_VAT (the same invoice without
 *   PayVal and VATVal is accepted);
 * - getfile answered with an errstr FAILs PORTAL.ATTACH.REGISTERS, not UPLOAD_UUID;
 * - a conversion refused FAILs its own rule, never CONVERT.NEWDATA_EXISTS (the model test converts too);
 * and a server that wants more values in a JSON POST than Code and Name (which the docs leave open, §4 rule 2)
 * FAILs nothing: its refusals stay what they were.
 */
import { describe, expect, it } from 'vitest';
import type { MutantOutcome } from '../detection.js';
import { restRefusal } from '../mutants-refusals.js';
import type { Mutant } from '../proxy.js';
import { runSelfTest } from '../run-selftest.js';
import { restRegister } from '../wire.js';
import { behaviourMutants } from './behaviour-mutants.js';

const MUTANTS = {
  sign: ['behaviour:accepted-refused:PORTAL.SIGN.REGISTERS:createsigningactivity', 'PORTAL.SIGN.REGISTERS'],
  json: ['behaviour:accepted-refused:REST.WRITE.CREATE_JSON:create-json', 'REST.WRITE.CREATE_JSON'],
  vat: ['behaviour:accepted-refused:REST.WRITE.PURCHASE_INVOICE_VAT:create-json', 'REST.WRITE.PURCHASE_INVOICE_VAT'],
  getfile: ['behaviour:accepted-refused:PORTAL.ATTACH.REGISTERS:getfile', 'PORTAL.ATTACH.REGISTERS'],
  convert: [
    'behaviour:accepted-refused:PORTAL.CONVERT.QUOTATION_TO_ORDER:createsalesorderfromquotation',
    'PORTAL.CONVERT.QUOTATION_TO_ORDER',
  ],
} as const;

/**
 * Refuses a JSON POST of contacts that carry two values or fewer each: it wants more than Code and Name. Marked as
 * generated so that the engine runs this object (a hand-written mutant is looked up again by id in its list).
 */
const wantsMoreValues: Mutant & { family: 'behaviour' } = {
  family: 'behaviour',
  id: 'json-wants-more-than-code-and-name',
  description: 'a JSON POST of CUVc records with two values or fewer each is refused: HTTP 400 "2001 value required"',
  breaks: [],
  harmless: true,
  select: 'REST.WRITE.*',
  request: (req) => {
    if (req.method !== 'POST' || restRegister(req) !== 'CUVc') return req;
    if (!/json/i.test(String(req.headers['content-type'] ?? ''))) return req;
    try {
      const doc = JSON.parse(req.body.toString('utf8')) as { data?: { CUVc?: Record<string, unknown>[] } };
      const records = doc.data?.CUVc ?? [];
      const few = records.every((r) => Object.keys(r).filter((k) => !k.startsWith('@')).length <= 2);
      return records.length > 0 && few ? restRefusal(req, '2001', 'value required') : req;
    } catch {
      return req;
    }
  },
};

describe('refusals of accepted requests, each against its server', () => {
  it('FAILs the rule that allows the refused request and no other; an open acceptance FAILs nothing', async () => {
    const byId = new Map(behaviourMutants().map((m) => [m.id, m]));
    const report = await runSelfTest({
      only: [],
      mutants: [...Object.values(MUTANTS).map(([id]) => byId.get(id)!), wantsMoreValues],
      seeds: [3],
      lanes: 2,
      progress: () => {},
    });
    const outcome = (id: string) => report.mutants.find((m) => m.id === id) as MutantOutcome;
    for (const [id, rule] of Object.values(MUTANTS)) {
      expect(outcome(id).runs[0]!.failed, id).toEqual([rule]);
      expect(outcome(id).caught, id).toBe(true);
      expect(outcome(id).precise, id).toBe(true);
    }
    // its Code-and-Name POSTs refused (the proxy refused some), the JSON POST of every main field accepted: no
    // FAIL of CREATE_JSON nor of any other rule
    expect(outcome(wantsMoreValues.id).runs[0]!.failed).toEqual([]);
    expect(outcome(wantsMoreValues.id).runs[0]!.proxyHits.requests).toBeGreaterThan(0);
    expect(report.baseline.clean).toBe(true);
  }, 1_500_000);
});
