/**
 * Steps 5 and 6 of `erpcert conform` (reports and exit code): the four report files, the terminal summary
 * and the exit code of the run.
 */
import { relative } from 'node:path';
import type { Masker } from '@erpcert/client';
import { docsDir } from '@erpcert/contract';
import type { ResultsDocument } from '@erpcert/runs';
import { coverageLine } from '@erpcert/runs';
import { knownDeviationsVerdictLines } from '../known-deviations/apply-known-deviations.js';
import { renderSummaryTable } from '../reports/summary-table.js';
import { writeReports } from '../reports/write-reports.js';
import type { ConformSettings } from './conform-settings.js';

/** Writes junit.xml, results.json, summary.md and report.html; says so when results.json misses its schema. */
export function writeRunReports(
  doc: ResultsDocument,
  s: ConformSettings,
  masker: Masker,
  say: (line: string) => void,
): void {
  const written = writeReports(doc, s.outDir, {
    docsBase: `${relative(s.outDir, docsDir).split('\\').join('/')}/`,
    masker,
  });
  if (written.schemaErrors.length > 0)
    say(
      `results.json does not match results.schema.json (a bug of erpcert): ${written.schemaErrors.slice(0, 3).join('; ')}`,
    );
}

/** Prints the summary table, every FAIL and ERROR with its replay command, problems, residue and where the reports are. */
export function printOutcome(doc: ResultsDocument, s: ConformSettings, out: { write(text: string): unknown }): void {
  if (doc.coverage.judged) out.write(`\n${coverageLine(doc.coverage.judged)}\n`);
  out.write(`\n${renderSummaryTable(doc)}`);
  for (const f of doc.failures.filter((x) => !x.known))
    out.write(`\n${f.verdict} ${f.rules.join(', ')}: ${f.message}\n  Reproduce with: ${f.replay}\n`);
  const kd = doc.knownDeviations;
  if (kd !== null) {
    const known = doc.rules.filter((r) => r.known !== null);
    if (known.length > 0) out.write(`\n${known.length} known deviation(s) of ${kd.file}:\n`);
    for (const r of known)
      out.write(
        `KNOWN (${r.known!.verdict}) ${r.id}: ${r.known!.reason || '(no reason given yet)'}${r.known!.ticket ? ` [${r.known!.ticket}]` : ''}\n`,
      );
    const lines = knownDeviationsVerdictLines(kd);
    if (lines.length > 0) out.write(`\n${lines.join('\n')}\n`);
    if (kd.withoutReason.length > 0)
      out.write(
        `\n${kd.withoutReason.length} entr${kd.withoutReason.length === 1 ? 'y' : 'ies'} of ${kd.file} without a reason: fill them in (${kd.withoutReason.join(', ')})\n`,
      );
  }
  for (const p of doc.problems.slice(0, 10)) out.write(`\nproblem: ${p}\n`);
  const left = doc.cleanup.residue.filter((r) => r.status === 'left').length;
  if (left > 0)
    out.write(`\n${left} record(s) of run ${doc.run.runTag} were left on the target: see the report's residue.\n`);
  if (s.only !== undefined && doc.totals.NONE === doc.totals.rules) {
    out.write(`\nNo test of the suite judged any of the ${doc.totals.rules} rule(s) --only ${s.only} selects.\n`);
  }
  out.write(`\nReports: ${s.outDir}\n`);
}

/** The exit code of a judged run (DESIGN.md "Verdicts and exit codes"). */
export function exitCodeOf(doc: ResultsDocument): number {
  return doc.run.exitCode;
}
