/**
 * Mutants of one register's REST list envelope (issue 18 "Every member, every run"; record-rest-api.md §2
 * "Envelope (JSON)"): a deviation that shows in the answers of one register only, late in the register table,
 * so that a suite reading one random register per run catches it in some seeds only. Each breaks one rule.
 */
import type { Mutant, ProxyRequest } from './proxy.js';
import { isJson, restRegister, text, withText } from './wire.js';

const isListOf = (req: ProxyRequest, register: string) => req.method === 'GET' && restRegister(req) === register;

/** The envelope mutants of single registers. */
export function restEnvelopeMutants(): Mutant[] {
  return [
    {
      id: 'opvc-xml-envelope-sequence-empty',
      description: 'XML list answers of OPVc carry an empty data@sequence (every other register is right)',
      breaks: ['REST.ENVELOPE.SEQUENCE'],
      response: (req, res) => {
        if (!isListOf(req, 'OPVc') || isJson(res)) return res;
        const body = text(res);
        const out = body.replace(/(<data\b[^>]*?\ssequence=")\d+(")/, '$1$2');
        return out === body ? res : withText(res, out);
      },
    },
    {
      id: 'ipvc-json-records-not-objects',
      description: 'JSON list answers of IPVc give each record as its SerNr string instead of an object',
      breaks: ['REST.ENVELOPE.RECORDS_ARRAY'],
      response: (req, res) => {
        if (!isListOf(req, 'IPVc') || !isJson(res)) return res;
        let doc: { data?: Record<string, unknown> };
        try {
          doc = JSON.parse(text(res));
        } catch {
          return res;
        }
        const list = doc.data?.IPVc;
        if (!Array.isArray(list) || list.length === 0) return res;
        doc.data!.IPVc = list.map((r) => String((r as { SerNr?: unknown }).SerNr ?? ''));
        return withText(res, JSON.stringify(doc));
      },
    },
  ];
}
