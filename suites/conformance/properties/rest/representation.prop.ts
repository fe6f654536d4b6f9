// Representation (issue 5 "Representation"; record-rest-api.md §1, §2 "Envelope (JSON)", "Record", §4 rule
// 11): XML and JSON describe the same records, every value is a string, `@url` matches the key,
// `@rownumber` is 0-based, every XML body validates against its XSD and every JSON body against its schema.
import { registers as catalogue } from '@erpcert/contract';
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  type AnyRecord,
  assertEnvelope,
  assertFormat,
  assertJsonValid,
  assertRecordShape,
  assertSameRecords,
  assertSequenceHeader,
  assertXmlValid,
  createJson,
  expectRule,
  fieldValue,
  isRefusal,
  type ListQuery,
  probe,
  type RuleContext,
  rawJson,
  registersWithData,
  restEnvelopeSchema,
  ruleProperty,
  show,
  uniqueCode,
} from '../../src/harness/index.js';

const TABLE = catalogue.map((r) => r.name);
let withData: Promise<string[]> | undefined;

/** The table's registers that hold records on the target (one `limit=1` read each, once per file). */
async function registersArb(ctx: RuleContext) {
  withData ??= registersWithData(ctx, TABLE);
  const list = await withData;
  if (list.length === 0) ctx.skip('the target has no records in any register of the table');
  return fc.constantFrom(...list);
}

/** A small read: a page, sometimes with a field list. */
const readArb = fc.record({
  limit: fc.integer({ min: 1, max: 15 }),
  offset: fc.nat({ max: 10 }),
});

/** Reads the same query as XML and as JSON, until both saw the same data (equal sequence), at most 3 times. */
async function bothFormats(ctx: RuleContext, register: string, query: ListQuery) {
  for (let i = 0; ; i++) {
    const xml = await ctx.client.rest.list(register, query as never, { format: 'xml' });
    const json = await ctx.client.rest.list(register, query as never, { format: 'json' });
    if (xml.sequence === json.sequence || i === 2) return { xml, json, stable: xml.sequence === json.sequence };
  }
}

const baseRegisters = new Map<string, Promise<boolean>>();

/** The register answers `updates_after` (a base register, §4 "Query parameters"). */
function isBase(ctx: RuleContext, register: string, sequence: string | undefined): Promise<boolean> {
  let hit = baseRegisters.get(register);
  if (!hit) {
    hit = probe(ctx, register, { updates_after: sequence ?? '0', limit: 1 }).then((p) => p.ok);
    baseRegisters.set(register, hit);
  }
  return hit;
}

