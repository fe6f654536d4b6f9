// Row ids of deleterow and insertrow, verified by reading the record through /api/1/ (issue 5 "Id formats";
// portal-action-api.md §2 "Identifier formats", §4 "Delete rows", "Insert row"; record-rest-api.md §2
// "Record": rows with @rownumber).
import type { RestRecord } from '@erpcert/client';
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  confirmed,
  deleteRecord,
  expectRule,
  fieldValue,
  type RuleContext,
  rowsOf,
  ruleProperty,
  ruleTest,
  show,
  violated,
} from '../../src/harness/index.js';
import {
  assertPortalXml,
  attempt,
  createDocument,
  createPurchaseInvoice,
  describeOutcome,
  expectErrorShape,
  expectSuccess,
  type RowSpec,
  readBySerNr,
} from '../../src/harness/portal.js';
import { deleteRowsBlame } from './deleterow-blame.js';

/** A row as the property follows it: its type and the fields the test set (the run-tagged Spec is unique). */
function rowKey(row: Readonly<Record<string, unknown>>): string {
  return ['stp', 'ArtCode', 'Quant', 'Spec'].map((f) => fieldValue(row, f)).join('|');
}

function rowKeys(record: RestRecord | undefined): string[] {
  return record ? rowsOf(record).map(rowKey) : [];
}

const rowSpecs = (min: number, max: number): fc.Arbitrary<RowSpec[]> =>
  fc.array(fc.constantFrom<RowSpec>({ stp: '1' }, { stp: '1' }, { stp: '2' }), { minLength: min, maxLength: max });

/** A fresh tagged draft with `rows`, read back; the test deletes it at the end (the ledger has it anyway). */
async function freshDocument(ctx: RuleContext, register: 'IVVc' | 'ORVc', rows: readonly RowSpec[], what: string) {
  const serNr = await createDocument(ctx, register, rows, what);
  const before = await readBySerNr(ctx, register, serNr);
  if (before === undefined || rowsOf(before).length !== rows.length)
    ctx.skip(
      `${register} ${serNr}, created with ${rows.length} rows, reads back with ${before ? rowsOf(before).length : 'no'} rows`,
    );
  return { serNr, before: rowKeys(before), record: before };
}

/**
 * Why the REST read of this document does not show `stp` faithfully for row type `type`, or undefined when it
 * does: every row the suite created (each with its stp) reads back with it, and one of them has `type`. The
 * portal's insertrow type is judged through this read only then.
 */
function stpUnfaithful(rows: readonly RowSpec[], record: RestRecord | undefined, type: number): string | undefined {
  const got = record ? rowsOf(record).map((r) => fieldValue(r, 'stp')) : [];
  const wrong = rows.findIndex((r, i) => got[i] !== r.stp);
  if (wrong >= 0)
    return `row ${wrong + 1}, created with stp ${rows[wrong]!.stp}, reads back through /api/1/ with stp ${show(got[wrong])}`;
  if (!rows.some((r) => r.stp === String(type)))
    return `no row of the document has stp ${type}, so the REST read of that row type is unconfirmed`;
  return undefined;
}

/** Deletes the record now; a refused delete leaves it to the run's cleanup (it is in the ledger). */
async function cleanUp(ctx: RuleContext, register: string, serNr: string) {
  await attempt(deleteRecord(ctx, register, serNr));
}

/**
 * Documents of the malformed-id property that a refused id left as they were, by their rows: a run with the same
 * rows takes one (with the rows last read) instead of creating its own. A document a run changed is not put
 * back, so every run starts from a document whose rows are the ones read.
 */
const malformedTargets = new Map<string, { serNr: string; before: string[] }>();

async function unchangedDocument(ctx: RuleContext, rows: readonly RowSpec[]) {
  const key = JSON.stringify(rows);
  const kept = malformedTargets.get(key);
  malformedTargets.delete(key);
  return kept ?? (await freshDocument(ctx, 'IVVc', rows, 'malformed'));
}

