/**
 * The commands of the stateful test (fast-check `fc.commands` with `asyncModelRun`): create (REST form
 * POST), update (PATCH), delete (portal delete), convert (quotation -> order -> invoice), un-confirm, and
 * the reads that compare the target with the model (REST list by filter, the sequence feed).
 */
import { isErpClientError, type RestEnvelope, type RestRecord } from '@erpcert/client';
import type fc from 'fast-check';
import {
  accepted,
  assertListBody,
  confirmed,
  createForm,
  expectRule,
  fieldValue,
  isRefusalAnswer,
  ledgerCreated,
  ledgerGone,
  show,
} from '../../src/harness/index.js';
import {
  attempt,
  blameRefusedRegister,
  currentSequence,
  describeOutcome,
  taggedSpec,
} from '../../src/harness/portal.js';
import { answerSequence, type DocModel, type DocReal, type DocRegister, itemsOf, type ModelDoc } from './model.js';

type Cmd = fc.AsyncCommand<DocModel, DocReal>;

/**
 * A record read back by `filter.SerNr`: only the matching side of the filter is seen, which a server ignoring the
 * filter returns too (FILTER_EXACT is judged decisively in properties/rest/query.prop.ts).
 */
const READ_BACK_ONE_SIDE = {
  decisive: false,
  missing: 'records the filter leaves out (the model reads one record back by filter.SerNr)',
} as const;
/** The smaller of two sequence numbers (bigint: Math.min does not take them). */
function smaller(a: bigint, b: bigint): bigint {
  if (b < a) return b;
  return a;
}

/** The records of a register with this SerNr (REST, filter.SerNr, JSON). */
async function bySerNr(r: DocReal, register: string, serNr: string): Promise<RestRecord[]> {
  const env = await accepted(
    'REST.QUERY.FILTER_EXACT',
    r.ctx.client.rest.list(register, { 'filter.SerNr': serNr } as never, { format: 'json' }),
    `GET /api/1/${register}?filter.SerNr=${serNr}`,
  );
  return env.records.filter((x) => fieldValue(x, 'SerNr') === serNr);
}

/** The record of a model document: the one with its SerNr and, where known, its UUID (keys are reused). */
async function readDoc(r: DocReal, d: ModelDoc): Promise<RestRecord | undefined> {
  const found = await bySerNr(r, d.register, d.serNr);
  return found.find((x) => d.uuid === '' || fieldValue(x, 'UUID') === d.uuid);
}

/** The write moved the sequence past every earlier write of the run (REST.SEQ.MONOTONIC). */
function advanced(m: DocModel, seq: bigint | undefined, what: string): void {
  if (seq === undefined) return;
  expectRule(
    m.lastSequence === undefined || seq > m.lastSequence,
    'REST.SEQ.MONOTONIC',
    () => `${what} answered sequence ${seq}, an earlier write of the run ${m.lastSequence}`,
  );
  m.lastSequence = seq;
}

