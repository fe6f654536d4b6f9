// Record operations: delete and document (portal-action-api.md §2 "Registers per operation", "Document",
// §4 "Delete record", "Generate document", §7 errors), verified through /api/1/.
import type { RestRecord } from '@erpcert/client';
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  createJson,
  deleteRecord,
  expectRule,
  fieldValue,
  ledgerGone,
  type RuleContext,
  ruleProperty,
  show,
  uniqueCode,
} from '../../src/harness/index.js';
import {
  assertPortalXml,
  attempt,
  createDocumentAnswer,
  createPurchaseInvoice,
  describeOutcome,
  expectSuccess,
  FIRST_PAGE_QUERY,
  firstPageIds,
  LIST_KEY,
  type ListRegister,
  readBySerNr,
  textOf,
} from '../../src/harness/portal.js';

/** Registers of the delete row (§2) whose records the suite can create through /api/1/, with their key field. */
// VIVc (a purchase invoice of a vendor of the target) and EPOrderDocVc too: every member of DELETE.REGISTERS that
// /api/1/ can make (ActVc cannot be created through /api/1/)
const DELETABLE = ['IVVc', 'ORVc', 'QTVc', 'CUVc', 'VIVc', 'EPOrderDocVc'] as const;
type Deletable = (typeof DELETABLE)[number];

/**
 * A record of the suite's own to delete: its key and UUID, the UUID as the create answered it, else read back
 * (a record made under the same key later has another UUID); or why there is none (the example then judges
 * nothing).
 */
async function createOwn(ctx: RuleContext, register: Deletable): Promise<{ id: string; uuid: string } | string> {
  let created: { readonly key: string; readonly record: RestRecord | undefined };
  if (register === 'CUVc') {
    const [c] = await createJson(ctx, 'CUVc', [{ Code: uniqueCode(ctx, 'D'), Name: `${ctx.target.runTag} delete` }], {
      format: 'json',
    });
    created = c!;
  } else if (register === 'VIVc') {
    const made = await createPurchaseInvoice(ctx, ['10.00'], 'delete');
    if (typeof made === 'string') return made;
    created = { key: made.serNr, record: undefined };
  } else if (register === 'EPOrderDocVc') {
    const o = await attempt(
      createJson(ctx, 'EPOrderDocVc', [{ Comment: `${ctx.target.runTag} delete` }], { format: 'json' }),
    );
    if (!o.ok) return `the target does not create EPOrderDocVc through /api/1/: ${describeOutcome(o)}`;
    created = o.value[0]!;
  } else created = await createDocumentAnswer(ctx, register, [{ stp: '1' }], 'delete');
  const id = created.key;
  const answered = created.record !== undefined ? fieldValue(created.record, 'UUID') : '';
  return { id, uuid: answered || fieldValue((await readOne(ctx, register, id)) ?? {}, 'UUID') };
}

function readOne(ctx: RuleContext, register: Deletable, id: string) {
  if (register !== 'CUVc') return readBySerNr(ctx, register, id);
  return ctx.client.rest
    .list('CUVc', { 'filter.Code': id } as never, { format: 'json' })
    .then((e) => e.records.find((r) => fieldValue(r, 'Code') === id));
}

/** document registers (§2) with a portal list to find records in. */
const DOCUMENT_REGISTERS = ['IVVc', 'VIVc', 'ORVc', 'QTVc', 'EPOrderDocVc'] as const;

let documented: Promise<{ register: (typeof DOCUMENT_REGISTERS)[number]; ids: string[] }[]> | undefined;

async function documentRecords(ctx: RuleContext) {
  documented ??= (async () => {
    const out: { register: (typeof DOCUMENT_REGISTERS)[number]; ids: string[] }[] = [];
    const pages = await firstPageIds(ctx);
    for (const register of DOCUMENT_REGISTERS) {
      const ids = pages[register];
      if (ids.length > 0) out.push({ register, ids });
    }
    return out;
  })();
  const list = await documented;
  if (list.length === 0) ctx.skip(`the target has no record in ${DOCUMENT_REGISTERS.join(', ')} to print`);
  return list;
}

/**
 * Whether `id` is still on the first page of the portal list it was picked from (true when the list cannot be
 * read: the verdict then stands). A record listed at the start of the run can be deleted since, by another
 * test of the same run or by a person on a staging ERP.
 */
async function stillListed(ctx: RuleContext, register: (typeof DOCUMENT_REGISTERS)[number], id: string) {
  const o = await attempt(ctx.client.portal.list(register, FIRST_PAGE_QUERY as never));
  return !o.ok || o.value.records.some((r) => textOf(r, LIST_KEY[register as ListRegister]) === id);
}

