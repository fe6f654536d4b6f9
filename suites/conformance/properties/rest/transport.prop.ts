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
  // one test per format: an XML answer that does not parse must not keep the JSON rule from being judged
  for (const [format, tag] of [
    ['xml', 'REST.ENVELOPE.XML_WELL_FORMED'],
    ['json', 'REST.ENVELOPE.JSON_PARSES'],
  ] as const) {
    ruleTest(tag, `the API root answers ${format.toUpperCase()} that parses`, async (ctx) => {
      const root = await ctx.client.rest.root(format === 'json' ? { format: 'json' } : {});
      const text = root.raw.text;
      const rule = parseRule(text);
      if (rule === undefined) return; // an empty root answer: nothing to parse
      let parsed: string | undefined;
      try {
        decodeBody(text);
      } catch (err) {
        parsed = (err as Error).message;
      }
      expectRule(parsed === undefined, rule, () => `GET /api/1/ (${format}): ${parsed}: ${show(text, 200)}`);
    });
  }
});
