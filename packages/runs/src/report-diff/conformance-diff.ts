/**
 * What changed between two conformance runs: every rule whose verdict differs, sorted into the new FAILs
 * (FAIL or ERROR now, neither before: what a reviewer must look at), the fixed ones (FAIL, ERROR or KNOWN
 * before, PASS now) and the other changes (a rule now SKIPped, accepted as KNOWN, ...).
 */
import type { ReportVerdict } from '../reports/results.js';
import type { ConformanceRunSummary } from './read-report-folder.js';

/** A rule's verdict in one run; `absent` when the run did not hold the rule (another `--only`). */
export type DiffVerdict = ReportVerdict | 'absent';

/** One rule whose verdict changed. */
export interface RuleChange {
  readonly rule: string;
  readonly before: DiffVerdict;
  readonly after: DiffVerdict;
  /** `new-fail`: FAIL or ERROR now, neither before; `fixed`: FAIL, ERROR or KNOWN before, PASS now. */
  readonly kind: 'new-fail' | 'fixed' | 'changed';
  /** The new run's reason (failure message, skip reason), if any. */
  readonly reason: string | null;
}

/** What `report diff` says about two conformance runs. */
export interface ConformanceDiff {
  readonly kind: 'conformance';
  readonly old: {
    readonly startedAt: string;
    readonly profile: string;
    readonly only: string | null;
    readonly exitCode: number;
  };
  readonly new: {
    readonly startedAt: string;
    readonly profile: string;
    readonly only: string | null;
    readonly exitCode: number;
  };
  readonly changes: readonly RuleChange[];
  readonly newFails: readonly string[];
  readonly fixed: readonly string[];
  /** Rules both runs judged with the same verdict. */
  readonly unchanged: number;
  /** Rules one run holds and the other does not (a different `--only`): counted, not listed as changes. */
  readonly onlyOld: number;
  readonly onlyNew: number;
  /** What makes the two runs hard to compare (another target, profile or selection). */
  readonly notes: readonly string[];
}

const BLOCKING: readonly DiffVerdict[] = ['FAIL', 'ERROR'];
const WAS_BROKEN: readonly DiffVerdict[] = ['FAIL', 'ERROR', 'KNOWN'];

/** Compares two conformance runs rule by rule. */
export function diffConformance(before: ConformanceRunSummary, after: ConformanceRunSummary): ConformanceDiff {
  const old = new Map(before.rules.map((r) => [r.id, r]));
  const now = new Map(after.rules.map((r) => [r.id, r]));
  const ids = [...new Set([...before.rules.map((r) => r.id), ...after.rules.map((r) => r.id)])];
  const changes: RuleChange[] = [];
  let unchanged = 0;
  let onlyOld = 0;
  let onlyNew = 0;
  for (const id of ids) {
    const a: DiffVerdict = old.get(id)?.verdict ?? 'absent';
    const b: DiffVerdict = now.get(id)?.verdict ?? 'absent';
    if (a === b) {
      unchanged++;
      continue;
    }
    // a rule one run did not hold counts as a change only when it FAILs or ERRORs in the new run
    if (a === 'absent' && !BLOCKING.includes(b)) {
      onlyNew++;
      continue;
    }
    if (b === 'absent') {
      onlyOld++;
      continue;
    }
    const kind =
      BLOCKING.includes(b) && !BLOCKING.includes(a)
        ? 'new-fail'
        : b === 'PASS' && WAS_BROKEN.includes(a)
          ? 'fixed'
          : 'changed';
    // a new FAIL that follows from another FAIL says so first: the reviewer looks at the cause
    const causes = b === 'FAIL' ? now.get(id)?.causedBy : undefined;
    const reason = now.get(id)?.reason ?? null;
    changes.push({
      rule: id,
      before: a,
      after: b,
      kind,
      reason: causes?.length ? `follows from ${causes.join(', ')}${reason !== null ? `: ${reason}` : ''}` : reason,
    });
  }
  const order = { 'new-fail': 0, fixed: 1, changed: 2 } as const;
  changes.sort((x, y) => order[x.kind] - order[y.kind] || x.rule.localeCompare(y.rule));
  const notes: string[] = [];
  // two runs against the embedded reference server have the same target on different ports
  if (before.targetUrl !== after.targetUrl && !(before.embedded && after.embedded))
    notes.push(`the runs have different targets: ${before.targetUrl} and ${after.targetUrl}`);
  if (before.profile !== after.profile)
    notes.push(`the runs have different profiles: ${before.profile} and ${after.profile}`);
  if (before.only !== after.only)
    notes.push(`the runs select different rules: ${before.only ?? 'all'} and ${after.only ?? 'all'}`);
  const info = (r: ConformanceRunSummary) => ({
    startedAt: r.startedAt,
    profile: r.profile,
    only: r.only,
    exitCode: r.exitCode,
  });
  return {
    kind: 'conformance',
    old: info(before),
    new: info(after),
    changes,
    newFails: changes.filter((c) => c.kind === 'new-fail').map((c) => c.rule),
    fixed: changes.filter((c) => c.kind === 'fixed').map((c) => c.rule),
    unchanged,
    onlyOld,
    onlyNew,
    notes,
  };
}
