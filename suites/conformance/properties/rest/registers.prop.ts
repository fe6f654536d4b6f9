// One test per register of the register table (record-rest-api.md §2 "Registers, keys and main fields";
// REST.REGISTER.*): the register lists its records, keyed by its key, with its main fields and `@url`, in
// both formats; every record also passes the record-shape checks (a sweep over every register).
import { type RegisterDef, registers } from '@erpcert/contract';
import { describe } from 'vitest';
import {
  type AnyRecord,
  assertEnvelope,
  assertRecordShape,
  createJson,
  expectRule,
  fieldValue,
  isRefusal,
  probe,
  rawJson,
  readBack,
  ruleTest,
  show,
  uniqueCode,
} from '../../src/harness/index.js';

/** Records read per register and format. */
const SAMPLE = 25;

const RECORD_RULES = [
  'REST.RECORD.META_FIELDS',
  'REST.RECORD.URL_FORMAT',
  'REST.RECORD.URL_KEY_MATCHES',
  'REST.RECORD.URL_COMPOSITE_KEY',
  'REST.RECORD.STRING_VALUES',
  'REST.RECORD.EMPTY_STRING',
  'REST.RECORD.ROWS_ARRAY',
  'REST.RECORD.ROWNUMBER',
  'REST.RECORD.ROWS_EMPTY_WITHOUT_LINES',
  'REST.RECORD.FIELD_MODES',
  'REST.RECORD.BASE_SYNC_FIELDS',
];

/**
 * The main fields are there: a record that carries an empty field is in the all-fields mode and must
 * carry every main field; one without any empty field may be in the non-empty mode (§4 rule 7, "Modes of
 * returned fields"), where an absent main field is an empty one.
 */
function assertMainFields(def: RegisterDef, record: AnyRecord, rule: string): void {
  const values = Object.entries(record).filter(([k]) => !k.startsWith('@') && k !== 'rows');
  const allFieldsMode = values.some(([, v]) => v === '');
  if (allFieldsMode) {
    const missing = def.fields.filter((f) => record[f] === undefined);
    expectRule(
      missing.length === 0,
      'REST.RECORD.FIELD_MODES',
      () =>
        `${show(record['@url'])} returns empty fields (all-fields mode) but lacks the main field(s) ${missing.join(', ')}`,
    );
  }
  const rowMissing = def.rowFields.length > 0 && allFieldsMode;
  if (rowMissing)
    for (const [i, row] of ((record.rows as AnyRecord[] | undefined) ?? []).entries()) {
      const absent = def.rowFields.filter((f) => row[f] === undefined);
      expectRule(
        absent.length === 0,
        'REST.RECORD.FIELD_MODES',
        () => `row ${i} of ${show(record['@url'])} lacks the row field(s) ${absent.join(', ')} (all-fields mode)`,
      );
    }
  // the record is keyed by the register's key (the table's "Key" column)
  for (const k of def.key)
    expectRule(
      record[k] !== undefined || !allFieldsMode,
      rule,
      () => `${show(record['@url'])} has no key field ${k} (key ${def.key.join(' + ')})`,
    );
}

describe('REST registers of the register table', () => {
  for (const def of registers) {
    const rule = `REST.REGISTER.${def.name.toUpperCase()}`;
    ruleTest(
      [rule, ...RECORD_RULES],
      `${def.name} (${def.meaning}) lists records keyed by ${def.key.join(' + ')}`,
      async (ctx) => {
        const first = await probe(ctx, def.name, { limit: 1 });
        if (!first.ok) ctx.skip(`the target does not serve ${def.name}: ${first.why}`);
        if (first.records.length === 0) ctx.skip(`the target has no ${def.name} records`);
        const base = (await probe(ctx, def.name, { updates_after: first.envelope.sequence ?? '0', limit: 1 })).ok;
        for (const format of ['json', 'xml'] as const) {
          let env: Awaited<ReturnType<typeof ctx.client.rest.list>>;
          try {
            env = await ctx.client.rest.list(def.name, { limit: SAMPLE } as never, { format });
          } catch (err) {
            if (isRefusal(err))
              expectRule(false, rule, () => `${def.name} in ${format} was refused: ${(err as Error).message}`);
            throw err;
          }
          assertEnvelope(env, def.name);
          const records = (
            format === 'json'
              ? ((rawJson(env) as { data: Record<string, unknown> }).data[def.name] as AnyRecord[])
              : env.records
          ) as AnyRecord[];
          expectRule(records.length > 0, rule, () => `${def.name} lists no record in ${format}, although it has some`);
          const urls = new Set<string>();
          for (const record of records) {
            assertRecordShape(def.name, record, { base });
            assertMainFields(def, record, rule);
            const url = String(record['@url']);
            expectRule(!urls.has(url), rule, () => `${def.name}: two records share the key ${url}`);
            urls.add(url);
            expectRule(
              def.key.some((k) => fieldValue(record, k) !== '') || record[def.key[0]!] === undefined,
              rule,
              () => `${show(url)}: every key field (${def.key.join(', ')}) is empty`,
            );
          }
        }
      },
    );
  }

  ruleTest(
    ['REST.QUERY.COMPCODE'],
    'list, JSON POST and PATCH carrying the company code are served in that company',
    async (ctx) => {
      const compcode = ctx.target.compcode;
      if (compcode === undefined) ctx.skip('the run names no company code (--compcode)');
      const opts = { format: 'json' as const, compcode };
      const list = await ctx.client.rest.list('CUVc', { limit: 1 } as never, opts);
      assertEnvelope(list, 'CUVc');
      if (ctx.profile === 'readonly') return;
      const code = uniqueCode(ctx);
      await createJson(ctx, 'CUVc', [{ Code: code, Name: `${ctx.target.runTag} company` }], opts);
      await ctx.client.rest.update('CUVc', code, { Name: `${ctx.target.runTag} company 2` }, [], opts);
      const back = await readBack(ctx, 'CUVc', 'Code', code);
      expectRule(
        fieldValue(back ?? {}, 'Name') === `${ctx.target.runTag} company 2`,
        'REST.QUERY.COMPCODE',
        () => `CUVc ${code} created and patched with compcode=${compcode} reads back as ${show(back)}`,
      );
    },
  );
});
