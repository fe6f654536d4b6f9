import { markdownCell } from '@erpcert/contract';
import type { LoadRunDocument } from '@erpcert/runs';
import {
  baselineTable,
  bytesTable,
  errorTable,
  LIMITED_BY_MEANING,
  latencyTable,
  notes,
  readsTable,
  saturationTable,
  type Table,
  verdictTable,
} from './report-sections.js';

/** A Markdown table (GitHub flavour). */
export function markdownTable(t: Table): string {
  const align = t.head.map((_, i) => (t.numeric.includes(i) ? '---:' : '---'));
  return [t.head, align, ...t.rows].map((r) => `| ${r.map(markdownCell).join(' | ')} |`).join('\n');
}

/** summary.md: the verdicts, latencies, errors, sizes, saturation steps and baseline changes of a load run. */
export function renderLoadSummaryMd(doc: LoadRunDocument): string {
  const r = doc.run;
  const out: string[] = [
    `# erpcert load: ${r.outcome.toUpperCase()}`,
    '',
    `- target: \`${r.target.url}\`${r.target.embedded ? ` (embedded reference server, seed size ${r.target.seedSize})` : ''}`,
    `- started ${r.startedAt}, ${r.durationSeconds} s; engine ${r.engine}: ${r.engineNote}`,
    `- command: \`${r.command}\``,
    `- exit code ${r.exitCode}${r.interrupted ? ' (interrupted)' : ''}`,
    '',
    '## Verdicts',
    '',
    markdownTable(verdictTable(doc)),
    '',
    '## Latency',
    '',
    markdownTable(latencyTable(doc)),
    '',
    '## Errors',
    '',
    markdownTable(errorTable(doc)),
    '',
  ];
  const bytes = bytesTable(doc);
  if (bytes.rows.length) out.push('## Bytes per record', '', markdownTable(bytes), '');
  const reads = readsTable(doc);
  if (reads.rows.length) out.push('## Reads', '', markdownTable(reads), '');
  const curves = doc.scenarios.filter((e) => (e.saturation ?? []).length > 0);
  if (curves.length) {
    out.push('## Saturation', '', 'The chart is in report.html; the steps:', '');
    for (const e of curves) {
      const v = e.saturationVerdict;
      out.push(`### ${e.scenario}`, '', markdownTable(saturationTable(e)), '', v?.reason ?? '', '');
      if (v) {
        out.push(`**Limited by: ${v.limitedBy}** (${LIMITED_BY_MEANING[v.limitedBy]}). Evidence: ${v.evidence}.`, '');
        if (v.advice) out.push(`What to do: ${v.advice}.`, '');
      }
    }
  }
  if (doc.baseline) {
    out.push(
      `## Change against the baseline`,
      '',
      `Baseline: \`${doc.baseline.dir}\` (${doc.baseline.startedAt}, ${doc.baseline.engine})`,
      '',
    );
    out.push(doc.baseline.changes.length ? markdownTable(baselineTable(doc)) : 'No scenario in common.', '');
  }
  if (doc.problems.length) out.push('## Problems', '', ...doc.problems.map((p) => `- ${p}`), '');
  out.push('## Notes', '', ...notes(doc).map((n) => `- ${n}`), '');
  return out.join('\n');
}
