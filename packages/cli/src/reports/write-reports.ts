import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Masker } from '@erpcert/client';
import type { ResultsDocument } from '@erpcert/runs';
import { REPORT_FILES, validateResults } from '@erpcert/runs';
import { renderJunit } from './junit.js';
import { renderReportHtml } from './report-html.js';
import { maskData } from './secrets.js';
import { renderSummaryMd } from './summary-md.js';

export { REPORT_FILES };

/** Options of {@link writeReports}. */
export interface WriteReportsOptions {
  /** Doc links of report.html start with this (relative to the report folder, or absolute). */
  readonly docsBase: string;
  /** The run's masker (secrets.ts runMasker): the document is masked as data before anything is rendered. */
  readonly masker: Masker;
}

/** What was written. `schemaErrors` is non-empty when results.json does not match results.schema.json (a bug). */
export interface WrittenReports {
  readonly dir: string;
  readonly files: readonly string[];
  readonly schemaErrors: readonly string[];
}

/**
 * Writes junit.xml, results.json, summary.md and report.html into `dir` (created if needed), all four rendered
 * from the document masked as data (secrets.ts maskData), never scrubbed as text.
 */
export function writeReports(unmasked: ResultsDocument, dir: string, options: WriteReportsOptions): WrittenReports {
  mkdirSync(dir, { recursive: true });
  const doc = maskData(options.masker, unmasked);
  const texts: Record<(typeof REPORT_FILES)[number], string> = {
    'junit.xml': renderJunit(doc),
    'results.json': `${JSON.stringify(doc, null, 2)}\n`,
    'summary.md': renderSummaryMd(doc),
    'report.html': renderReportHtml(doc, { docsBase: options.docsBase }),
  };
  const files: string[] = [];
  for (const name of REPORT_FILES) {
    const path = join(dir, name);
    writeFileSync(path, texts[name], 'utf8');
    files.push(path);
  }
  return { dir, files, schemaErrors: validateResults(doc).errors };
}
