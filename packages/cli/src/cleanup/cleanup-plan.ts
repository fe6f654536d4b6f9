/**
 * What `erpcert cleanup` will do with each record, decided before it touches any: delete it where the portal
 * `delete` serves its register (un-confirming first where `unokrecord` serves it), close it where the register has
 * no documented delete but a field that closes it, keep it where the docs give no way; and never touch a record that
 * carries neither the run tag nor the fixture prefix.
 */
import { CLOSE_FIELDS, type LedgerEntry, PORTAL_DELETE_REGISTERS, UNOK_DELETE_REGISTERS } from '../reports/runner.js';
import type { FoundRecord } from './find-records.js';
import { type ScannedRecord, tagPlaceOf, tagPlacesText } from './tag-match.js';

/** How a register's records are removed, per the docs. */
export interface Disposal {
  readonly kind: 'delete' | 'close' | 'keep';
  /** For people: `portal delete (unokrecord first when confirmed)`, `Terminated=1`. */
  readonly how: string;
}

/** The documented way to remove a record of `register` (portal-action-api.md §2, record-rest-api.md §2). */
export function disposalOf(register: string): Disposal {
  if (PORTAL_DELETE_REGISTERS.includes(register))
    return {
      kind: 'delete',
      how: UNOK_DELETE_REGISTERS.includes(register) ? 'portal delete, unokrecord first if confirmed' : 'portal delete',
    };
  const field = CLOSE_FIELDS[register];
  if (field) return { kind: 'close', how: `PATCH ${field}=1 (no documented delete)` };
  return {
    kind: 'keep',
    how: `the docs give no way to remove a ${register}: no portal delete (portal-action-api.md §2) and no field that closes it (record-rest-api.md §2)`,
  };
}

/** A record, as the reports list it. */
export interface CleanupItem {
  readonly register: string;
  readonly key: string;
  readonly company: number | null;
}

/**
 * What stays on the target, and why: `closed` (no documented delete; closed), `kept` (the docs give no way to remove
 * it), `failed` (an attempt failed, or the record could not be checked), `untouched` (it carries neither the run
 * tag nor the fixture prefix, so it is not the run's to touch).
 */
export interface ResidueItem extends CleanupItem {
  readonly status: 'closed' | 'kept' | 'failed' | 'untouched';
  readonly reason: string;
}

/** A record the cleanup will delete or close. */
export interface PlannedRecord extends LedgerEntry {
  /** Where it carries the tag, or `fixture prefix`. */
  readonly place: string;
  readonly disposal: Disposal;
  /** OKFlag 1 as read. */
  readonly confirmed: boolean;
}

/** The plan. */
export interface CleanupPlan {
  /** In creation order (the cleanup removes the newest first). */
  readonly act: readonly PlannedRecord[];
  readonly residue: readonly ResidueItem[];
  readonly alreadyGone: readonly CleanupItem[];
}

const item = (e: Pick<LedgerEntry, 'register' | 'key' | 'company'>): CleanupItem => ({
  register: e.register,
  key: e.key,
  company: e.company ?? null,
});

/** Where a plan gets its records: the entry and what the target holds under its key. */
interface Checked {
  readonly entry: LedgerEntry;
  readonly record: ScannedRecord;
  readonly place: string;
}

function decide(checked: readonly Checked[], plan: { act: PlannedRecord[]; residue: ResidueItem[] }): void {
  for (const { entry, record, place } of checked) {
    const disposal = disposalOf(entry.register);
    const closeField = CLOSE_FIELDS[entry.register];
    if (disposal.kind === 'keep') plan.residue.push({ ...item(entry), status: 'kept', reason: disposal.how });
    else if (disposal.kind === 'close' && closeField && record.fields[closeField] === '1')
      plan.residue.push({ ...item(entry), status: 'closed', reason: `already closed (${closeField}=1)` });
    else plan.act.push({ ...entry, place, disposal, confirmed: record.fields.OKFlag === '1' });
  }
}

/**
 * The plan for a run's ledger: each entry is looked up among the records read of its register (`read` maps
 * `<company>/<register>` to them; undefined: that register could not be read, `why`). A permanent entry is kept
 * with its reason, unread; an entry the target no longer has is already gone; one whose record does not carry `tagOf(entry)` is left untouched.
 */
export function planFromLedger(
  entries: readonly LedgerEntry[],
  read: (register: string, company: number | undefined) => readonly ScannedRecord[] | string,
  tagOf: (entry: LedgerEntry) => string,
): CleanupPlan {
  const plan = { act: [] as PlannedRecord[], residue: [] as ResidueItem[], alreadyGone: [] as CleanupItem[] };
  const checked: Checked[] = [];
  for (const entry of entries) {
    // what the documented APIs cannot remove (a callback registration, a signing session) is not looked for
    if (entry.permanent !== undefined) {
      plan.residue.push({ ...item(entry), status: 'kept', reason: entry.permanent });
      continue;
    }
    const records = read(entry.register, entry.company);
    if (typeof records === 'string') {
      plan.residue.push({ ...item(entry), status: 'failed', reason: `not checked, so not touched: ${records}` });
      continue;
    }
    const record = records.find((r) => r.key === entry.key);
    if (!record) {
      plan.alreadyGone.push(item(entry));
      continue;
    }
    const tag = tagOf(entry);
    const place = tagPlaceOf(record, tag);
    if (place === undefined) {
      plan.residue.push({
        ...item(entry),
        status: 'untouched',
        reason: `it carries no run tag ${tag} where runs put it (${tagPlacesText(entry.register)}), so it may not be the run's record`,
      });
      continue;
    }
    checked.push({ entry, record, place });
  }
  decide(checked, plan);
  return plan;
}

/** The plan for records found by a search (`--tag`, `--fixtures`), oldest first, each once. */
export function planFromFound(found: readonly FoundRecord[], company: number | undefined): CleanupPlan {
  const plan = { act: [] as PlannedRecord[], residue: [] as ResidueItem[], alreadyGone: [] as CleanupItem[] };
  const seen = new Set<string>();
  const checked: Checked[] = [];
  for (const { record, place } of [...found].sort((a, b) => a.record.sequence - b.record.sequence)) {
    const id = `${record.register}\u0000${record.key}`;
    if (seen.has(id)) continue;
    seen.add(id);
    checked.push({
      entry: { register: record.register, key: record.key, ...(company !== undefined ? { company } : {}) },
      record,
      place,
    });
  }
  decide(checked, plan);
  return plan;
}

/** Two plans as one (a run's records and the fixture set); a record in both is planned once. */
export function mergePlans(a: CleanupPlan, b: CleanupPlan): CleanupPlan {
  const id = (e: { register: string; key: string; company?: number | null }) =>
    `${e.register}\u0000${e.key}\u0000${e.company ?? ''}`;
  const inA = new Set([...a.act, ...a.residue, ...a.alreadyGone].map(id));
  return {
    act: [...a.act, ...b.act.filter((e) => !inA.has(id(e)))],
    residue: [...a.residue, ...b.residue.filter((e) => !inA.has(id(e)))],
    alreadyGone: [...a.alreadyGone, ...b.alreadyGone.filter((e) => !inA.has(id(e)))],
  };
}
