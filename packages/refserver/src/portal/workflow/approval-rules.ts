import type { RecordStore } from '../../store/record-store.js';
import type { StoredRecord } from '../../store/record-table.js';
import { formatAmount, isDecimal, parseDecimal } from '../../values/decimal.js';
import { ensureWorkflowTables } from './workflow-tables.js';

/**
 * Approval rules (README "Portal action API", "Approval workflow"). The docs name the status codes
 * (portal-action-api.md §3) but not where rules live; the reference server keeps them in
 * `wf_approval_rules`: per company and register, numbered steps, each with an optional minimum amount and
 * its approvers (user codes or user groups, see persons.ts). A record needs the steps whose minimum it
 * reaches; a register with rules but no step for the record is "Not required" (code 1).
 */
export interface ApprovalRule {
  readonly register: string;
  /** 1, 2, ...: the order in which steps are decided. */
  readonly step: number;
  /** The amount from which the step applies; empty: always. */
  readonly minAmount: string;
  /** Comma-separated user codes and user groups. */
  readonly approvers: string;
}

/** The amount an approval rule compares, per register (documents without one compare nothing). */
export const AMOUNT_FIELDS: Readonly<Record<string, string>> = {
  IVVc: 'Sum4',
  ORVc: 'Sum4',
  QTVc: 'Sum4',
  VIVc: 'PayVal',
  OPVc: 'CurPayVal',
};

/** Adds (or replaces) a rule step. */
export function addApprovalRule(store: RecordStore, company: number, rule: ApprovalRule): void {
  ensureWorkflowTables(store.db);
  if (rule.minAmount !== '' && !isDecimal(rule.minAmount))
    throw new Error(`approval rule ${rule.register} step ${rule.step}: min amount "${rule.minAmount}" is no number`);
  store.db
    .prepare(
      'INSERT OR REPLACE INTO wf_approval_rules (company, register, step, min_amount, approvers) VALUES (?, ?, ?, ?, ?)',
    )
    .run(company, rule.register, rule.step, rule.minAmount, rule.approvers);
}

/** The rule steps of a register, by step. */
export function rulesFor(store: RecordStore, company: number, register: string): ApprovalRule[] {
  ensureWorkflowTables(store.db);
  const rows = store.db
    .prepare(
      'SELECT step, min_amount, approvers FROM wf_approval_rules WHERE company = ? AND register = ? ORDER BY step',
    )
    .all(company, register) as { step: number; min_amount: string; approvers: string }[];
  return rows.map((r) => ({ register, step: r.step, minAmount: r.min_amount, approvers: r.approvers }));
}

/** What the rules say about one record. */
export interface ApprovalRequirement {
  /** The register has rules in the company. */
  readonly configured: boolean;
  /** The steps the record needs (none: "Not required"). */
  readonly steps: readonly ApprovalRule[];
  /** The amount compared (`Sum4 46.20`), or empty for registers without an amount. */
  readonly amountText: string;
  readonly amount: string;
  /** Why approval is not required, when it is not. */
  readonly reason: string;
}

/** Applies the register's rules to a record. */
export function approvalRequirement(
  store: RecordStore,
  company: number,
  register: string,
  rec: StoredRecord,
): ApprovalRequirement {
  const rules = rulesFor(store, company, register);
  const field = AMOUNT_FIELDS[register];
  const raw = field ? (rec.fields[field] ?? '') : '';
  const value = parseDecimal(raw);
  const amount = field ? formatAmount(Number.isFinite(value) ? value : 0) : '';
  const amountText = field ? `${field} ${amount}` : '';
  if (rules.length === 0)
    return { configured: false, steps: [], amount, amountText, reason: `no approval rule for ${register}` };
  const steps = rules.filter((r) => r.minAmount === '' || (field !== undefined && value >= parseDecimal(r.minAmount)));
  const lowest = rules
    .map((r) => r.minAmount)
    .filter((m) => m !== '')
    .sort((a, b) => parseDecimal(a) - parseDecimal(b))[0];
  const reason =
    steps.length > 0 ? '' : `${amountText} is below ${formatAmount(parseDecimal(lowest ?? '0'))}, the approval limit`;
  return { configured: true, steps, amount, amountText, reason };
}
