// Transport (record-rest-api.md §1: "Responses are XML by default or JSON when the request header Accept:
// application/json is sent."): every answer parses as what it is. The harness judges every answer of every
// test (src/harness/target-fault.ts); this test makes sure both rules are observed in every run.
import { decodeBody, sniffFormat } from '@erpcert/client';
import { describe } from 'vitest';
import { expectRule, ruleTest, show } from '../../src/harness/index.js';

/** The rule of a body that claims to be XML or JSON; undefined for anything else (another rule's business). */
function parseRule(text: string): string | undefined {
  const format = sniffFormat(text);
  return format === 'xml'
    ? 'REST.ENVELOPE.XML_WELL_FORMED'
    : format === 'json'
      ? 'REST.ENVELOPE.JSON_PARSES'
      : undefined;
}

describe('REST transport', () => {
  ruleTest(
    ['REST.ENVELOPE.XML_WELL_FORMED', 'REST.ENVELOPE.JSON_PARSES'],
    'the API root answers a body that parses, in XML and in JSON',
    async (ctx) => {
      for (const format of ['xml', 'json'] as const) {
        const root = await ctx.client.rest.root(format === 'json' ? { format: 'json' } : {});
        const text = root.raw.text;
        const rule = parseRule(text);
        if (rule === undefined) continue; // an empty root answer: nothing to parse
        let parsed: string | undefined;
        try {
          decodeBody(text);
        } catch (err) {
          parsed = (err as Error).message;
        }
        expectRule(parsed === undefined, rule, () => `GET /api/1/ (${format}): ${parsed}: ${show(text, 200)}`);
      }
    },
  );
});
