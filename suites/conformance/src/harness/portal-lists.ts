/**
 * Portal list queries for the properties (portal-action-api.md §1 "A list query has no action", §2 "Paged
 * list", §4 rule 8): the list registers, how a record of each is told apart, field text, and the judgement
 * of answers that other tests may change while a property reads them.
 */
import type { PortalList, PortalRecord } from '@erpcert/client';
import { sequenceOf } from './assert/envelope.js';
import { type Decisiveness, observe } from './observations.js';
import type { RuleContext } from './rule-test.js';
import { violated } from './violation.js';

/** "Registers per operation", list queries (§2); Kanban's response is not shown (rule 14). */
export const LIST_REGISTERS = [
  'INVc',
  'CUVc',
  'ActVc',
  'IVVc',
  'VIVc',
  'StockTakeVc',
  'ORVc',
  'QTVc',
  'EPOrderDocVc',
  'ARVc',
  'APVc',
] as const;

/** A list register with a paged shape (Kanban left out). */
export type ListRegister = (typeof LIST_REGISTERS)[number];

/** ARVc and APVc answer `<data page total>` (§2 "Paged list (ARVc, APVc)"). */
export function isArAp(register: string): boolean {
  return register === 'ARVc' || register === 'APVc';
}

/**
 * The field that names a record of a list: the REST key of the register (record-rest-api.md §2), InvoiceNr
 * for ARVc and SerNr for APVc (portal §2 record fields). Rows of other lists may not carry it (rule 14): then
 * records cannot be told apart and the properties say so.
 */
export const LIST_KEY: Readonly<Record<ListRegister, string>> = {
  INVc: 'Code',
  CUVc: 'Code',
  ActVc: 'SerNr',
  IVVc: 'SerNr',
  VIVc: 'SerNr',
  StockTakeVc: 'SerNr',
  ORVc: 'SerNr',
  QTVc: 'SerNr',
  EPOrderDocVc: 'SerNr',
  ARVc: 'InvoiceNr',
  APVc: 'SerNr',
};

/** Fields the docs name for list records (§2 "Paged list", "ARVc/APVc record fields"). */
export const LIST_FIELDS: Readonly<Partial<Record<ListRegister, readonly string[]>>> = {
  IVVc: ['SerNr', 'InvDate', 'CustCode', 'Sum4'],
  ARVc: ['InvoiceNr', 'OfficialSerNr', 'RefStr', 'RVal', 'ARCurncyCode', 'CustCode', 'CustName', 'DueDate'],
  APVc: ['SerNr', 'InvoiceNr', 'RefStr', 'RVal', 'CurncyCode', 'VECode', 'VEName', 'DueDate'],
};

/** Search fields of ARVc / APVc list queries (§4 rule 8), besides the amount (RVal). */
export const SEARCH_FIELDS: Readonly<Record<'ARVc' | 'APVc', readonly string[]>> = {
  ARVc: ['InvoiceNr', 'CustCode', 'CustName', 'RefStr', 'OfficialSerNr'],
  APVc: ['SerNr', 'VECode', 'VEName', 'RefStr', 'InvoiceNr'],
};

/** The text of a field of a list or lookup record ('' when absent or not text). */
export function textOf(record: PortalRecord, field: string): string {
  const v = record[field];
  return typeof v === 'string' ? v : '';
}

/** True when the record carries the field as an element (an empty element counts). */
export function hasField(record: PortalRecord, field: string): boolean {
  return record[field] !== undefined;
}

/** The identity of a list record: its key field ({@link LIST_KEY}), or undefined when it does not carry one. */
export function listIdentity(register: ListRegister, record: PortalRecord): string | undefined {
  const key = textOf(record, LIST_KEY[register]);
  return key !== '' ? key : undefined;
}

/** The record count a list answer states: `count`, or `total` for ARVc/APVc. */
export function statedCount(register: string, list: PortalList): number | undefined {
  return isArAp(register) ? list.total : list.count;
}

/** How many records page `page` holds when `count` records are paged by `size` (0 past the last page). */
export function recordsOnPage(count: number, page: number, size: number): number {
  return Math.max(0, Math.min(size, count - size * (page - 1)));
}

/**
 * True when a list answer is paged by `size` records a page, by its own statements: the records it holds
 * and (but for ARVc/APVc, which state no totalpages) `totalpages` agree with its stated count and page.
 * Tells a server that pages by another size than the `perpage` asked (the perpage checks' business) from
 * an answer whose attributes contradict its own records (the paged shape's business).
 */
export function pagedBy(register: string, list: PortalList, size: number): boolean {
  const count = statedCount(register, list);
  if (count === undefined || list.page === undefined || !Number.isInteger(size) || size < 1) return false;
  if (list.records.length !== recordsOnPage(count, list.page, size)) return false;
  return isArAp(register) || list.totalpages === Math.ceil(count / size);
}

/**
 * The current REST sequence number of the company (record-rest-api.md §2 data@sequence, else the §4 rule 6
 * header: {@link sequenceOf}), or undefined.
 */
export async function currentSequence(ctx: RuleContext): Promise<bigint | undefined> {
  try {
    const env = await ctx.client.rest.list('PDVc', { limit: 1 } as never, { format: 'json' });
    return sequenceOf(env);
  } catch {
    return undefined;
  }
}

/** A difference that breaks another rule than the one `judgeQuiet` judges (the check found what broke it). */
export interface QuietProblem {
  readonly rule: string;
  readonly detail: string;
}

/** What {@link judgeQuiet} tells a careful attempt: the REST sequence read just before it. */
export interface QuietRead {
  readonly sequence: bigint | undefined;
}

/**
 * Runs `attempt` (the difference from what the rule demands, undefined when the answer meets it, or null when
 * there was nothing to judge; a `QuietProblem` when the difference breaks another rule, which it names) and
 * reports a difference as a violation of `rule` (or the problem's rule) only when no write happened
 * on the target while it ran (the REST sequence did not move; other tests write at the same time). The first
 * attempt is optimistic: it gets no `QuietRead` and no sequence is read around it, since most answers meet the
 * rule (one request fewer each). A difference it shows is tried again carefully, between two sequence reads
 * (`attempt` gets the first, so that it need not read it again), at most `tries` times; a difference seen
 * while the data moved is tried again. An answer that meets the rule counts one observation of it, decisive as
 * `how` says after the attempt (observations.ts; the parameter rules must say). Returns
 * false when the target never held still or nothing was judged.
 */
export async function judgeQuiet(
  ctx: RuleContext,
  rule: string,
  attempt: (quiet?: QuietRead) => Promise<string | QuietProblem | undefined | null>,
  tries = 4,
  how?: () => Decisiveness | undefined,
): Promise<boolean> {
  const optimistic = await attempt();
  if (optimistic === null) return false;
  if (optimistic === undefined) {
    observe(rule, 1, how?.());
    return true;
  }
  for (let i = 0; i < tries; i++) {
    const before = await currentSequence(ctx);
    const problem = await attempt({ sequence: before });
    if (problem === null) return false;
    if (problem === undefined) {
      observe(rule, 1, how?.());
      return true;
    }
    const after = await currentSequence(ctx);
    if (before === undefined || after === undefined || before === after)
      typeof problem === 'string' ? violated(rule, problem) : violated(problem.rule, problem.detail);
  }
  return false;
}
