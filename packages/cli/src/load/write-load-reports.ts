import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scrubSecrets } from '../reports/secrets.js';
import type { LoadRunDocument } from './load-results.js';
import { validateLoadResults } from './load-results-validate.js';
import { renderLoadReportHtml } from './report-html.js';
import { renderLoadSummaryMd } from './summary-md.js';

/** The three files of a load run, and what the schema check of results.json found (a bug of erpcert). */
export interface WrittenLoadReports {
  readonly results: string;
  readonly summary: string;
  readonly html: string;
  readonly schemaErrors: readonly string[];
}

/** Writes `results.json`, `summary.md` and `report.html` into `dir`, every text scrubbed of `secrets`. */
export function writeLoadReports(
  doc: LoadRunDocument,
  dir: string,
  secrets: readonly string[] = [],
): WrittenLoadReports {
  mkdirSync(dir, { recursive: true });
  const files = {
    results: join(dir, 'results.json'),
    summary: join(dir, 'summary.md'),
    html: join(dir, 'report.html'),
  };
  writeFileSync(files.results, scrubSecrets(`${JSON.stringify(doc, null, 2)}\n`, secrets));
  writeFileSync(files.summary, scrubSecrets(renderLoadSummaryMd(doc), secrets));
  writeFileSync(files.html, scrubSecrets(renderLoadReportHtml(doc), secrets));
  return { ...files, schemaErrors: validateLoadResults(doc).errors };
}
