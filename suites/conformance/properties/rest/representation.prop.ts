// Representation (issue 5 "Representation"; record-rest-api.md §1, §2 "Envelope (JSON)", "Record", §4 rule
// 11): XML and JSON describe the same records, every value is a string, `@url` matches the key,
// `@rownumber` is 0-based, every XML body validates against its XSD and every JSON body against its schema.
import { getRule } from '@erpcert/contract';
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  type AnyRecord,
  assertEnvelopeSystemVersion,
  assertFormat,
  assertJsonStrings,
  assertJsonValid,
  assertSameRecords,
  assertXmlValid,
  ContractViolation,
  createJson,
  ENVELOPE_CHECKS,
  expectRule,
  fieldValue,
  isRefusal,
  type ListQuery,
  probe,
  RECORD_CHECKS,
  type RuleContext,
  rawJson,
  recordCheck,
  restEnvelopeSchema,
  ruleProperty,
  show,
  tableRegistersWithData,
  tableRegisterWithData,
  uniqueCode,
} from '../../src/harness/index.js';

/** A small read: a page, sometimes with a field list. */
const readArb = fc.record({
  limit: fc.integer({ min: 1, max: 15 }),
  offset: fc.nat({ max: 10 }),
});

/**
 * A read of the first register with records in JSON and in XML, first in every run: checks whose rule shows
 * in one format only (a number where a string belongs is JSON's) see both formats whatever the picks.
 */
async function bothFormatExamples(
  ctx: RuleContext,
): Promise<[string, { limit: number; offset: number }, 'xml' | 'json'][]> {
  const [register] = await tableRegistersWithData(ctx);
  return register === undefined
    ? []
    : [
        [register, { limit: 10, offset: 0 }, 'json'],
        [register, { limit: 10, offset: 0 }, 'xml'],
      ];
}

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

/** The records of an answer; for JSON the raw document, so that a number or null is seen as sent. */
function recordsOf(env: Awaited<ReturnType<RuleContext['client']['rest']['list']>>, register: string): AnyRecord[] {
  if (env.format !== 'json') return env.records as AnyRecord[];
  const list = (rawJson(env) as { data?: Record<string, unknown> }).data?.[register];
  return Array.isArray(list) ? (list as AnyRecord[]) : [];
}

const formatArb = fc.constantFrom<'xml' | 'json'>('xml', 'json');

type ListAnswer = Awaited<ReturnType<RuleContext['client']['rest']['list']>>;

/** The list answers this file read, by request: the one-rule checks below judge the same reads (their examples). */
const answers = new Map<string, ListAnswer>();

/**
 * Judges a list read with `judge`: on the answer this file already has for the same request when there is one
 * (one read serves every one-rule check), else on a new read. A rule broken on a kept answer is judged again on
 * a read of this run, whose exchange the failure then carries.
 */
async function judgeRead(
  ctx: RuleContext,
  register: string,
  query: ListQuery,
  format: 'xml' | 'json',
  judge: (env: ListAnswer) => void | Promise<void>,
): Promise<void> {
  const key = JSON.stringify([register, format, query]);
  const kept = answers.get(key);
  if (kept !== undefined)
    try {
      return await judge(kept);
    } catch (err) {
      if (!(err instanceof ContractViolation)) throw err;
    }
  const env = await ctx.client.rest.list(register, query as never, { format });
  if (!answers.has(key)) answers.set(key, env);
  await judge(env);
}

describe('REST representation', () => {
  ruleProperty(
    'REST.ENVELOPE.XML_DEFAULT',
    'a request without Accept: application/json is answered in XML',
    async (ctx) => [await tableRegisterWithData(ctx), readArb],
    async (ctx, register, query) => {
      assertFormat(await ctx.client.rest.list(register, query as never, { format: 'xml' }), 'xml');
    },
    { numRuns: 10 },
  );

  ruleProperty(
    'REST.ENVELOPE.JSON_ON_ACCEPT',
    'a request with Accept: application/json is answered in JSON, holding the records of the XML answer',
    async (ctx) => [await tableRegisterWithData(ctx), readArb],
    async (ctx, register, query) => {
      const { xml, json, stable } = await bothFormats(ctx, register, query);
      assertFormat(json, 'json');
      assertJsonStrings(register, json); // a number is STRING_VALUES's, not a difference of the two formats
      if (stable && xml.format === 'xml') assertSameRecords(register, xml, json);
    },
  );

  // one property per rule: a broken behaviour fails the rule it breaks, and no other
  for (const { rule, check } of ENVELOPE_CHECKS)
    ruleProperty(
      rule,
      `every list answer, XML or JSON: ${getRule(rule)!.title}`,
      async (ctx) => [await tableRegisterWithData(ctx), readArb, formatArb],
      async (ctx, register, query, format) => {
        await judgeRead(ctx, register, query, format, (env) => check(env, register));
      },
      { numRuns: 10, examples: bothFormatExamples },
    );

  ruleProperty(
    'REST.VERSION.SYSTEMVERSION',
    'every envelope, of a read or a write, reports @systemversion',
    async (ctx) => [await tableRegisterWithData(ctx), formatArb, fc.boolean()],
    async (ctx, register, format, write) => {
      if (write && ctx.profile !== 'readonly') {
        const created = await createJson(
          ctx,
          'CUVc',
          [{ Code: uniqueCode(ctx), Name: `${ctx.target.runTag} version` }],
          { format },
        );
        assertEnvelopeSystemVersion(created[0]!.envelope, 'REST.VERSION.SYSTEMVERSION');
        return;
      }
      const env = await ctx.client.rest.list(register, { limit: 3 } as never, { format });
      assertEnvelopeSystemVersion(env, 'REST.VERSION.SYSTEMVERSION');
    },
    { numRuns: 10 },
  );

  for (const { rule, check } of RECORD_CHECKS)
    ruleProperty(
      rule,
      `every record of a list answer, XML or JSON: ${getRule(rule)!.title}`,
      async (ctx) => [await tableRegisterWithData(ctx), readArb, formatArb],
      async (ctx, register, query, format) => {
        await judgeRead(ctx, register, query, format, async (env) => {
          const base = await isBase(ctx, register, env.sequence);
          for (const record of recordsOf(env, register)) check(register, record, { base });
        });
      },
      { numRuns: 8, examples: bothFormatExamples },
    );

  ruleProperty(
    'REST.QUERY.LIST_RECORDS',
    'every XML body validates against rest-envelope.xsd and every JSON body against <Register>Envelope',
    async (ctx) => [await tableRegisterWithData(ctx), readArb],
    async (ctx, register, query) => {
      const { xml, json } = await bothFormats(ctx, register, query);
      // the string values first: a number where the docs give a string is STRING_VALUES's, not the schema's
      assertJsonStrings(register, json);
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
      recordCheck('REST.RECORD.URL_FORMAT').check('CUVc', record, {});
      recordCheck('REST.RECORD.URL_KEY_MATCHES').check('CUVc', record, {});
    },
    { numRuns: 10, writes: true },
  );
});