/** Create a document with a form POST (record-rest-api.md §4 "Create records, form"). */
export class CreateCmd implements Cmd {
  constructor(
    readonly register: DocRegister,
    readonly quants: readonly number[],
    readonly confirmed: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: DocModel, r: DocReal): Promise<void> {
    const confirmed = this.confirmed && r.unokUser !== undefined && this.register !== 'QTVc';
    const rows = this.quants.map((q, i) => ({
      ArtCode: r.items[i % r.items.length]!,
      Quant: String(q),
      ...(this.register === 'QTVc' ? {} : { Spec: taggedSpec(r.ctx, 'model', i + 1) }),
    }));
    const before = await currentSequence(r.ctx);
    const header = { CustCode: r.customer, ...(confirmed ? { OKFlag: '1' } : {}) };
    const made = await createForm(r.ctx, this.register, header, rows, { format: 'json' });
    advanced(m, answerSequence(made.envelope), `POST ${this.register}`);
    const record = (await bySerNr(r, this.register, made.key)).at(-1);
    expectRule(
      record !== undefined,
      'REST.WRITE.CREATE_FORM',
      () => `${this.register} ${made.key} answered by the POST does not read back`,
    );
    // the item rows sent are all there; the model keeps them in the order the server holds them, which is
    // REST.WRITE.FORM_ROW_INDEX's to judge (later PATCHes address rows by that order)
    const sent = this.quants.map((q, i) => `${r.items[i % r.items.length]} x ${q}`);
    const stored = itemsOf(record);
    expectRule(
      JSON.stringify([...stored].sort()) === JSON.stringify([...sent].sort()),
      'REST.WRITE.CREATE_FORM',
      () => `${this.register} ${made.key} reads back with item rows ${show(stored)}, sent ${show(sent)}`,
    );
    expectRule(
      !m.live((d) => d.register === this.register).some((d) => d.serNr === made.key),
      'REST.WRITE.CREATE_FORM',
      () => `POST ${this.register} answered SerNr ${made.key}, which a live record of the run already has`,
    );
    m.docs.push({
      register: this.register,
      serNr: made.key,
      uuid: fieldValue(record, 'UUID'),
      custCode: r.customer,
      items: stored,
      okFlag: confirmed ? '1' : '0',
      live: true,
      writtenAfter: before,
      writeOrder: m.nextWrite(),
    });
  }
  toString(): string {
    return `create ${this.register} ${this.confirmed ? 'confirmed ' : ''}[${this.quants.join(',')}]`;
  }
}

/** Change one row's Quant with PATCH (§4 "Update record"). Drafts only (what a confirmed one does is not shown). */
export class UpdateCmd implements Cmd {
  constructor(
    readonly pick: number,
    readonly row: number,
    readonly quant: number,
  ) {}
  check(m: Readonly<DocModel>): boolean {
    return m.docs.some((d) => d.live && d.okFlag === '0');
  }
  async run(m: DocModel, r: DocReal): Promise<void> {
    const d = m.pick(this.pick, (x) => x.live && x.okFlag === '0')!;
    const k = this.row % d.items.length;
    // always a change: a PATCH to the value the row holds could not show whether the PATCH wrote anything
    const held = Number(d.items[k]!.split(' x ')[1]);
    const quant = this.quant === held ? (this.quant % 20) + 1 : this.quant;
    const rows = d.items.map((_, i) => (i === k ? { Quant: String(quant) } : {}));
    const before = await currentSequence(r.ctx);
    const o = await attempt(r.ctx.client.rest.update(d.register, d.serNr, {}, rows, { format: 'json' }));
    expectRule(
      o.ok,
      'REST.WRITE.UPDATE_PATCH',
      () => `PATCH ${d.register}/${d.serNr} row ${k} Quant=${quant}: ${describeOutcome(o)}`,
    );
    const want = d.items.map((x, i) => (i === k ? `${x.split(' x ')[0]} x ${quant}` : x));
    // the change is read back before the sequence is judged: a PATCH that changed nothing need not move it
    const got = await readDoc(r, d);
    expectRule(
      got !== undefined,
      'REST.QUERY.FILTER_EXACT',
      () => `filter.SerNr=${d.serNr} on ${d.register} does not return the record`,
      READ_BACK_ONE_SIDE,
    );
    expectRule(
      JSON.stringify(itemsOf(got)) === JSON.stringify(want),
      'REST.WRITE.UPDATE_PATCH',
      () =>
        `PATCH ${d.register}/${d.serNr} set_row_field.${k}.Quant=${quant}: rows ${show(itemsOf(got))}, expected ${show(want)}`,
    );
    if (o.value.hasEnvelope) advanced(m, answerSequence(o.value), `PATCH ${d.register}/${d.serNr}`);
    d.items = want;
    d.writtenAfter = before;
    d.writeOrder = m.nextWrite();
  }
  toString(): string {
    return `update #${this.pick} row ${this.row} Quant=${this.quant}`;
  }
}