describe('delete and document', () => {
  ruleProperty(
    [
      'PORTAL.DELETE.ACTION',
      'PORTAL.DELETE.REGISTERS',
      'PORTAL.DELETE.RECORD_GONE',
      'PORTAL.DISPATCH.OPERATION_RESULT',
      'PORTAL.DISPATCH.RECORD_ID',
      'PORTAL.ERRORS.SUCCESS_EMPTY_ERRSTR',
    ],
    'delete of a draft the suite made answers errstr="" and the record is gone from /api/1/',
    [fc.constantFrom(...DELETABLE)],
    async (ctx, register) => {
      const own = await createOwn(ctx, register);
      if (typeof own === 'string') return; // nothing of this register to delete: no verdict
      const { id, uuid } = own;
      // a second record made right after it: the next in key order, which a delete that removes one record more
      // (or the neighbouring one instead) takes; it must read back after the delete of the first
      const watch = await createOwn(ctx, register);
      const o = await attempt(ctx.client.portal.delete({ register, id }));
      const res = expectSuccess(o, 'PORTAL.DELETE.REGISTERS', `delete register=${register}&id=${id}`);
      ctx.observe('PORTAL.DISPATCH.RECORD_ID'); // the record id the suite read as a string was taken
      ledgerGone(ctx, register, id);
      await assertPortalXml(ctx, res.raw.text, 'portal-result', 'PORTAL.DELETE.ACTION');
      expectRule(res.errstr === '', 'PORTAL.ERRORS.SUCCESS_EMPTY_ERRSTR', () => `errstr is ${show(res.errstr)}`);
      const after = await readOne(ctx, register, id);
      // a record under the same key made since by another test (keys are reused) has another UUID
      const same = after !== undefined && (uuid === '' || fieldValue(after, 'UUID') === uuid);
      expectRule(
        !same,
        'PORTAL.DELETE.RECORD_GONE',
        () => `${register} ${id} still reads back after delete: ${show(after, 200)}`,
      );
      if (typeof watch !== 'string' && watch.uuid !== '') {
        const other = await readOne(ctx, register, watch.id);
        expectRule(
          other !== undefined && fieldValue(other, 'UUID') === watch.uuid,
          'PORTAL.DELETE.RECORD_GONE',
          () =>
            `delete register=${register}&id=${id} also removed ${register} ${watch.id}, made by this test just before the delete and named by no request`,
        );
        await attempt(deleteRecord(ctx, register, watch.id)); // else the run's cleanup deletes it (ledgered)
      }
    },
    // every delete register in every run
    // (the gate profile without the VIVc and EPOrderDocVc members: each needs a record made for it, a setup the
    // gate's request budget leaves to the full profile)
    {
      numRuns: 8,
      writes: true,
      examples: (ctx) => DELETABLE.slice(0, ctx.profile === 'gate' ? 4 : undefined).map((r) => [r] as [Deletable]),
    },
  );

  ruleProperty(
    [
      'PORTAL.DOCUMENT.ACTION',
      'PORTAL.DOCUMENT.REGISTERS',
      'PORTAL.DOCUMENT.FILE_SHAPE',
      'PORTAL.ATTACH.BASE64_IN_XML',
      'PORTAL.DISPATCH.ACTIONS',
    ],
    'document answers <file> with a name and a base64 PDF, for each document register and language',
    async (ctx) => [
      fc
        .constantFrom(...(await documentRecords(ctx)))
        .chain(({ register, ids }) => fc.record({ register: fc.constant(register), id: fc.constantFrom(...ids) })),
      fc.option(fc.constantFrom('est', 'lat', 'eng'), { nil: undefined }),
    ],
    async (ctx, { register, id }, language) => {
      const o = await attempt(ctx.client.portal.document({ register, id, ...(language ? { language } : {}) }));
      // a refusal for a record that has left the list since it was picked judges nothing: no verdict
      if (!o.ok && !(await stillListed(ctx, register, id))) return;
      const doc = expectSuccess(o, 'PORTAL.DOCUMENT.REGISTERS', `document register=${register}&id=${id}`);
      await assertPortalXml(ctx, doc.raw.text, 'portal-document', 'PORTAL.DOCUMENT.FILE_SHAPE');
      expectRule(doc.name !== '', 'PORTAL.DOCUMENT.FILE_SHAPE', () => `document ${register} ${id}: <name> is empty`);
      expectRule(
        /^[A-Za-z0-9+/=\s]+$/.test(doc.base64) && doc.content.subarray(0, 5).toString('latin1') === '%PDF-',
        'PORTAL.DOCUMENT.FILE_SHAPE',
        () =>
          `document ${register} ${id}: <base64> is not a base64 PDF (starts ${show(doc.content.subarray(0, 8).toString('latin1'))})`,
      );
      // action=document with register and id answered a document element holding the file as base64 in XML
      ctx.observe(['PORTAL.DOCUMENT.ACTION', 'PORTAL.ATTACH.BASE64_IN_XML', 'PORTAL.DISPATCH.ACTIONS']);
    },
    {
      numRuns: 10,
      // a record of every document register that has one, in every run
      examples: async (ctx) =>
        (await documentRecords(ctx)).map(
          ({ register, ids }) =>
            [{ register, id: ids[0]! }, undefined] as [{ register: typeof register; id: string }, undefined],
        ),
    },
  );
});
