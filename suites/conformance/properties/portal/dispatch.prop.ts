// Dispatch, global parameters, posttext and the sendemail preconditions (portal-action-api.md §1 "What the
// service does", "Global parameters", §4 "Post text", "Email document", operation rule 5, §9 Versioning).
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  companiesDiffer,
  createJson,
  deleteRecord,
  expectRule,
  fieldValue,
  type RuleContext,
  ruleProperty,
  ruleTest,
  show,
  twoCompanies,
  uniqueCode,
} from '../../src/harness/index.js';
import {
  assertPortalXml,
  attempt,
  bodyText,
  createDocument,
  describeOutcome,
  expectErrorShape,
  expectSuccess,
  textOf,
} from '../../src/harness/portal.js';

let documents: Promise<{ id: string } | string> | undefined;

/** Item codes looked up in both companies by the PORTAL.GLOBAL.COMPNO test (the gate: until they differ). */
const COMPNO_LOOKUPS = 5;

/** A tagged EPOrderDocVc of the suite's own (posttext writes its text), or why there is none. */
function ownOrderDocument(ctx: RuleContext): Promise<{ id: string } | string> {
  documents ??= attempt(
    createJson(ctx, 'EPOrderDocVc', [{ Comment: `${ctx.target.runTag} posttext` }], { format: 'json' }),
  ).then((o) =>
    o.ok ? { id: o.value[0]!.key } : `the target does not create EPOrderDocVc through /api/1/: ${describeOutcome(o)}`,
  );
  return documents;
}

let noMail: Promise<string> | undefined;

/**
 * A contact of the suite's own without eMail, so that nothing can be sent to anybody: one for the file's
 * sendemail runs (each makes its own document for it), ledgered, so the run's cleanup deletes it.
 */
function noMailContact(ctx: RuleContext): Promise<string> {
  noMail ??= createJson(
    ctx,
    'CUVc',
    [{ Code: uniqueCode(ctx, 'M'), Name: `${ctx.target.runTag} no mail`, CUType: '1' }],
    { format: 'json' },
  ).then((made) => made[0]!.key);
  noMail.catch(() => {
    noMail = undefined;
  });
  return noMail;
}

