import { type DocumentedFigure, judgeKnee, type SaturationLimit } from '@erpcert/load-k6';

/** What a verdict is made of: one scenario's measured figures. */
export interface VerdictInput {
  readonly offered?: number;
  readonly achievedRate?: number;
  /** Operations offered, and failed (checks, transport errors, timeouts). */
  readonly operations: number;
  readonly errors: number;
  readonly droppedIterations: number;
  /** Reads: one entry per batch size, records read and seconds (sum of request times). */
  readonly reads?: readonly { readonly records: number; readonly seconds: number; readonly batch: number }[];
  /** Reads: the records each read had to get. */
  readonly expectedRecords?: number;
  /** The most frequent failure reasons. */
  readonly failures?: readonly { readonly reason: string; readonly count: number }[];
  /** The run was cut by the hard stop or an abort. */
  readonly stopped?: boolean;
}

export interface Verdict {
  readonly verdict: 'pass' | 'fail' | 'info';
  readonly reason: string;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

function documentedRate(d: DocumentedFigure): string {
  const r = d.ratePerSecond!;
  return r.min === r.max ? `about ${fmt(r.min)}/s` : `${fmt(r.min)} to ${fmt(r.max)}/s`;
}

function failureText(m: VerdictInput): string {
  const top = [...(m.failures ?? [])].sort((a, b) => b.count - a.count)[0];
  return top ? ` (most often: ${top.reason}, ${top.count}x)` : '';
}

/**
 * The verdict of one scenario against its documented figure (record-rest-api.md §8):
 * - rate scenarios pass when the achieved rate of checked operations reaches the documented minimum with no
 *   dropped operation and no failed check;
 * - reads pass when, at every batch size, the documented number of records is read with every page checked,
 *   within the documented seconds (the sum of the request times; the pauses are reported beside it);
 * - scenarios without a documented figure are `info`, unless a check failed (`fail`).
 */
export function judge(d: DocumentedFigure, m: VerdictInput): Verdict {
  const problems: string[] = [];
  if (m.errors > 0) problems.push(`${m.errors} failed request(s) or check(s)${failureText(m)}`);
  if (m.stopped) problems.push('the run was stopped before it finished (hard time limit or interrupt)');
  if (d.ratePerSecond) {
    const achieved = m.achievedRate ?? 0;
    if (m.droppedIterations > 0)
      problems.push(
        `${m.droppedIterations} of ${m.operations} offered operations were dropped: the target did not keep up with ${fmt(m.offered ?? 0)}/s`,
      );
    if (achieved < d.ratePerSecond.min)
      problems.push(`achieved ${fmt(achieved)}/s, below the documented ${fmt(d.ratePerSecond.min)}/s`);
    if (problems.length > 0) return { verdict: 'fail', reason: problems.join('; ') };
    return {
      verdict: 'pass',
      reason: `achieved ${fmt(achieved)}/s checked operations at an offered ${fmt(m.offered ?? 0)}/s, no drops, no errors (documented: ${documentedRate(d)})`,
    };
  }
  if (d.read) {
    const want = m.expectedRecords ?? d.read.records;
    for (const r of m.reads ?? []) {
      if (r.records < want)
        problems.push(`batches of ${r.batch}: read ${r.records} of ${want} records (the target may hold fewer)`);
      else if (r.seconds > d.read.seconds)
        problems.push(
          `batches of ${r.batch}: ${fmt(r.seconds)} s of request time, more than the documented ${fmt(d.read.seconds)} s`,
        );
    }
    if ((m.reads ?? []).length === 0) problems.push('nothing was read');
    if (problems.length > 0) return { verdict: 'fail', reason: problems.join('; ') };
    const slowest = Math.max(...(m.reads ?? []).map((r) => r.seconds));
    return {
      verdict: 'pass',
      reason: `read ${want} records at every batch size within ${fmt(slowest)} s of request time (documented: about ${fmt(d.read.seconds)} s)`,
    };
  }
  if (problems.length > 0) return { verdict: 'fail', reason: problems.join('; ') };
  const drops = m.droppedIterations > 0 ? `, ${m.droppedIterations} dropped` : '';
  return {
    verdict: 'info',
    reason: `no documented figure; ${m.operations} operations offered at ${fmt(m.offered ?? 0)}/s, achieved ${fmt(m.achievedRate ?? 0)}/s, all checks passed${drops}`,
  };
}

/**
 * The verdict of the stepped variant (as the k6 engine): the best achieved rate of the steps that held
 * (no error, no drop, p99 under the limit, achieved near offered) against the documented minimum, named by what
 * stopped the steps: the target, the generator or the step limit.
 */
export function judgeSaturation(
  d: DocumentedFigure,
  curve: { best: number; why: string; limit: SaturationLimit },
): Verdict {
  return judgeKnee(d, curve);
}