describe('deleterow and insertrow ids', () => {
  ruleProperty(
    [
      'PORTAL.ROWS.DELETEROW',
      'PORTAL.ROWS.DELETEROW_ID',
      'PORTAL.ROWS.DELETEROW_ROWS_1_BASED',
      'PORTAL.ROWS.DELETEROW_REMOVES',
      'PORTAL.ROWS.DELETEROW_REGISTERS',
      'PORTAL.DISPATCH.OPERATION_RESULT',
      'PORTAL.ERRORS.SUCCESS_EMPTY_ERRSTR',
    ],
    'deleterow id {SerNr}:{rows} (1-based, comma-separated, any order) removes exactly those rows',
    [
      fc.constantFrom('IVVc' as const, 'ORVc' as const),
      rowSpecs(2, 6).chain((rows) =>
        fc.record({
          rows: fc.constant(rows),
          remove: fc.shuffledSubarray(
            rows.map((_, i) => i + 1),
            { minLength: 1, maxLength: rows.length - 1 },
          ),
        }),
      ),
    ],
    async (ctx, register, { rows, remove }) => {
      const { serNr, before } = await freshDocument(ctx, register, rows, 'deleterow');
      const id = `${serNr}:${remove.join(',')}`;
      const o = await attempt(ctx.client.portal.deleterow({ register, id }));
      if (!o.ok) {
        // the id names rows the record has (1 to n), yet it was refused: either deleterow does not work
        // (PORTAL.ROWS.DELETEROW) or the server numbers rows otherwise (a 0-based reading has no row n).
        // Row 1 exists in any reading of a record of two rows or more: a served deleterow of it tells them apart
        const first = `${serNr}:1`;
        const one = await attempt(ctx.client.portal.deleterow({ register, id: first }));
        expectRule(
          !one.ok,
          'PORTAL.ROWS.DELETEROW_ROWS_1_BASED',
          () =>
            `deleterow id=${id} on ${before.length} rows (1-based numbers of rows it has) was refused (${describeOutcome(o)}), while id=${first} was served`,
        );
      }
      const res = expectSuccess(o, 'PORTAL.ROWS.DELETEROW', `deleterow register=${register}&id=${id}`);
      await assertPortalXml(ctx, res.raw.text, 'portal-result', 'PORTAL.DISPATCH.OPERATION_RESULT');
      const after = rowKeys(await readBySerNr(ctx, register, serNr));
      // which rows the numbers named, apart from how many went (deleterow-blame.ts)
      const wrong = deleteRowsBlame(before, after, remove, `deleterow id=${id}`);
      if (wrong) violated(wrong.rule, wrong.detail);
      // the register served deleterow, whose numbers named the listed rows, which alone went (checked above)
      ctx.observe([
        'PORTAL.ROWS.DELETEROW_ROWS_1_BASED',
        'PORTAL.ROWS.DELETEROW_REMOVES',
        'PORTAL.ROWS.DELETEROW_REGISTERS',
      ]);
      await cleanUp(ctx, register, serNr);
    },
    { numRuns: 10, writes: true },
  );

  ruleProperty(
    [
      'PORTAL.ROWS.INSERTROW',
      'PORTAL.ROWS.INSERTROW_ID',
      'PORTAL.ROWS.INSERTROW_AT_BEGINNING',
      'PORTAL.ROWS.INSERTROW_POSITION',
      'PORTAL.ROWS.INSERTROW_ROWTYPE',
      'PORTAL.ROWS.INSERTROW_REGISTERS',
      'PORTAL.DISPATCH.OPERATION_RESULT',
    ],
    'insertrow id {SerNr}:{afterRow}:{rowType} puts a row of stp rowType directly after row afterRow (0: first)',
    [
      rowSpecs(1, 5).chain((rows) =>
        fc.record({
          rows: fc.constant(rows),
          after: fc.integer({ min: 0, max: rows.length }),
          type: fc.constantFrom(1, 2, 3),
        }),
      ),
    ],
    async (ctx, { rows, after, type }) => {
      const { serNr, before, record: created } = await freshDocument(ctx, 'IVVc', rows, 'insertrow');
      const id = `${serNr}:${after}:${type}`;
      const o = await attempt(ctx.client.portal.insertrow({ register: 'IVVc', id }));
      if (!o.ok && after === 0) {
        // afterRow 0 refused: asked apart before the register is blamed; an insert after row 1 of the same record
        // served shows the register served and the beginning refused (§2 "afterRow 0 means insert at the beginning")
        const later = await attempt(ctx.client.portal.insertrow({ register: 'IVVc', id: `${serNr}:1:${type}` }));
        if (later.ok)
          violated(
            'PORTAL.ROWS.INSERTROW_AT_BEGINNING',
            `insertrow register=IVVc&id=${id} was refused (${describeOutcome(o)}), while id=${serNr}:1:${type} on the same record was served`,
          );
      }
      const res = expectSuccess(o, 'PORTAL.ROWS.INSERTROW', `insertrow register=IVVc&id=${id}`);
      ctx.observe('PORTAL.ROWS.INSERTROW_REGISTERS'); // IVVc served insertrow
      await assertPortalXml(ctx, res.raw.text, 'portal-result', 'PORTAL.DISPATCH.OPERATION_RESULT');
      const record = await readBySerNr(ctx, 'IVVc', serNr);
      const afterRows = record ? rowsOf(record) : [];
      const keys = afterRows.map(rowKey);
      const rule = after === 0 ? 'PORTAL.ROWS.INSERTROW_AT_BEGINNING' : 'PORTAL.ROWS.INSERTROW_POSITION';
      expectRule(
        keys.length === before.length + 1,
        rule,
        () => `insertrow id=${id} on ${before.length} rows left ${keys.length} rows: ${show(keys)}`,
      );
      const others = keys.filter((_, i) => i !== after);
      expectRule(
        JSON.stringify(others) === JSON.stringify(before),
        rule,
        () =>
          `insertrow id=${id}: rows ${show(before)} became ${show(keys)}; the new row belongs at position ${after + 1}`,
      );
      const stp = fieldValue(afterRows[after] ?? {}, 'stp');
      // the portal's row type is read through /api/1/: judged only where that read showed stp faithfully
      const unfaithful = stpUnfaithful(rows, created, type);
      if (confirmed(ctx, 'PORTAL.ROWS.INSERTROW_ROWTYPE', unfaithful === undefined, () => unfaithful!))
        expectRule(
          stp === String(type),
          'PORTAL.ROWS.INSERTROW_ROWTYPE',
          () => `insertrow id=${id}: the new row (position ${after + 1}) has stp ${show(stp)}, not ${type}`,
        );
      await cleanUp(ctx, 'IVVc', serNr);
    },
    {
      numRuns: 10,
      writes: true,
      // at the beginning and after a row, in every run (INSERTROW_AT_BEGINNING, INSERTROW_POSITION)
      // a row of the inserted type among the document's own, so that the read of its stp is confirmed; each row
      // type of INSERTROW_ROWTYPE (1, 2, 3) in every run (the gate profile, which judges each rule once: 1 and 2)
      examples: (ctx) => {
        // after a row first: an insert that misplaces every row FAILs POSITION here, AT_BEGINNING in the VIVc test
        const cases: [{ rows: RowSpec[]; after: number; type: number }][] = [
          [{ rows: [{ stp: '2' }, { stp: '1' }], after: 1, type: 2 }],
          [{ rows: [{ stp: '1' }, { stp: '2' }], after: 0, type: 1 }],
        ];
        if (ctx.profile !== 'gate') cases.push([{ rows: [{ stp: '3' }, { stp: '1' }], after: 2, type: 3 }]);
        return cases;
      },
    },
  );

  ruleProperty(
    [
      'PORTAL.ROWS.DELETEROW_ID',
      'PORTAL.ROWS.DELETEROW_ROWS_1_BASED',
      'PORTAL.ROWS.INSERTROW_ID',
      'PORTAL.ROWS.INSERTROW_POSITION',
      'PORTAL.ROWS.INSERTROW_ROWTYPE',
      'PORTAL.ERRORS.SHAPE',
    ],
    'a malformed deleterow or insertrow id changes nothing and is refused with an error',
    [
      rowSpecs(1, 4),
      fc.oneof(
        fc.record({
          action: fc.constant('deleterow' as const),
          form: fc.constantFrom('bare', 'empty', 'zero', 'beyond', 'letter', 'negative', 'no-sernr'),
        }),
        fc.record({
          action: fc.constant('insertrow' as const),
          form: fc.constantFrom('bare', 'two-parts', 'type-0', 'type-9', 'letter', 'beyond', 'negative'),
        }),
      ),
    ],
    async (ctx, rows, { action, form }) => {
      const { serNr, before } = await unchangedDocument(ctx, rows);
      const n = rows.length;
      const ids: Record<string, string> = {
        bare: serNr,
        empty: `${serNr}:`,
        zero: `${serNr}:0`,
        beyond: action === 'deleterow' ? `${serNr}:${n + 1}` : `${serNr}:${n + 1}:1`,
        letter: action === 'deleterow' ? `${serNr}:a` : `${serNr}:a:1`,
        negative: action === 'deleterow' ? `${serNr}:-1` : `${serNr}:-1:1`,
        'no-sernr': ':1',
        'two-parts': `${serNr}:0`,
        'type-0': `${serNr}:0:0`,
        'type-9': `${serNr}:0:9`,
      };
      const id = ids[form]!;
      const o = await attempt(ctx.client.portal[action]({ register: 'IVVc', id }));
      const after = rowKeys(await readBySerNr(ctx, 'IVVc', serNr));
      const rule = action === 'deleterow' ? 'PORTAL.ROWS.DELETEROW_ID' : 'PORTAL.ROWS.INSERTROW_ID';
      // a row number 0 or past the last row is well-formed: accepting it reads the numbers in another base
      // (deleterow rows are 1-based; insertrow afterRow k is after the k-th row, and there is no row n + 1)
      const numbering =
        action === 'deleterow' ? 'PORTAL.ROWS.DELETEROW_ROWS_1_BASED' : 'PORTAL.ROWS.INSERTROW_POSITION';
      expectRule(
        JSON.stringify(after) === JSON.stringify(before),
        form === 'beyond' || (form === 'zero' && action === 'deleterow') ? numbering : rule,
        () =>
          `${action} id=${id} (${form}) on ${n} rows changed them: ${show(before)} -> ${show(after)} (${describeOutcome(o)})`,
      );
      expectErrorShape(o, 'PORTAL.ERRORS.SHAPE', `${action} id=${id} (${form}) on a record of ${n} rows`);
      // unchanged, as read: the next run with the same rows refuses its malformed id on it (the ledger has it)
      malformedTargets.set(JSON.stringify(rows), { serNr, before: after });
    },
    {
      numRuns: 12,
      writes: true,
      // each rule in every run: a malformed deleterow id, a row beyond the last (1-based), a malformed insertrow id
      examples: [
        [[{ stp: '1' }], { action: 'deleterow', form: 'letter' }],
        [[{ stp: '1' }], { action: 'deleterow', form: 'beyond' }],
        [[{ stp: '1' }], { action: 'insertrow', form: 'type-9' }],
      ],
    },
  );

  // VIVc, the other register that both deleterow and insertrow serve (§2 "Registers per operation"), in every
  // run: a purchase invoice of the suite's own with two rows (Comment tagged), a row inserted after row 1 and
  // deleted again as row 2, then a row inserted at the beginning. The other members (ErpExternalSignersVc, ErpSignSessVc, EPOrderDocVc rows) have no
  // documented write that makes a record with rows to work on.
  ruleTest(
    [
      'PORTAL.ROWS.DELETEROW_REGISTERS',
      'PORTAL.ROWS.INSERTROW_REGISTERS',
      'PORTAL.ROWS.DELETEROW_REMOVES',
      'PORTAL.ROWS.DELETEROW_ROWS_1_BASED',
      'PORTAL.ROWS.INSERTROW_AT_BEGINNING',
      'PORTAL.ROWS.INSERTROW_POSITION',
    ],
    'deleterow and insertrow serve VIVc: a purchase invoice of the suite gains a row after row 1, loses row 2, then gains a first row',
    async (ctx) => {
      // the gate profile judges each rule once, and the IVVc properties above judge these four
      if (ctx.profile === 'gate') ctx.skip('gate profile: the VIVc member examples run in the full profile');
      const made = await createPurchaseInvoice(ctx, ['10.00', '20.00'], 'vivc row');
      if (typeof made === 'string') ctx.skip(made);
      const serNr = made.serNr;
      const comments = async () =>
        rowsOf((await readBySerNr(ctx, 'VIVc', serNr)) ?? {}).map((r) => fieldValue(r, 'Comment'));
      const made2 = await comments();
      if (made2.length !== 2) ctx.skip(`VIVc ${serNr}, created with 2 rows, reads back with ${made2.length}`);
      // a row inserted between the two (afterRow 1), then removed again as row 2
      const mid = await attempt(ctx.client.portal.insertrow({ register: 'VIVc', id: `${serNr}:1:1` }));
      expectSuccess(mid, 'PORTAL.ROWS.INSERTROW_REGISTERS', `insertrow register=VIVc&id=${serNr}:1:1`);
      const before = await comments();
      expectRule(
        before.length === 3 && before[0] === made2[0] && before[2] === made2[1],
        'PORTAL.ROWS.INSERTROW_POSITION',
        () => `insertrow VIVc id=${serNr}:1:1 on rows ${show(made2)} left ${show(before)}`,
      );
      const del = await attempt(ctx.client.portal.deleterow({ register: 'VIVc', id: `${serNr}:2` }));
      expectSuccess(del, 'PORTAL.ROWS.DELETEROW_REGISTERS', `deleterow register=VIVc&id=${serNr}:2`);
      const left = await comments();
      // which row went is the numbering's (row 2 is the second: ROWS_1_BASED), how many went the removal's, as in
      // the IVVc and ORVc property above (deleterow-blame.ts)
      const wrong = deleteRowsBlame(before, left, [2], `deleterow VIVc id=${serNr}:2`);
      if (wrong) violated(wrong.rule, wrong.detail);
      ctx.observe(['PORTAL.ROWS.DELETEROW_ROWS_1_BASED', 'PORTAL.ROWS.DELETEROW_REMOVES']);
      const ins = await attempt(ctx.client.portal.insertrow({ register: 'VIVc', id: `${serNr}:0:1` }));
      // VIVc served the insert after row 1 above: a refusal of afterRow 0 is the beginning's, not the register's
      expectRule(
        ins.ok,
        'PORTAL.ROWS.INSERTROW_AT_BEGINNING',
        () =>
          `insertrow register=VIVc&id=${serNr}:0:1 was refused (${describeOutcome(ins)}), while id=${serNr}:1:1 was served`,
      );
      const after = await comments();
      expectRule(
        after.length === left.length + 1 && JSON.stringify(after.slice(1)) === JSON.stringify(left),
        'PORTAL.ROWS.INSERTROW_AT_BEGINNING',
        () => `insertrow VIVc id=${serNr}:0:1 on rows ${show(left)} left ${show(after)}`,
      );
      await cleanUp(ctx, 'VIVc', serNr);
    },
    { writes: true },
  );
});
