/**
 * The index over a reports folder (`erpcert report`): every conformance run (`conformance/<run>/`) and every
 * load run (`load/<run>/`), newest first, with date, target and verdict counts, linked to its report. Each
 * results.json is read through its JSON Schema (results.schema.json, load-results.schema.json); a document this
 * erpcert cannot read is listed as written by another version, or as not readable, with the reason.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { erpcertVersion } from '@erpcert/client';
import {
  checkLoadRun,
  type LoadRunDocument,
  LoadRunReadError,
  RESULTS_SCHEMA_VERSION,
  type ResultsDocument,
  validateResults,
} from '@erpcert/runs';
import { esc, page } from './html.js';

/** One row of the index. */
export interface RunListing {
  readonly kind: 'conformance' | 'load';
  /** Folder name under `conformance/` or `load/`. */
  readonly name: string;
  /** ISO date of the run, or the folder's modification time when the run does not say. */
  readonly date: string;
  readonly target: string;
  /** `pass`, `fail`, `error`, or `unknown`. */
  readonly outcome: string;
  /** One line: verdict counts (conformance) or scenario verdicts (load), or why the run cannot be read. */
  readonly summary: string;
  /** Link relative to the reports folder. */
  readonly href: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;

function linkFor(kind: string, name: string, dir: string): string {
  const file = existsSync(join(dir, 'report.html'))
    ? 'report.html'
    : existsSync(join(dir, 'summary.md'))
      ? 'summary.md'
      : 'results.json';
  return `${kind}/${encodeURIComponent(name)}/${file}`;
}

/** Where a run's folder is, and when it was last changed (the date of a run whose document cannot say). */
interface Folder {
  readonly kind: RunListing['kind'];
  readonly name: string;
  readonly dir: string;
  readonly mtime: string;
}

/** A document another erpcert wrote says so after its figures: `(written by erpcert 0.2.0)`. */
function writtenBy(version: string): string {
  return version === erpcertVersion() ? '' : ` (written by erpcert ${version})`;
}

/**
 * A folder whose results.json this erpcert cannot read: "written by erpcert X.Y.Z: why" when the document names
 * another version, else "not readable: why". Nothing of it is guessed: no date, target or outcome but the folder's.
 */
function unreadable(f: Folder, reason: string, doc?: Json): RunListing {
  const version = obj(doc?.tool)?.version;
  const other = typeof version === 'string' && version !== '' && version !== erpcertVersion();
  return {
    kind: f.kind,
    name: f.name,
    date: f.mtime,
    target: 'unknown',
    outcome: 'unknown',
    summary: other ? `written by erpcert ${version}: ${reason}` : `not readable: ${reason}`,
    href: linkFor(f.kind, f.name, f.dir),
  };
}

/** A conformance run, read through results.schema.json (the version this erpcert writes). */
function conformanceListing(doc: Json, f: Folder): RunListing {
  if (doc.kind !== 'erpcert-conformance')
    return unreadable(f, 'results.json is not a conformance results document', doc);
  if (doc.schemaVersion !== RESULTS_SCHEMA_VERSION)
    return unreadable(
      f,
      `results schema version ${JSON.stringify(doc.schemaVersion)}; this erpcert (${erpcertVersion()}) reads version ${RESULTS_SCHEMA_VERSION}`,
      doc,
    );
  const check = validateResults(doc);
  if (!check.valid)
    return unreadable(
      f,
      `results.json does not match results.schema.json: ${check.errors.slice(0, 3).join('; ')}`,
      doc,
    );
  const { run, totals, tool } = doc as unknown as ResultsDocument;
  const scope = [run.profile, run.only && `only ${run.only}`, run.shard && `shard ${run.shard}`].filter(Boolean);
  return {
    kind: 'conformance',
    name: f.name,
    date: run.startedAt,
    target: run.target.url,
    outcome: run.outcome,
    summary:
      `${totals.PASS} PASS, ${totals.FAIL} FAIL, ${totals.ERROR} ERROR, ${totals.KNOWN > 0 ? `${totals.KNOWN} KNOWN, ` : ''}` +
      `${totals.WARN} WARN, ${totals.SKIP} SKIP${scope.length ? ` (${scope.join(', ')})` : ''}${writtenBy(tool.version)}`,
    href: linkFor('conformance', f.name, f.dir),
  };
}

/** A load run, read through load-results.schema.json as every other reader of load runs (load/read-load-run.ts). */
function loadListing(doc: Json, f: Folder): RunListing {
  let run: LoadRunDocument;
  try {
    run = checkLoadRun(doc);
  } catch (err) {
    if (err instanceof LoadRunReadError) return unreadable(f, `results.json ${err.message}`, doc);
    throw err;
  }
  const count = (v: string) => run.scenarios.filter((s) => s.verdict === v).length;
  const verdicts = ['pass', 'fail', 'info'].map((v) => `${count(v)} ${v}`).join(', ');
  return {
    kind: 'load',
    name: f.name,
    date: run.run.startedAt,
    target: run.run.target.url,
    outcome: run.run.outcome,
    summary:
      `${run.scenarios.length} scenario(s): ${verdicts} (${run.run.engine}${run.run.interrupted ? ', interrupted' : ''})` +
      writtenBy(run.tool.version),
    href: linkFor('load', f.name, f.dir),
  };
}

/** Every run under `reportsDir`, newest first. A folder whose results.json cannot be read is listed as such. */
export function listRuns(reportsDir: string): RunListing[] {
  const runs: RunListing[] = [];
  for (const kind of ['conformance', 'load'] as const) {
    const base = join(reportsDir, kind);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) {
      const dir = join(base, name);
      if (!statSync(dir).isDirectory()) continue;
      const folder: Folder = { kind, name, dir, mtime: statSync(dir).mtime.toISOString() };
      const file = join(dir, 'results.json');
      if (!existsSync(file)) {
        runs.push(unreadable(folder, 'no results.json'));
        continue;
      }
      let doc: Json | undefined;
      try {
        doc = obj(JSON.parse(readFileSync(file, 'utf8')));
      } catch (err) {
        runs.push(unreadable(folder, `results.json is not valid JSON (${(err as Error).message})`));
        continue;
      }
      if (!doc) runs.push(unreadable(folder, 'results.json holds no JSON object'));
      else runs.push(kind === 'conformance' ? conformanceListing(doc, folder) : loadListing(doc, folder));
    }
  }
  return runs.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.name < b.name ? 1 : -1));
}

