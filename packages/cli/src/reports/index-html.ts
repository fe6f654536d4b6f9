/**
 * The index over a reports folder (`erpcert report`): every conformance run (`conformance/<run>/`) and every
 * load run (`load/<run>/`), newest first, with date, target and verdict counts, linked to its report.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
  /** One line: verdict counts (conformance) or scenario verdicts (load). */
  readonly summary: string;
  /** Link relative to the reports folder. */
  readonly href: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function linkFor(kind: string, name: string, dir: string): string {
  const file = existsSync(join(dir, 'report.html'))
    ? 'report.html'
    : existsSync(join(dir, 'summary.md'))
      ? 'summary.md'
      : 'results.json';
  return `${kind}/${encodeURIComponent(name)}/${file}`;
}

function conformanceListing(doc: Json, name: string, dir: string, fallbackDate: string): RunListing {
  const run = obj(doc.run) ?? {};
  const totals = obj(doc.totals) ?? {};
  const n = (k: string) => (typeof totals[k] === 'number' ? (totals[k] as number) : 0);
  const scope = [
    text(run.profile),
    text(run.only) && `only ${text(run.only)}`,
    text(run.shard) && `shard ${text(run.shard)}`,
  ].filter(Boolean);
  return {
    kind: 'conformance',
    name,
    date: text(run.startedAt) ?? fallbackDate,
    target: text(obj(run.target)?.url) ?? 'unknown',
    outcome: text(run.outcome) ?? 'unknown',
    summary: `${n('PASS')} PASS, ${n('FAIL')} FAIL, ${n('ERROR')} ERROR, ${n('KNOWN') > 0 ? `${n('KNOWN')} KNOWN, ` : ''}${n('WARN')} WARN, ${n('SKIP')} SKIP${scope.length ? ` (${scope.join(', ')})` : ''}`,
    href: linkFor('conformance', name, dir),
  };
}

/** Pass/fail of one load verdict entry, whatever the load report calls it. */
function passed(v: Json): boolean | undefined {
  for (const k of ['pass', 'passed', 'ok']) if (typeof v[k] === 'boolean') return v[k] as boolean;
  const verdict = text(v.verdict) ?? text(v.result) ?? text(v.status);
  if (verdict === undefined) return undefined;
  return /^(pass|passed|ok)$/i.test(verdict) ? true : /^(fail|failed)$/i.test(verdict) ? false : undefined;
}

/** A load run, read leniently: its results.json belongs to the load tester (issue 6). */
function loadListing(doc: Json, name: string, dir: string, fallbackDate: string): RunListing {
  const run = obj(doc.run) ?? doc;
  const list = [doc.verdicts, doc.scenarios, obj(doc.results)?.scenarios].find(Array.isArray) as unknown[] | undefined;
  const judged = (list ?? [])
    .map(obj)
    .filter((v): v is Json => v !== undefined)
    .map(passed);
  const ok = judged.filter((p) => p === true).length;
  const bad = judged.filter((p) => p === false).length;
  const target = text(run.target) ?? text(obj(run.target)?.url) ?? text(doc.target) ?? 'unknown';
  return {
    kind: 'load',
    name,
    date: text(run.startedAt) ?? text(doc.startedAt) ?? text(doc.date) ?? fallbackDate,
    target,
    outcome: judged.length === 0 ? (text(doc.outcome) ?? 'unknown') : bad > 0 ? 'fail' : 'pass',
    summary: judged.length === 0 ? 'see the report' : `${ok} scenario verdict(s) pass, ${bad} fail`,
    href: linkFor('load', name, dir),
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
      const fallbackDate = statSync(dir).mtime.toISOString();
      const file = join(dir, 'results.json');
      let doc: Json | undefined;
      try {
        doc = obj(JSON.parse(readFileSync(file, 'utf8')));
      } catch {
        doc = undefined;
      }
      if (!doc) {
        runs.push({
          kind,
          name,
          date: fallbackDate,
          target: 'unknown',
          outcome: 'unknown',
          summary: 'no readable results.json',
          href: linkFor(kind, name, dir),
        });
        continue;
      }
      runs.push(
        kind === 'conformance'
          ? conformanceListing(doc, name, dir, fallbackDate)
          : loadListing(doc, name, dir, fallbackDate),
      );
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
