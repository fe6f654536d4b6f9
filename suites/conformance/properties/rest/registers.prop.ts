// One test per register of the register table (record-rest-api.md §2 "Registers, keys and main fields";
// REST.REGISTER.*): the register lists its records, keyed by its key, with its main fields and rows. Then a
// sweep: every record check (one test per rule) over a page of every register with data, in both formats.
import type { RestEnvelope } from '@erpcert/client';
import { getRegister, getRule, type RegisterDef, registers } from '@erpcert/contract';
import { describe } from 'vitest';
import {
  type AnyRecord,
  companiesDiffer,
  createJson,
  expectRule,
  fieldValue,
  isRefusal,
  probe,
  RECORD_CHECKS,
  type RuleContext,
  rawJson,
  ruleTest,
  show,
  twoCompanies,
  uniqueCode,
  violated,
} from '../../src/harness/index.js';

/** Records read per register and format. */
const SAMPLE = 25;
/** Records of each company compared by REST.QUERY.COMPCODE. */
const COMPANY_PAGE = 20;

/** A page of one register in one format, as the target sent it (JSON read raw). */
interface Page {
  readonly register: string;
  readonly format: 'xml' | 'json';
  readonly records: readonly AnyRecord[];
  readonly base: boolean;
}

/**
 * The main fields are there: a record that carries an empty field is in the all-fields mode and must
 * carry every main field; one without any empty field may be in the non-empty mode (§4 rule 7, "Modes of
 * returned fields"), where an absent main field is an empty one. Rows likewise.
 */
function missingMainFields(def: RegisterDef, record: AnyRecord): string[] {
  const values = Object.entries(record).filter(([k]) => !k.startsWith('@') && k !== 'rows');
  if (!values.some(([, v]) => v === '')) return [];
  const missing = def.fields.filter((f) => record[f] === undefined);
  for (const [i, row] of ((Array.isArray(record.rows) ? record.rows : []) as AnyRecord[]).entries())
    missing.push(...def.rowFields.filter((f) => row[f] === undefined).map((f) => `row ${i} ${f}`));
  return missing;
}

/** The page of an answer: JSON as the target sent it (read raw), XML as decoded. */
function pageOf(def: RegisterDef, format: 'xml' | 'json', env: RestEnvelope<string>, base: boolean): Page {
  const raw = format === 'json' ? (rawJson(env) as { data?: Record<string, unknown> }).data?.[def.name] : undefined;
  const records = (format === 'json' ? (Array.isArray(raw) ? raw : []) : env.records) as AnyRecord[];
  return { register: def.name, format, records, base };
}

async function readPage(ctx: RuleContext, def: RegisterDef, format: 'xml' | 'json', base: boolean, rule: string) {
  try {
    return pageOf(def, format, await ctx.client.rest.list(def.name, { limit: SAMPLE } as never, { format }), base);
  } catch (err) {
    if (isRefusal(err)) violated(rule, `GET ${def.name} in ${format} was refused: ${(err as Error).message}`);
    throw err;
  }
}

/** Pages read by the register tests, by register, for the sweep that follows them in this file. */
const pages = new Map<string, Page[]>();

/**
 * The gate profile reads this many registers with data whole (the JSON page, the XML page, the base probe), and
 * of the others only the JSON page, which judges their REST.REGISTER rule: the XML and base-register record
 * checks of the sweep are judged on the first ones. @defaultValue 4
 */
const GATE_WHOLE_REGISTERS = 4;
let readWhole = 0;

/**
 * The register's first JSON page (one read: it shows whether the target serves the register and has records,
 * and is the JSON page the checks read), and whether it answers `updates_after` (a base register).
 */
async function firstOf(ctx: RuleContext, def: RegisterDef, probeBase = true) {
  const first = await probe(ctx, def.name, { limit: SAMPLE });
  if (!first.ok || first.records.length === 0) return { first, base: false };
  const base =
    probeBase && (await probe(ctx, def.name, { updates_after: first.envelope.sequence ?? '0', limit: 1 })).ok;
  return { first, base, json: pageOf(def, 'json', first.envelope, base) };
}

/** Every register's pages: the ones the register tests read, and the rest read now (a run `--only` a record rule). */
async function allPages(ctx: RuleContext): Promise<Page[]> {
  for (const def of registers) {
    if (pages.has(def.name)) continue;
    const { first, base, json } = await firstOf(ctx, def);
    const got: Page[] = [];
    if (json) got.push(json);
    if (first.ok && first.records.length > 0)
      try {
        got.push(await readPage(ctx, def, 'xml', base, 'REST.QUERY.LIST_RECORDS'));
      } catch (err) {
        if (!(err instanceof Error && err.name === 'ContractViolation')) throw err;
      }
    pages.set(def.name, got);
  }
  return [...pages.values()].flat();
}

