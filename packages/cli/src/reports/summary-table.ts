import type { ResultsDocument } from './results.js';

/** The per-area table printed at the end of `erpcert conform` (stdout). */
export function renderSummaryTable(doc: ResultsDocument): string {
  const head = ['Area', 'Rules', 'PASS', 'FAIL', 'WARN', 'SKIP', 'Not judged'];
  const rows = [
    ...doc.areas.map((a) => [a.area, a.rules, a.PASS, a.FAIL, a.WARN, a.SKIP, a.NONE].map(String)),
    [
      'Total',
      ...[doc.totals.rules, doc.totals.PASS, doc.totals.FAIL, doc.totals.WARN, doc.totals.SKIP, doc.totals.NONE].map(
        String,
      ),
    ],
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(head), rule, ...rows.slice(0, -1).map(line), rule, line(rows.at(-1)!), ''].join('\n');
}
