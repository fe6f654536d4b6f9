// Dispatch, global parameters, posttext and the sendemail preconditions (portal-action-api.md §1 "What the
// service does", "Global parameters", §4 "Post text", "Email document", operation rule 5, §9 Versioning).
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  createJson,
  deleteRecord,
  expectRule,
  fieldValue,
  type RuleContext,
  ruleProperty,
  ruleTest,
  show,
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

/** A tagged EPOrderDocVc of the suite's own (posttext writes its text), or why there is none. */
function ownOrderDocument(ctx: RuleContext): Promise<{ id: string } | string> {
  documents ??= attempt(
    createJson(ctx, 'EPOrderDocVc', [{ Comment: `${ctx.target.runTag} posttext` }], { format: 'json' }),
  ).then((o) =>
    o.ok ? { id: o.value[0]!.key } : `the target does not create EPOrderDocVc through /api/1/: ${describeOutcome(o)}`,
  );
  return documents;
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

  ruleProperty(
    ['PORTAL.GLOBAL.COMPNO', 'PORTAL.LOOKUP.PASTESPECIAL'],
    'compno selects the company: an item of the REST company compcode is found by a lookup with compno=compcode',
    async (ctx) => {
      const company = ctx.target.compcode;
      if (company === undefined) ctx.skip('no --compcode configured: the company to compare with is the default one');
      const o = await attempt(ctx.client.rest.list('INVc', { fields: 'Code', limit: 30 } as never, { format: 'json' }));
      const codes = o.ok
        ? o.value.records.map((r) => fieldValue(r, 'Code')).filter((c) => c !== '' && !/\s/.test(c))
        : [];
      if (codes.length === 0) ctx.skip(`company ${company} has no item (INVc) to look up`);
      return [fc.constantFrom(...codes)];
    },
    async (ctx, code) => {
      const compno = ctx.target.compcode!;
      const o = await attempt(ctx.client.portal.pastespecial({ register: 'INVc', id: code, compno }));
      const found = expectSuccess(o, 'PORTAL.GLOBAL.COMPNO', `pastespecial INVc id=${code}&compno=${compno}`);
      expectRule(
        found.records.some((r) => textOf(r, 'Code') === code),
        'PORTAL.GLOBAL.COMPNO',
        () =>
          `item ${code} of company ${compno} (REST) is not found by pastespecial with compno=${compno}: ${show(found.records.map((r) => textOf(r, 'Code')))}`,
      );
    },
    { numRuns: 4 },
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
      // a contact of the suite's own without eMail, so that nothing can be sent to anybody
      const [contact] = await createJson(
        ctx,
        'CUVc',
        [{ Code: uniqueCode(ctx, 'M'), Name: `${ctx.target.runTag} no mail`, CUType: '1' }],
        { format: 'json' },
      );
      const id = await createDocument(ctx, regname, [{ stp: '1' }], 'sendemail', { CustCode: contact!.key });
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
      await attempt(deleteRecord(ctx, 'CUVc', contact!.key));
    },
    { numRuns: 3, writes: true },
  );
});
