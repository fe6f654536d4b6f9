import type { ResultsDocument, VerdictCounts } from '@erpcert/runs';
import { causeGroups, causeLines, failCountText } from './causes.js';

/** The per-area table printed at the end of `erpcert conform` (stdout). */
export function renderSummaryTable(doc: ResultsDocument): string {
  // the KNOWN column only when the run had a known-deviations file: a run without one reads as before
  const known = doc.knownDeviations !== null;
  const head = ['Area', 'Rules', 'PASS', 'FAIL', 'ERROR', ...(known ? ['KNOWN'] : []), 'WARN', 'SKIP', 'Not judged'];
  const cells = (c: VerdictCounts) =>
    [
      c.rules,
      c.PASS,
      failCountText(c.FAIL, c.following),
      c.ERROR,
      ...(known ? [c.KNOWN] : []),
      c.WARN,
      c.SKIP,
      c.NONE,
    ].map(String);
  const rows = [...doc.areas.map((a) => [a.area, ...cells(a)]), ['Total', ...cells(doc.totals)]];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  // grouped under the cause: each FAIL that follows from another below the rule it follows from
  const causes = causeLines(causeGroups(doc.rules));
  return [
    line(head),
    rule,
    ...rows.slice(0, -1).map(line),
    rule,
    line(rows.at(-1)!),
    ...(causes.length > 0 ? ['', ...causes] : []),
    '',
  ].join('\n');
}