/** Delete a draft with the portal (portal §4 "Delete record"). */
export class DeleteCmd implements Cmd {
  constructor(readonly pick: number) {}
  check(m: Readonly<DocModel>): boolean {
    return m.docs.some((d) => d.live && d.okFlag === '0');
  }
  async run(m: DocModel, r: DocReal): Promise<void> {
    const d = m.pick(this.pick, (x) => x.live && x.okFlag === '0')!;
    const before = await currentSequence(r.ctx);
    const o = await attempt(r.ctx.client.portal.delete({ register: d.register, id: d.serNr }));
    blameRefusedRegister(o, `delete ${d.register} ${d.serNr}`); // a documented register refused: DELETE.REGISTERS
    expectRule(o.ok, 'PORTAL.DELETE.ACTION', () => `delete ${d.register} ${d.serNr}: ${describeOutcome(o)}`);
    ledgerGone(r.ctx, d.register, d.serNr);
    d.live = false;
    d.deletedAfter = before;
  }
  toString(): string {
    return `delete #${this.pick}`;
  }
}

const CONVERSIONS = {
  QTVc: [
    ['ORVc', 'createsalesorderfromquotation'],
    ['IVVc', 'createslinvoicefromquotation'],
  ],
  ORVc: [['IVVc', 'createslinvoicefromorder']],
} as const;

/** The rule of each conversion (portal §4 "Create sales order from quotation", ...). */
const CONVERT_RULE = {
  createsalesorderfromquotation: 'PORTAL.CONVERT.QUOTATION_TO_ORDER',
  createslinvoicefromquotation: 'PORTAL.CONVERT.QUOTATION_TO_INVOICE',
  createslinvoicefromorder: 'PORTAL.CONVERT.ORDER_TO_INVOICE',
} as const;

/** Convert a quotation to an order or invoice, an order to an invoice (portal §4). */
export class ConvertCmd implements Cmd {
  constructor(
    readonly pick: number,
    readonly which: number,
  ) {}
  check(m: Readonly<DocModel>): boolean {
    return m.docs.some((d) => d.live && d.register !== 'IVVc');
  }
  async run(m: DocModel, r: DocReal): Promise<void> {
    if (r.convertUser === undefined) return; // no usercode: conversions cannot be asked (the test says so)
    const d = m.pick(this.pick, (x) => x.live && x.register !== 'IVVc')!;
    const options = CONVERSIONS[d.register as 'QTVc' | 'ORVc'];
    const [to, action] = options[this.which % options.length]!;
    const params = { id: d.serNr, usercode: r.convertUser, ...(d.register === 'QTVc' ? { regname: 'QTVc' } : {}) };
    const before = await currentSequence(r.ctx);
    const o = await attempt(r.ctx.client.portal.call(`action_${action}`, params as never));
    // The docs name no precondition beyond the source (§4): a second conversion of the same source to the same
    // register may be refused or may make another record; only the first one must succeed.
    const again = d.convertedTo?.includes(to) === true;
    if (again && !o.ok && o.error.kind === 'erp') return;
    // a refusal of a conversion the docs accept (its source exists) is the conversion's own rule, as in the
    // conversions test: no record was asked to exist, so NEWDATA_EXISTS is not what broke
    expectRule(
      o.ok || !isRefusalAnswer(o.error),
      CONVERT_RULE[action],
      () => `${action} ${show(params)} of a live ${d.register} was refused: ${describeOutcome(o)}`,
    );
    expectRule(o.ok, 'PORTAL.CONVERT.NEWDATA_EXISTS', () => `${action} ${show(params)}: ${describeOutcome(o)}`);
    const newdata = (o.value as { newdata?: string }).newdata ?? '';
    d.converted = true; // a conversion may mark its source: its @sequence no longer tells the order of our writes
    d.convertedTo = [...(d.convertedTo ?? []), to];
    // a missing or empty newdata names no record to look for: the result shape's (PORTAL.CONVERT.RESULT_SHAPE,
    // judged by the conversions test), not NEWDATA_EXISTS'
    if (!confirmed(r.ctx, 'PORTAL.CONVERT.NEWDATA_EXISTS', newdata !== '', () => `${action} answered no newdata`))
      return;
    ledgerCreated(r.ctx, to, newdata);
    const record = (await bySerNr(r, to, newdata)).at(-1);
    expectRule(
      record !== undefined,
      'PORTAL.CONVERT.NEWDATA_EXISTS',
      () => `${action} answered newdata=${newdata}, which ${to} lacks`,
    );
    m.docs.push({
      register: to,
      serNr: newdata,
      uuid: fieldValue(record, 'UUID'),
      custCode: d.custCode,
      items: [...d.items],
      okFlag: fieldValue(record, 'OKFlag') === '1' ? '1' : '0',
      live: true,
      writtenAfter: before,
      writeOrder: m.nextWrite(),
    });
  }
  toString(): string {
    return `convert #${this.pick} (${this.which})`;
  }
}

