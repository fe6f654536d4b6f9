import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverIndex } from './body-paths.js';
import { documentedPaths, isDocumentedIn, requiredChildrenOf } from './documented-paths.js';
import { validateJsonBody } from './json-schema.js';
import { rules } from './rules.js';
import { blameSchemaFailure, jsonFailingPaths, xmlFailingPaths } from './schema-blame.js';
import { loadSpec } from './specs.js';
import { closeXmlValidator, validateXml } from './xsd.js';
import type { XmlBodyKind } from './xsd-kinds.js';

const fixture = (name: string) => readFileSync(join(__dirname, '..', 'test', 'fixtures', 'xml', name), 'utf8');
const index = coverIndex(rules);
const paths = documentedPaths(
  (['record-rest', 'portal-action'] as const).map((name) => ({ name, doc: loadSpec(name) })),
);
const required = requiredChildrenOf(paths);
const documented = isDocumentedIn(paths);
afterAll(() => closeXmlValidator());

async function blameXml(body: string, kind: XmlBodyKind, container: string) {
  const result = await validateXml(body, kind);
  expect(result.valid, 'the mutated body must be invalid').toBe(false);
  return blameSchemaFailure(index, xmlFailingPaths(body, kind, result.errors, required, documented), container);
}

describe('blame of an XML schema failure by path', () => {
  const list = fixture('portal-list.xml');
  const envelope = fixture('rest-envelope.xml');
  it.each([
    [
      'an IVVc list record without Sum4',
      list.replace('<Sum4>24.40</Sum4>', ''),
      'portal-list',
      'PORTAL.LIST.IVVC_FIELDS',
    ],
    [
      'an IVVc list record with Sum4 renamed',
      list.replace('<Sum4>24.40</Sum4>', '<Sum5>24.40</Sum5>'),
      'portal-list',
      'PORTAL.LIST.IVVC_FIELDS',
    ],
    ['a list without count', list.replace(' count="42"', ''), 'portal-list', 'PORTAL.LIST.PAGED_SHAPE'],
    [
      'a list with a count that is no number',
      list.replace('count="42"', 'count="many"'),
      'portal-list',
      'PORTAL.LIST.PAGED_SHAPE',
    ],
    [
      'a REST record with a wrong register',
      envelope.replace('<IVVc register="IVVc" sequence="1230"', '<IVVc register="CUVc" sequence="1230"'),
      'rest-envelope',
      'REST.RECORD.META_FIELDS',
    ],
    [
      'a REST record without url',
      envelope.replace(' url="/api/1/IVVc/100001"', ''),
      'rest-envelope',
      'REST.RECORD.META_FIELDS',
    ],
    [
      'a REST record with a bad url',
      envelope.replace('url="/api/1/IVVc/100001"', 'url="IVVc-100001"'),
      'rest-envelope',
      'REST.RECORD.URL_FORMAT',
    ],
    [
      'an envelope with a sequence that is no integer',
      envelope.replace('sequence="1234"', 'sequence="x"'),
      'rest-envelope',
      'REST.ENVELOPE.SEQUENCE',
    ],
    [
      'a row without rownumber',
      envelope.replace('<row rownumber="0">', '<row>'),
      'rest-envelope',
      'REST.RECORD.ROWNUMBER',
    ],
    [
      'an OKFlag of 2',
      envelope.replace('<OKFlag>0</OKFlag>', '<OKFlag>2</OKFlag>'),
      'rest-envelope',
      'REST.STATE.OKFLAG_VALUES',
    ],
    [
      'a field with a child element',
      envelope.replace('<CustCode>C001</CustCode>', '<CustCode><x/></CustCode>'),
      'rest-envelope',
      'REST.RECORD.STRING_VALUES',
    ],
    ['a second data element', `${list}<data/>`, 'portal-list', 'PORTAL.LIST.PAGED_SHAPE'],
  ] as const)('%s', async (_name, body, kind, want) => {
    expect(
      await blameXml(body, kind, kind === 'portal-list' ? 'PORTAL.LIST.PAGED_SHAPE' : 'REST.QUERY.LIST_RECORDS'),
    ).toBe(want);
  });

  it('names no path in a body that does not parse', () => {
    expect(
      xmlFailingPaths('<data><IVVc>', 'portal-list', [
        "line 1: Element 'IVVc': Missing child element(s). Expected is ( Sum4 ).",
      ]),
    ).toEqual([]);
  });
});

describe('blame of a JSON schema failure by path', () => {
  const spec = loadSpec('record-rest');
  const good = {
    data: {
      '@register': 'IVVc',
      '@sequence': '12',
      '@systemversion': '1.0',
      IVVc: [{ '@register': 'IVVc', '@sequence': '11', '@url': '/api/1/IVVc/1', SerNr: '1', OKFlag: '0', rows: [] }],
    },
  };
  /** `good` with the member at `at` set to `value` (deleted when `value` is the string "<delete>"). */
  const blame = (at: readonly (string | number)[], value: unknown): string => {
    const doc = structuredClone(good) as unknown as Record<string | number, unknown>;
    let node = doc;
    for (const k of at.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
    const last = at.at(-1)!;
    if (value === '<delete>') delete node[last];
    else node[last] = value;
    const r = validateJsonBody(spec, 'IVVcEnvelope', doc);
    expect(r.valid, 'the mutated body must be invalid').toBe(false);
    return blameSchemaFailure(index, jsonFailingPaths('IVVcEnvelope', r.issues ?? [], doc), 'REST.QUERY.LIST_RECORDS');
  };
  it('accepts the unmutated body', () => expect(validateJsonBody(spec, 'IVVcEnvelope', good).valid).toBe(true));
  it.each([
    ['a wrong envelope @register', ['data', '@register'], 'CUVc', 'REST.ENVELOPE.REGISTER'],
    ['a record @url of null', ['data', 'IVVc', 0, '@url'], null, 'REST.RECORD.URL_FORMAT'],
    ['a wrong record @url', ['data', 'IVVc', 0, '@url'], 'x', 'REST.RECORD.URL_FORMAT'],
    ['a field of null', ['data', 'IVVc', 0, 'SerNr'], null, 'REST.RECORD.EMPTY_STRING'],
    ['a field that is a number', ['data', 'IVVc', 0, 'SerNr'], 7, 'REST.RECORD.STRING_VALUES'],
    ['an OKFlag of null', ['data', 'IVVc', 0, 'OKFlag'], null, 'REST.RECORD.EMPTY_STRING'],
    ['a missing @sequence', ['data', '@sequence'], '<delete>', 'REST.ENVELOPE.SEQUENCE'],
    ['the records not an array', ['data', 'IVVc'], {}, 'REST.ENVELOPE.RECORDS_ARRAY'],
    ['an OKFlag of 2', ['data', 'IVVc', 0, 'OKFlag'], '2', 'REST.STATE.OKFLAG_VALUES'],
  ] as const)('%s', (_name, at, value, want) => {
    expect(blame(at, value)).toBe(want);
  });
});