describe('REST registers of the register table', () => {
  for (const def of registers) {
    const rule = `REST.REGISTER.${def.name.toUpperCase()}`;
    ruleTest(rule, `${def.name} (${def.meaning}) lists records keyed by ${def.key.join(' + ')}`, async (ctx) => {
      const whole = ctx.profile !== 'gate' || readWhole < GATE_WHOLE_REGISTERS;
      const { first, base, json } = await firstOf(ctx, def, whole);
      if (!first.ok) ctx.skip(`the target does not serve ${def.name}: ${first.why}`);
      if (!json) ctx.skip(`the target has no ${def.name} records`);
      if (whole) readWhole++;
      const read: Page[] = [];
      pages.set(def.name, read);
      for (const format of whole ? (['json', 'xml'] as const) : (['json'] as const)) {
        const page = format === 'json' ? json : await readPage(ctx, def, format, base, rule);
        read.push(page);
        expectRule(
          page.records.length > 0,
          rule,
          () => `${def.name} lists no record in ${format}, although it has some`,
        );
        const keys = new Set<string>();
        for (const record of page.records) {
          const missing = missingMainFields(def, record);
          expectRule(
            missing.length === 0,
            rule,
            () => `${show(record['@url'])} returns empty fields (all-fields mode) but lacks ${missing.join(', ')}`,
          );
          const key = def.key.map((k) => fieldValue(record, k)).join('/');
          expectRule(
            def.key.some((k) => fieldValue(record, k) !== '') || def.key.every((k) => record[k] === undefined),
            rule,
            () => `${show(record['@url'])}: every key field (${def.key.join(', ')}) is empty`,
          );
          expectRule(!keys.has(key) || key === '', rule, () => `${def.name}: two records share the key ${key}`);
          keys.add(key);
          if (def.rowFields.length > 0 && record.rows !== undefined)
            expectRule(Array.isArray(record.rows), rule, () => `${show(record['@url'])}: rows is not an array`);
        }
      }
    });
  }

  // runs after the register tests of this file (vitest runs a file's tests in order) on the pages they read
  for (const { rule, check } of RECORD_CHECKS)
    ruleTest(rule, `every record of a page of every register, XML and JSON: ${getRule(rule)!.title}`, async (ctx) => {
      const all = await allPages(ctx);
      if (all.length === 0) ctx.skip('no register of the table could be read (see the REST.REGISTER tests)');
      for (const page of all) for (const record of page.records) check(page.register, record, { base: page.base });
    });

  ruleTest(
    ['REST.QUERY.COMPCODE'],
    'two companies: each answers its own records to a list with its compcode; a record created and patched with one company code is there and not in the other',
    async (ctx) => {
      const { company, other } = twoCompanies(ctx);
      const rule = 'REST.QUERY.COMPCODE';
      // reads: the first page of items and of contacts in each company; the demo data and a real second
      // company differ in names, prices or records, which a server that ignores compcode cannot show
      const compared: string[] = [];
      let differ = false;
      for (const register of ['INVc', 'CUVc']) {
        const def = getRegister(register)!;
        const keyOf = (r: AnyRecord) => def.key.map((k) => fieldValue(r, k)).join('/');
        const page = async (compcode: number) => {
          const env = await ctx.client.rest.list(register, { limit: COMPANY_PAGE } as never, {
            format: 'json',
            compcode,
          });
          expectRule(env.hasEnvelope, rule, () => `GET ${register} with compcode=${compcode} answered no envelope`);
          return env.records as AnyRecord[];
        };
        const [a, b] = [await page(company), await page(other)];
        if (a.length + b.length === 0) continue;
        compared.push(`${register} (${a.length} and ${b.length} records)`);
        differ ||= companiesDiffer(a, b, keyOf);
      }
      if (compared.length === 0)
        ctx.skip(`neither company ${company} nor ${other} has INVc or CUVc records to compare`);
      expectRule(
        differ,
        rule,
        () =>
          `companies ${company} and ${other} answer the same records to the same list: ${compared.join(', ')}; ` +
          'the server ignores compcode (or --other-compcode names a company whose data does not differ)',
      );
      if (ctx.profile === 'readonly') return;
      // writes: a contact created and patched with compcode=company is read back there, and not in the other
      const opts = { format: 'json' as const, compcode: company };
      const code = uniqueCode(ctx);
      await createJson(ctx, 'CUVc', [{ Code: code, Name: `${ctx.target.runTag} company` }], opts);
      await ctx.client.rest.update('CUVc', code, { Name: `${ctx.target.runTag} company 2` }, [], opts);
      const find = async (compcode: number) =>
        (
          (await ctx.client.rest.list('CUVc', { 'filter.Code': code } as never, { format: 'json', compcode }))
            .records as AnyRecord[]
        ).find((r) => fieldValue(r, 'Code') === code);
      const here = await find(company);
      expectRule(
        fieldValue(here ?? {}, 'Name') === `${ctx.target.runTag} company 2`,
        rule,
        () => `CUVc ${code} created and patched with compcode=${company} reads back there as ${show(here)}`,
      );
      const there = await find(other);
      expectRule(
        there === undefined,
        rule,
        () => `CUVc ${code}, created with compcode=${company}, is listed with compcode=${other} too: ${show(there)}`,
      );
    },
  );

  ruleTest('REST.VERSION.PATH', 'the version is in the path: /api/1/<register> is served', async (ctx) => {
    if (ctx.target.companyIn === 'path')
      ctx.skip('the run places the company in the path segment (/api/<company>/), where the docs put the version');
    const res = await ctx.client.request({
      method: 'GET',
      path: '/api/1/CUVc',
      query: [
        ['limit', '1'],
        ...(ctx.target.compcode !== undefined ? [['compcode', String(ctx.target.compcode)] as [string, string]] : []),
      ],
      headers: { Accept: 'application/json' },
    });
    expectRule(
      res.status >= 200 && res.status < 300 && /"data"\s*:/.test(res.text),
      'REST.VERSION.PATH',
      () => `GET /api/1/CUVc answered HTTP ${res.status}: ${show(res.text, 120)}`,
    );
  });
});