/** Un-confirm a confirmed document (portal §4 "Un-confirm record"). */
export class UnokCmd implements Cmd {
  constructor(readonly pick: number) {}
  check(m: Readonly<DocModel>): boolean {
    return m.docs.some((d) => d.live && d.okFlag === '1' && d.register !== 'QTVc');
  }
  async run(m: DocModel, r: DocReal): Promise<void> {
    const d = m.pick(this.pick, (x) => x.live && x.okFlag === '1' && x.register !== 'QTVc')!;
    const before = await currentSequence(r.ctx);
    const o = await attempt(
      r.ctx.client.portal.unokrecord({ regname: d.register, id: d.serNr, usercode: r.unokUser! }),
    );
    blameRefusedRegister(o, `unokrecord ${d.register} ${d.serNr}`); // a documented register refused: UNOK.REGISTERS
    expectRule(o.ok, 'PORTAL.UNOK.TO_DRAFT', () => `unokrecord ${d.register} ${d.serNr}: ${describeOutcome(o)}`);
    d.okFlag = '0';
    d.writtenAfter = before;
    d.writeOrder = m.nextWrite();
  }
  toString(): string {
    return `unok #${this.pick}`;
  }
}

/** Read one document (live or deleted) through `/api/1/` by filter and compare it with the model. */
export class ReadCmd implements Cmd {
  constructor(readonly pick: number) {}
  check(m: Readonly<DocModel>): boolean {
    return m.docs.length > 0;
  }
  async run(m: DocModel, r: DocReal): Promise<void> {
    const d = m.pick(this.pick, () => true)!;
    const got = await readDoc(r, d);
    if (!d.live) {
      expectRule(
        got === undefined,
        'PORTAL.DELETE.RECORD_GONE',
        () => `${d.register} ${d.serNr}, deleted, still reads back: ${show(got, 200)}`,
      );
      return;
    }
    expectRule(
      got !== undefined,
      'REST.QUERY.FILTER_EXACT',
      () => `filter.SerNr=${d.serNr} on ${d.register} does not return the record`,
      READ_BACK_ONE_SIDE,
    );
    const problems: string[] = [];
    if (fieldValue(got, 'CustCode') !== d.custCode)
      problems.push(`CustCode ${show(fieldValue(got, 'CustCode'))}, model ${d.custCode}`);
    if (fieldValue(got, 'OKFlag') !== '' && fieldValue(got, 'OKFlag') !== d.okFlag)
      problems.push(`OKFlag ${show(fieldValue(got, 'OKFlag'))}, model ${d.okFlag}`);
    if (JSON.stringify(itemsOf(got)) !== JSON.stringify(d.items))
      problems.push(`rows ${show(itemsOf(got))}, model ${show(d.items)}`);
    expectRule(
      problems.length === 0,
      'REST.WRITE.UPDATE_PATCH',
      () => `${d.register} ${d.serNr}: ${problems.join('; ')}`,
    );
  }
  toString(): string {
    return `read #${this.pick}`;
  }
}

/**
 * One read of the sequence feed (`updates_after` or `deletes_after`); undefined when the target answers 404
 * without an ERP error: real servers do so for a register without a synchronisation index (DESIGN.md).
 */
