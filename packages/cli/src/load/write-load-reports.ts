import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Masker } from '@erpcert/client';
import type { LoadRunDocument } from '@erpcert/runs';
import { validateLoadResults } from '@erpcert/runs';
import { maskData } from '../reports/secrets.js';
import { renderLoadReportHtml } from './report-html.js';
import { renderLoadSummaryMd } from './summary-md.js';

/** The three files of a load run, and what the schema check of results.json found (a bug of erpcert). */
export interface WrittenLoadReports {
  readonly results: string;
  readonly summary: string;
  readonly html: string;
  readonly schemaErrors: readonly string[];
}

/** Writes `results.json`, `summary.md` and `report.html` into `dir`, rendered from the document masked as data. */
export function writeLoadReports(unmasked: LoadRunDocument, dir: string, masker?: Masker): WrittenLoadReports {
  mkdirSync(dir, { recursive: true });
  const doc = masker ? maskData(masker, unmasked) : unmasked;
  const files = {
    results: join(dir, 'results.json'),
    summary: join(dir, 'summary.md'),
    html: join(dir, 'report.html'),
  };
  writeFileSync(files.results, `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(files.summary, renderLoadSummaryMd(doc));
  writeFileSync(files.html, renderLoadReportHtml(doc));
  return { ...files, schemaErrors: validateLoadResults(doc).errors };
}
