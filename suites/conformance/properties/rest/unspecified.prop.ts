// Behaviours the REST document marks "not shown" (record-rest-api.md §4 rules 7-10, §7): never a FAIL.
// In the strict profile each test compares the target with the reference reading (DESIGN.md "What real
// deployments do") and leaves an advisory where they differ; in the other profiles these tests skip.
import { registers as catalogue } from '@erpcert/contract';
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  type AnyRecord,
  accepted,
  createJson,
  fieldValue,
  isRefusal,
  keyFromUrl,
  malformedListParameter,
  probe,
  ruleProperty,
  ruleTest,
  show,
  tableRegisterWithData,
  uniqueCode,
} from '../../src/harness/index.js';

/** The outcome of a call: its value, or the refusal's first line. */
async function outcome<T>(call: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; why: string }> {
  try {
    return { ok: true, value: await call };
  } catch (err) {
    if (!isRefusal(err)) throw err;
    return { ok: false, why: (err as Error).message.split('\n')[0] ?? '' };
  }
}

describe('REST behaviours the docs do not show (strict advisories)', () => {
  ruleProperty(
    'REST.RECORD.GET_BY_KEY_NOT_SHOWN',
    'GET /api/1/<register>/<key> answers that one record (real deployments do)',
    async (ctx) => [await tableRegisterWithData(ctx), fc.nat({ max: 9 })],
    async (ctx, register, pick) => {
      const p = await probe(ctx, register, { limit: 10 });
      const record = p.ok ? (p.records[pick % Math.max(1, p.records.length)] as AnyRecord | undefined) : undefined;
      const parts = record ? keyFromUrl(String(record['@url'] ?? ''), register) : undefined;
      if (!record || !parts) return;
      const got = await outcome(ctx.client.rest.get(register, parts, { format: 'json' }));
      ctx.observe('REST.RECORD.GET_BY_KEY_NOT_SHOWN'); // compared with the reference reading below
      if (!got.ok) ctx.advise(`GET ${record['@url']} was refused: ${got.why}`);
      else if (got.value.records.length !== 1 || got.value.records[0]?.['@url'] !== record['@url'])
        ctx.advise(`GET ${record['@url']} answered ${got.value.records.length} record(s), not that one`);
    },
    { numRuns: 10, strictOnly: true },
  );

  ruleTest(
    'REST.WRITE.PATCH_BODY_NOT_SHOWN',
    'PATCH answers an envelope with the updated record (the reference reading)',
    async (ctx) => {
      const code = uniqueCode(ctx);
      await createJson(ctx, 'CUVc', [{ Code: code, Name: `${ctx.target.runTag} patch` }], { format: 'json' });
      const env = await accepted(
        'REST.WRITE.UPDATE_PATCH',
        ctx.client.rest.update('CUVc', code, { Name: `${ctx.target.runTag} patched` }, [], { format: 'json' }),
        `PATCH CUVc/${code}`,
      );
      ctx.observe('REST.WRITE.PATCH_BODY_NOT_SHOWN');
      if (!env.hasEnvelope) ctx.advise(`PATCH CUVc/${code} answered no envelope: ${show(env.raw.text, 120)}`);
      else if (!env.records.some((r) => fieldValue(r, 'Code') === code))
        ctx.advise(`PATCH CUVc/${code} answered an envelope without the record`);
    },
    { writes: true, strictOnly: true },
  );

  ruleTest(
    'REST.QUERY.COMPCODE_LOCATION_NOT_SHOWN',
    'the company code is taken in the query (?compcode=N) and in the path (/api/N/) alike',
    async (ctx) => {
      const compcode = ctx.target.compcode ?? 1;
      const read = (companyIn: 'query' | 'path') =>
        outcome(ctx.client.rest.list('CUVc', { limit: 5 } as never, { format: 'json', companyIn, compcode }));
      const [query, path] = [await read('query'), await read('path')];
      ctx.observe('REST.QUERY.COMPCODE_LOCATION_NOT_SHOWN');
      for (const [where, o] of [
        ['query', query],
        ['path', path],
      ] as const)
        if (!o.ok) ctx.advise(`compcode in the ${where} was refused: ${o.why}`);
      if (query.ok && path.ok) {
        const urls = (e: typeof query.value) => e.records.map((r) => r['@url']).join(',');
        if (urls(query.value) !== urls(path.value))
          ctx.advise('compcode in the query and in the path read different records');
      }
    },
    { strictOnly: true },
  );

  ruleProperty(
    'REST.RECORD.FIELD_MODE_PARAM_NOT_SHOWN',
    'a plain GET answers in the all-fields mode (empty fields as "")',
    async (ctx) => [await tableRegisterWithData(ctx)],
    async (ctx, register) => {
      const def = catalogue.find((r) => r.name === register)!;
      const p = await probe(ctx, register, { limit: 5 });
      if (!p.ok) return;
      if (p.records.length > 0) ctx.observe('REST.RECORD.FIELD_MODE_PARAM_NOT_SHOWN');
      for (const r of p.records as AnyRecord[]) {
        const missing = def.fields.filter((f) => r[f] === undefined);
        if (missing.length > 0) {
          ctx.advise(
            `GET ${register} leaves out empty main fields (${missing.slice(0, 4).join(', ')}): the non-empty mode`,
          );
          return;
        }
      }
    },
    { numRuns: 10, strictOnly: true },
  );

  ruleProperty(
    ['REST.ERRORS.STATUS_CODES_NOT_SHOWN', 'REST.ERRORS.BODY_FORMAT_NOT_SHOWN', 'REST.ERRORS.CODES_NOT_SHOWN'],
    'a malformed list parameter is answered with an error shape (<error code description/>), not a 5xx or data',
    async (ctx) => [await tableRegisterWithData(ctx), malformedListParameter()],
    async (ctx, register, bad) => {
      const query = bad.name === 'range' ? { range: bad.value } : { [bad.name]: bad.value };
      const inPath = ctx.target.companyIn === 'path' && ctx.target.compcode !== undefined;
      const company: [string, string][] =
        ctx.target.compcode && !inPath ? [['compcode', String(ctx.target.compcode)]] : [];
      const res = await ctx.client.request({
        method: 'GET',
        path: `/api/${inPath ? ctx.target.compcode : 1}/${register}`,
        query: [...Object.entries(query), ...company],
      });
      const body = res.text;
      ctx.observe([
        'REST.ERRORS.STATUS_CODES_NOT_SHOWN',
        'REST.ERRORS.BODY_FORMAT_NOT_SHOWN',
        'REST.ERRORS.CODES_NOT_SHOWN',
      ]);
      const errorShape = /<error\b[^>]*\bdescription=/.test(body) || /"error"\s*:\s*\{/.test(body);
      if (res.status >= 500) ctx.advise(`${register}?${bad.name}=${bad.value} answered HTTP ${res.status}`);
      else if (!errorShape)
        ctx.advise(`${register}?${bad.name}=${bad.value} answered HTTP ${res.status} without an <error> element`);
    },
    { numRuns: 15, strictOnly: true },
  );
});
