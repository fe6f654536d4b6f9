// One test per register of the register table (record-rest-api.md §2 "Registers, keys and main fields";
// REST.REGISTER.*): the register lists its records, keyed by its key, with its main fields and rows. Then
// sweeps over the same pages (a page of every register with data, in both formats, harness register-pages.ts):
// every record check and every envelope check (one test per rule), and the validation of every list body,
// each failure blamed on the rule that owns the broken part (issue 18).
import { getRegister, getRule, type RegisterDef, registers } from '@erpcert/contract';
import { describe } from 'vitest';
import {
  type AnyRecord,
  accepted,
  allRegisterReads,
  assertHasEnvelope,
  assertJsonListBody,
  bodyViolations,
  companiesDiffer,
  createJson,
  ENVELOPE_CHECKS,
  expectRule,
  fieldValue,
  LIST_BODY_RULE,
  RECORD_CHECKS,
  type RuleContext,
  registerRead,
  ruleTest,
  show,
  twoCompanies,
  uniqueCode,
  type ValidPage,
  validPages,
  violated,
} from '../../src/harness/index.js';

/** Records of each company compared by REST.QUERY.COMPCODE. */
const COMPANY_PAGE = 20;

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

/**
 * The reads of every register for a sweep of `rule`: a broken body whose broken part `rule` owns FAILs it here;
 * the pages that validate are returned (a body broken elsewhere is judged by the rule that owns that part).
 */
async function sweepPages(ctx: RuleContext, rule: string): Promise<ValidPage[]> {
  const reads = await allRegisterReads(ctx);
  const own = bodyViolations(reads).find((v) => v.rule === rule);
  if (own) throw own;
  const pages = validPages(reads);
  if (pages.length === 0 && bodyViolations(reads).length === 0)
    ctx.skip('no register of the table could be read (see the REST.REGISTER tests)');
  return pages;
}

describe('REST registers of the register table', () => {
  for (const def of registers) {
    const rule = `REST.REGISTER.${def.name.toUpperCase()}`;
    ruleTest(rule, `${def.name} (${def.meaning}) lists records keyed by ${def.key.join(' + ')}`, async (ctx) => {
      const read = await registerRead(ctx, def);
      if (read.broken) throw read.broken;
      if (read.skip !== undefined) ctx.skip(read.skip);
      // the bodies validate first: a broken part FAILs the rule that owns it, not this register's
      for (const page of read.pages) if (page.invalid) throw page.invalid;
      if (read.refused !== undefined) violated(rule, read.refused);
      for (const page of read.pages) {
        const format = page.format;
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
      for (const page of await sweepPages(ctx, rule))
        for (const record of page.records) check(page.register, record, { base: page.base });
    });

  // the envelope of every register in both formats, every run: an envelope check of one register's answer
  // (a wrong @register, an empty @sequence) shows on that register only
  for (const { rule, check } of ENVELOPE_CHECKS.filter((c) => c.rule !== LIST_BODY_RULE))
    ruleTest(rule, `the envelope of a page of every register, XML and JSON: ${getRule(rule)!.title}`, async (ctx) => {
      for (const page of await sweepPages(ctx, rule)) check(page.envelope, page.register);
    });

  ruleTest(
    LIST_BODY_RULE,
    'the list body of every register, XML and JSON, validates against rest-envelope.xsd or <Register>Envelope',
    async (ctx) => {
      const reads = await allRegisterReads(ctx);
      // blamed by path: the rule that owns the broken part FAILs, this one only for the envelope itself
      const [first] = bodyViolations(reads);
      if (first) throw first;
      const pages = validPages(reads);
      // one register refused is that register's (REST.REGISTER.*); every register of the table refused is the list
      // operation refused ("List records | GET | /api/1/<register> | ... | envelope with record array")
      const unserved = reads.filter((r) => r.unserved !== undefined);
      if (pages.length === 0 && unserved.length === reads.length && reads.length > 1)
        violated(
          LIST_BODY_RULE,
          `every register of the table (${reads.length}) refused a plain list read, e.g. ${unserved[0]!.def.name}: ${unserved[0]!.unserved}`,
        );
      if (pages.length === 0) ctx.skip('no register of the table could be read (see the REST.REGISTER tests)');
      ctx.observe(LIST_BODY_RULE, pages.length);
    },
  );

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
          // the answer is a valid envelope before its records are compared: a broken one is not a company's
          assertJsonListBody(register, env);
          assertHasEnvelope(env);
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
      // §4: update takes compcode: a refused PATCH with it is REST.QUERY.COMPCODE's FAIL
      await accepted(
        'REST.QUERY.COMPCODE',
        ctx.client.rest.update('CUVc', code, { Name: `${ctx.target.runTag} company 2` }, [], opts),
        `PATCH CUVc/${code} with compcode=${company}`,
      );
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
