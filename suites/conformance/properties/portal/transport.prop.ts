// Transport (portal-action-api.md §1: "Most responses are XML." "The operations windowactions,
// activeeditfields, report and getreportfilters return JSON."): every answer parses as what it is. The harness
// judges every answer of every test (src/harness/target-fault.ts); this test makes sure both rules are observed
// in every run.
import { decodeBody, sniffFormat } from '@erpcert/client';
import { describe } from 'vitest';
import { accepted, expectRule, ruleTest, show } from '../../src/harness/index.js';
import { TRIGGER_REGISTERS } from '../../src/harness/portal.js';

function parsedOrWhy(text: string): string | undefined {
  try {
    decodeBody(text);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('portal transport', () => {
  // one test per format: a login answer that does not parse must not keep the JSON rule from being judged
  ruleTest('PORTAL.DISPATCH.XML_WELL_FORMED', 'login answers well-formed XML', async (ctx) => {
    const login = await accepted('PORTAL.LOGIN.ACTION', ctx.client.portal.login(), 'GET action=login');
    const xml = login.raw.text;
    // an answer in another format is another rule's business (PORTAL.DISPATCH.XML_SUCCESS)
    if (sniffFormat(xml) === 'xml') {
      const why = parsedOrWhy(xml);
      expectRule(why === undefined, 'PORTAL.DISPATCH.XML_WELL_FORMED', () => `login: ${why}: ${show(xml, 200)}`);
    }
  });

  ruleTest('PORTAL.DISPATCH.JSON_PARSES', 'a field trigger answers JSON that parses', async (ctx) => {
    const vcname = TRIGGER_REGISTERS[0];
    const answer = await accepted(
      'PORTAL.TRIGGER.NEW',
      ctx.client.portal.windowactions({}, { vcname, fieldname: '__new', rowindex: -1 }),
      `windowactions ${vcname} __new`,
    );
    const json = answer.raw.text;
    // an answer in another format is another rule's business (PORTAL.DISPATCH.JSON_OPERATIONS)
    if (sniffFormat(json) === 'json') {
      const why = parsedOrWhy(json);
      expectRule(why === undefined, 'PORTAL.DISPATCH.JSON_PARSES', () => `windowactions ${vcname}: ${why}`);
    }
  });
});