async function feedRead(
  r: DocReal,
  register: DocRegister,
  query: Record<string, string>,
): Promise<RestEnvelope<string> | undefined> {
  try {
    return await r.ctx.client.rest.list(register, query as never);
  } catch (err) {
    if (isErpClientError(err) && err.kind === 'http-status' && err.status === 404) return undefined;
    throw err;
  }
}

/** Read the sequence feed of each register of the run and compare it with the model (§4 rule 6, §6). */
export class FeedCmd implements Cmd {
  check(m: Readonly<DocModel>): boolean {
    return m.docs.some((d) => d.writtenAfter !== undefined);
  }
  async run(m: DocModel, r: DocReal): Promise<void> {
    for (const register of ['QTVc', 'ORVc', 'IVVc'] as const) {
      const docs = m.docs.filter(
        (d) => d.register === register && (d.live ? d.writtenAfter : d.deletedAfter) !== undefined,
      );
      if (docs.length === 0) continue;
      const since = docs.map((d) => (d.live ? d.writtenAfter! : d.deletedAfter!)).reduce(smaller);
      // the feed's two reads (§4 rule 6), each as one list: the updates answer is a list body, validated before
      // it is judged (a broken envelope FAILs the rule that owns the broken part, not the feed's rules)
      const updates = await feedRead(r, register, { updates_after: String(since) });
      const deletes = updates && (await feedRead(r, register, { deletes_after: String(since) }));
      if (!updates || !deletes) continue; // no synchronisation index for the register on this target
      await assertListBody(register, updates);
      const updated = updates.records as RestRecord[];
      const deleted = deletes.records as Record<string, unknown>[];
      const seqs: [ModelDoc, bigint][] = [];
      for (const d of docs.filter((x) => x.live && !x.converted)) {
        const rec = updated.find(
          (u) => fieldValue(u, 'SerNr') === d.serNr && (d.uuid === '' || fieldValue(u, 'UUID') === d.uuid),
        );
        expectRule(
          rec !== undefined,
          'REST.SEQ.UPDATES_AFTER',
          () => `updates_after=${since} on ${register} lacks ${d.serNr}, written after ${d.writtenAfter}`,
          // only the side written after N is read here: a server ignoring updates_after lists these too
          { decisive: false, missing: 'a record written before the sequence number, left out of the feed' },
        );
        const seq = BigInt(fieldValue(rec, '@sequence') || '0');
        expectRule(
          seq > d.writtenAfter!,
          'REST.SEQ.CHANGE_FEED',
          () => `${register} ${d.serNr} written after ${d.writtenAfter} has @sequence ${seq}`,
        );
        seqs.push([d, seq]);
      }
      seqs.sort((a, b) => a[0].writeOrder - b[0].writeOrder);
      for (let i = 1; i < seqs.length; i++)
        expectRule(
          seqs[i]![1] > seqs[i - 1]![1],
          'REST.SEQ.MONOTONIC',
          () =>
            `${register} ${seqs[i]![0].serNr} was written after ${seqs[i - 1]![0].serNr} but has @sequence ${seqs[i]![1]} <= ${seqs[i - 1]![1]}`,
        );
      for (const d of docs.filter((x) => !x.live)) {
        const listed = deleted.some((x) => JSON.stringify(x).includes(d.serNr));
        // a record the delete left in place is PORTAL.DELETE.RECORD_GONE's break: the feed cannot list it
        if (!listed && (await readDoc(r, d)) !== undefined) continue;
        expectRule(
          listed,
          'REST.SEQ.DELETES_AFTER',
          () =>
            `deletes_after=${since} on ${register} does not report ${d.serNr}, deleted after ${d.deletedAfter}: ${show(deleted, 200)}`,
          // a record deleted after N is what a server ignoring deletes_after leaves out of its answer
          { decisive: true },
        );
      }
    }
  }
  toString(): string {
    return 'feed';
  }
}