describe('REST representation', () => {
  ruleProperty(
    ['REST.ENVELOPE.XML_DEFAULT', 'REST.ENVELOPE.JSON_ON_ACCEPT'],
    'XML without Accept, JSON with Accept: application/json, both holding the same records',
    async (ctx) => [await registersArb(ctx), readArb],
    async (ctx, register, query) => {
      const { xml, json, stable } = await bothFormats(ctx, register, query);
      assertFormat(xml, 'xml');
      assertFormat(json, 'json');
      if (stable) assertSameRecords(register, xml, json);
    },
  );

  ruleProperty(
    [
      'REST.QUERY.LIST_RECORDS',
      'REST.ENVELOPE.REGISTER',
      'REST.ENVELOPE.SEQUENCE',
      'REST.ENVELOPE.SYSTEMVERSION',
      'REST.ENVELOPE.RECORDS_ARRAY',
      'REST.VERSION.SYSTEMVERSION',
      'REST.SEQ.HEADER',
    ],
    'every list answer is an envelope with @register, @sequence, @systemversion, the record array and a Sequence header',
    async (ctx) => [await registersArb(ctx), readArb, fc.constantFrom<'xml' | 'json'>('xml', 'json')],
    async (ctx, register, query, format) => {
      const env = await ctx.client.rest.list(register, query as never, { format });
      assertEnvelope(env, register);
      assertSequenceHeader(env);
    },
  );

  ruleProperty(
    [
      'REST.RECORD.META_FIELDS',
      'REST.RECORD.URL_FORMAT',
      'REST.RECORD.URL_KEY_MATCHES',
      'REST.RECORD.URL_COMPOSITE_KEY',
      'REST.RECORD.STRING_VALUES',
      'REST.RECORD.EMPTY_STRING',
      'REST.RECORD.ROWS_ARRAY',
      'REST.RECORD.ROWNUMBER',
      'REST.RECORD.ROWS_EMPTY_WITHOUT_LINES',
      'REST.RECORD.BASE_SYNC_FIELDS',
      'REST.RECORD.ROW_TYPES',
      'REST.STATE.OKFLAG_VALUES',
    ],
    'every record: @register, @sequence, @url of its key, string values, rows with 0-based @rownumber',
    async (ctx) => [await registersArb(ctx), readArb, fc.constantFrom<'xml' | 'json'>('xml', 'json')],
    async (ctx, register, query, format) => {
      const env = await ctx.client.rest.list(register, query as never, { format });
      // JSON: the raw document, so that a number or null is seen as sent (the client keeps values as parsed)
      const records = (
        format === 'json' ? ((rawJson(env) as { data?: Record<string, unknown> }).data?.[register] ?? []) : env.records
      ) as AnyRecord[];
      const base = await isBase(ctx, register, env.sequence);
      for (const record of records) {
        assertRecordShape(register, record, { base });
        for (const [i, row] of ((record.rows as AnyRecord[] | undefined) ?? []).entries()) {
          const stp = fieldValue(row, 'stp');
          // §2 "Row types (stp)": 1, 2, 3; an empty stp is an unset field, not a fourth type
          expectRule(
            ['', '1', '2', '3'].includes(stp),
            'REST.RECORD.ROW_TYPES',
            () => `row ${i} of ${show(record['@url'])} has stp ${show(stp)}`,
          );
        }
        const ok = fieldValue(record, 'OKFlag');
        // §3: "OKFlag 0 means draft and 1 means confirmed"; an empty OKFlag (a JSON POST that set none) is unset
        expectRule(
          ['', '0', '1'].includes(ok),
          'REST.STATE.OKFLAG_VALUES',
          () => `${show(record['@url'])} has OKFlag ${show(ok)}`,
        );
      }
    },
  );

  ruleProperty(
    'REST.QUERY.LIST_RECORDS',
    'every XML body validates against rest-envelope.xsd and every JSON body against <Register>Envelope',
    async (ctx) => [await registersArb(ctx), readArb],
    async (ctx, register, query) => {
      const { xml, json } = await bothFormats(ctx, register, query);
      await assertXmlValid(xml.raw.text, 'rest-envelope', 'REST.QUERY.LIST_RECORDS');
      assertJsonValid(rawJson(json), { schema: restEnvelopeSchema(register) }, 'REST.QUERY.LIST_RECORDS');
    },
    // libxml2 (wasm) takes a few hundred ms per body on a busy machine: fewer runs, each a different read
    { numRuns: 8 },
  );

  ruleProperty(
    ['REST.RECORD.URL_FORMAT', 'REST.RECORD.URL_KEY_MATCHES'],
    'a key with reserved characters comes back URL-encoded in @url and decodes to the key',
    [fc.stringMatching(/^[A-Za-z0-9 &%+?#=.~-]{1,5}$/)],
    async (ctx, tail) => {
      const code = `${uniqueCode(ctx)}${tail}`;
      let created: Awaited<ReturnType<typeof createJson>>;
      try {
        created = await createJson(ctx, 'CUVc', [{ Code: code, Name: `${ctx.target.runTag} url` }], { format: 'json' });
      } catch (err) {
        // the target refuses such a code: the docs do not say which codes are valid, nothing to judge
        if (isRefusal(err)) return;
        throw err;
      }
      const env = await ctx.client.rest.list('CUVc', { 'filter.Code': code }, { format: 'json' });
      const record = env.records.find((r) => fieldValue(r, 'Code') === code) as AnyRecord | undefined;
      expectRule(
        record !== undefined,
        'REST.RECORD.URL_KEY_MATCHES',
        () => `CUVc ${show(code)} (created as ${created[0]?.key}) is not found by filter.Code`,
      );
      assertRecordShape('CUVc', record);
    },
    { numRuns: 10, writes: true },
  );
});