describe('dispatch, globals, posttext, sendemail preconditions', () => {
  ruleTest(
    ['PORTAL.VERSION.NO_PATH_SEGMENT', 'PORTAL.LOGIN.ACTION'],
    'the portal answers at a path without a version segment',
    async (ctx) => {
      const segments = ctx.client.portal.path.split('/').filter((s) => s !== '');
      expectRule(
        !segments.some((s) => /^v?\d+$/i.test(s)),
        'PORTAL.VERSION.NO_PATH_SEGMENT',
        () => `the configured portal path ${ctx.client.portal.path} has a version segment`,
      );
      const o = await attempt(ctx.client.portal.login());
      expectRule(o.ok, 'PORTAL.LOGIN.ACTION', () => `login at ${ctx.client.portal.path}: ${describeOutcome(o)}`);
    },
  );

  ruleTest(
    'PORTAL.GLOBAL.COMPNO',
    'compno selects the company: items of the run company are found with its compno, and the same lookups with the other compno answer the other company',
    async (ctx) => {
      const { company, other } = twoCompanies(ctx);
      // search texts: item codes of the run's company (REST only chooses them; the portal is what is judged)
      const o = await attempt(
        ctx.client.rest.list('INVc', { fields: 'Code', limit: 30 } as never, { format: 'json', compcode: company }),
      );
      const codes = o.ok
        ? [...new Set(o.value.records.map((r) => fieldValue(r, 'Code')).filter((c) => c !== '' && !/\s/.test(c)))]
        : [];
      if (codes.length === 0) ctx.skip(`company ${company} has no item (INVc) to look up`);
      const lookup = async (code: string, compno: number) => {
        const found = await attempt(ctx.client.portal.pastespecial({ register: 'INVc', id: code, compno }));
        return expectSuccess(found, 'PORTAL.GLOBAL.COMPNO', `pastespecial INVc id=${code}&compno=${compno}`).records;
      };
      const looked: string[] = [];
      let differ = false;
      for (const code of codes.slice(0, COMPNO_LOOKUPS)) {
        const mine = await lookup(code, company);
        expectRule(
          mine.some((r) => textOf(r, 'Code') === code),
          'PORTAL.GLOBAL.COMPNO',
          () =>
            `item ${code} of company ${company} (REST) is not found by pastespecial with compno=${company}: ${show(mine.map((r) => textOf(r, 'Code')))}`,
          // the run company is what a server ignoring compno answers too
          { decisive: false, missing: 'a lookup with the other compno that answers the other company' },
        );
        const theirs = await lookup(code, other);
        looked.push(code);
        differ ||= companiesDiffer(mine, theirs, (r) => textOf(r, 'Code'));
        // the gate stops at the first code that observed both halves of the rule (gate-budget.ts)
        if (differ && ctx.profile === 'gate') break;
      }
      expectRule(
        differ,
        'PORTAL.GLOBAL.COMPNO',
        () =>
          `pastespecial INVc answers the same with compno=${company} and compno=${other} for ${looked.join(', ')}: ` +
          'compno is ignored (or --other-compcode names a company whose items do not differ)',
        // two companies answered apart: a server ignoring compno answers both alike
        { decisive: true },
      );
    },
  );

  ruleProperty(
    [
      'PORTAL.TEXT.POSTTEXT',
      'PORTAL.TEXT.REGISTERS',
      'PORTAL.DISPATCH.GET_AND_POST',
      'PORTAL.DISPATCH.OPERATION_RESULT',
    ],
    'posttext (POST, form set_field.Math, text or HTML) on an EPOrderDocVc answers an operation result',
    [
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.string({ maxLength: 60 }).map((t) => `<p>${t.replace(/[<>&]/g, '')}</p>`),
      ),
    ],
    async (ctx, text) => {
      const doc = await ownOrderDocument(ctx);
      if (typeof doc === 'string') ctx.skip(doc);
      const o = await attempt(ctx.client.portal.posttext({ register: 'EPOrderDocVc', id: doc.id }, text));
      const res = expectSuccess(
        o,
        'PORTAL.TEXT.REGISTERS',
        `posttext register=EPOrderDocVc&id=${doc.id} ${show(text, 80)}`,
      );
      await assertPortalXml(ctx, res.raw.text, 'portal-result', 'PORTAL.TEXT.POSTTEXT');
    },
    { numRuns: 5, writes: true },
  );

  ruleProperty(
    ['PORTAL.EMAIL.PRECONDITIONS', 'PORTAL.EMAIL.SENDEMAIL', 'PORTAL.ERRORS.SHAPE'],
    'sendemail of a document whose customer has no e-mail address fails (an operation result with the text)',
    [fc.constantFrom('IVVc' as const, 'ORVc' as const, 'QTVc' as const)],
    async (ctx, regname) => {
      const contact = await noMailContact(ctx);
      const id = await createDocument(ctx, regname, [{ stp: '1' }], 'sendemail', { CustCode: contact });
      const o = await attempt(ctx.client.portal.sendemail({ regname, id }));
      const err = expectErrorShape(
        o,
        'PORTAL.EMAIL.PRECONDITIONS',
        `sendemail regname=${regname}&id=${id} (customer without e-mail)`,
      );
      const body = bodyText(o);
      if (body !== '') await assertPortalXml(ctx, body, 'portal-result', 'PORTAL.EMAIL.SENDEMAIL');
      expectRule(err.description !== '', 'PORTAL.EMAIL.SENDEMAIL', () => 'the failure names no reason');
      await attempt(deleteRecord(ctx, regname, id));
    },
    // each register once, in every run
    { numRuns: 3, writes: true, examples: [['IVVc'], ['ORVc'], ['QTVc']] },
  );
});
