import { runHeaderTriggers, runRowTriggers } from '../../business/auto-fill.js';
import { type Draft, type Explicit, lookup, type WriteContext } from '../../business/draft.js';
import { computeSums } from '../../business/sums.js';
import type { PortalContext } from '../handler.js';
import type { Wf } from '../workflow/wf-context.js';

/** One field trigger being simulated: the record in the client's form, the field that changed, the warnings. */
export interface TriggerRun {
  readonly ctx: PortalContext;
  /** What the business layer (business/) needs. */
  readonly write: WriteContext;
  readonly wf: Wf;
  readonly register: string;
  /** The record: every header field of the register (plus any the client sent), rows with every row field. */
  readonly d: Draft;
  /** Only the changed field is explicit: the triggers may overwrite everything that depends on it. */
  readonly ex: Explicit;
  readonly field: string;
  /** The row of a row field; -1 for a header field. */
  readonly row: number;
  /** Warnings (`messages[].description`; success stays true, portal-action-api.md §7). */
  readonly messages: string[];
}

/** An effect of the catalogue (trigger-catalogue.ts). */
export type Effect = (t: TriggerRun) => void;

/** Adds a warning once. */
export function warn(t: TriggerRun, text: string): void {
  if (!t.messages.includes(text)) t.messages.push(text);
}

/** The changed value. */
export function changed(t: TriggerRun): string {
  return (t.row < 0 ? t.d.fields[t.field] : t.d.rows[t.row]![t.field]) ?? '';
}

/** The row being changed. */
export function rowOf(t: TriggerRun): Record<string, string> {
  return t.d.rows[t.row]!;
}

/** Header fields of another register's record, or undefined (empty keys find nothing). */
export function find(t: TriggerRun, register: string, ...key: string[]): Readonly<Record<string, string>> | undefined {
  return lookup(t.write, register, ...key);
}

/** Runs the REST auto-fill triggers of the changed field (business/auto-fill.ts): one copy of those rules. */
export function business(t: TriggerRun, field = t.field, ex = t.ex): void {
  if (t.row < 0) runHeaderTriggers(t.write, t.register, t.d, ex, new Set([field]));
  else runRowTriggers(t.write, t.register, t.d, ex, t.row, new Set([field]));
}

/** Recomputes the register's sums (business/sums.ts): row Sum, vRebate back-calculation, Sum0..Sum4, ... */
export function sums(t: TriggerRun): void {
  computeSums(t.register, t.d, t.ex);
}

/** The date a sales document is dated (discount validity): InvDate, OrdDate or QTDate. */
export function documentDate(t: TriggerRun): string {
  return t.d.fields.InvDate || t.d.fields.OrdDate || t.d.fields.QTDate || t.wf.today;
}