/** Renders `index.html` for the runs of a reports folder. */
export function renderIndexHtml(runs: readonly RunListing[], generatedAt: string): string {
  const rows = runs.map(
    (r) =>
      `<tr data-kind="${esc(r.kind)}" data-outcome="${esc(r.outcome)}"><td>${esc(r.date)}</td><td>${esc(r.kind)}</td>` +
      `<td><code>${esc(r.target)}</code></td><td><span class="v v-${r.outcome === 'pass' ? 'pass' : r.outcome === 'fail' ? 'fail' : r.outcome === 'error' ? 'warn' : 'none'}">${esc(r.outcome)}</span></td>` +
      `<td>${esc(r.summary)}</td><td><a href="${esc(r.href)}">${esc(r.name)}</a></td></tr>`,
  );
  const body = [
    '<h1>erpcert reports</h1>',
    `<p class="muted">${runs.length} run(s), newest first. Generated ${esc(generatedAt)} by <code>erpcert report</code>.</p>`,
    '<table id="runs"><thead><tr><th>Date</th><th>Kind</th><th>Target</th><th>Outcome</th><th>Verdicts</th><th>Report</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table>`,
    runs.length === 0
      ? '<p>No runs yet: <code>erpcert conform</code> or <code>erpcert load</code> write them here.</p>'
      : '',
  ].join('\n');
  return page('erpcert reports', body);
}
