/**
 * Compare two runs (`/compare?a=&b=`): `report diff`'s semantics through api/run-views.ts (the API's code), and the
 * matrix (`/matrix`): rules grouped by area x the last N runs of a target, or x the targets at one erpcert version.
 */
import type { ConformanceDiff, LoadDiff } from '@erpcert/runs';
import type { Comparison, RuleMatrix } from '../api/run-views.js';
import type { TargetChoice } from '../store/hub-store.js';
import { evidenceText, type Html, href, html } from './html.js';
import { page, runName, verdict } from './layout.js';

function pickForm(a: string, b: string): Html {
  return html`<form class="filters" method="get" action="/compare" aria-label="Choose two runs">
<label>Older run (A) <input name="a" value="${a}" inputmode="numeric" pattern="[0-9]+" size="8" required></label>
<label>Newer run (B) <input name="b" value="${b}" inputmode="numeric" pattern="[0-9]+" size="8" required></label>
<button type="submit">Compare</button>
</form>`;
}

function conformanceDiff(d: ConformanceDiff, c: Comparison): Html {
  return html`
<p id="diff-summary">${d.newFails.length} new FAIL${d.newFails.length === 1 ? '' : 's'} · ${d.fixed.length} fixed · ${d.changes.length} changed in all · ${d.unchanged} unchanged${d.onlyOld + d.onlyNew > 0 ? ` · ${d.onlyOld} only in A, ${d.onlyNew} only in B` : ''}</p>
${d.notes.length > 0 ? html`<ul class="note">${d.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
<h2 id="changes-heading">Rules whose verdict changed</h2>
${
  d.changes.length === 0
    ? html`<p>No rule changed its verdict.</p>`
    : html`<div class="scroll"><table aria-labelledby="changes-heading">
<thead><tr><th scope="col">Rule</th><th scope="col">Change</th><th scope="col">A: #${c.a.id}</th><th scope="col">B: #${c.b.id}</th><th scope="col">Reason in B</th></tr></thead>
<tbody>${d.changes.map(
        (ch) =>
          html`<tr><th scope="row"><a href="${href(['runs', c.b.id, 'rules', ch.rule])}">${ch.rule}</a></th><td>${ch.kind === 'new-fail' ? 'new FAIL' : ch.kind}</td><td>${verdict(ch.before === 'absent' ? null : ch.before)}</td><td>${verdict(ch.after === 'absent' ? null : ch.after)}</td><td>${ch.reason ? evidenceText(ch.reason) : ''}</td></tr>`,
      )}</tbody></table></div>`
}`;
}

function pct(x: number | null): string {
  return x === null ? '—' : `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
}

function loadDiff(d: LoadDiff): Html {
  return html`
${d.notes.length > 0 ? html`<ul class="note">${d.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
<h2 id="verdicts-heading">Scenario verdicts that changed</h2>
${
  d.verdictChanges.length === 0
    ? html`<p>No scenario changed its verdict.</p>`
    : html`<table aria-labelledby="verdicts-heading"><thead><tr><th scope="col">Scenario</th><th scope="col">A</th><th scope="col">B</th></tr></thead>
<tbody>${d.verdictChanges.map((v) => html`<tr><th scope="row">${v.scenario}</th><td>${verdict(v.before.toUpperCase())}</td><td>${verdict(v.after.toUpperCase())}</td></tr>`)}</tbody></table>`
}
<h2 id="figures-heading">Figures</h2>
<div class="scroll"><table aria-labelledby="figures-heading">
<thead><tr><th scope="col">Scenario</th><th scope="col">Figure</th><th scope="col" class="num">A</th><th scope="col" class="num">B</th><th scope="col" class="num">Change</th><th scope="col">Direction</th><th scope="col">Beyond the spread</th></tr></thead>
<tbody>${d.figures.map(
    (f) =>
      html`<tr><th scope="row">${f.scenario}</th><td>${f.figure}</td><td class="num">${f.before}</td><td class="num">${f.after}</td><td class="num">${pct(f.change)}</td><td>${f.direction}</td><td>${f.moved ? 'yes' : 'no'}</td></tr>`,
  )}</tbody></table></div>
${d.onlyOld.length + d.onlyNew.length > 0 ? html`<p>Only in A: ${d.onlyOld.join(', ') || 'none'} · only in B: ${d.onlyNew.join(', ') || 'none'}</p>` : ''}`;
}

export function comparePage(c: Comparison | undefined, a: string, b: string, error?: string): Html {
  const body = html`
${pickForm(a, b)}
${error ? html`<p class="alert" role="alert">${error}</p>` : ''}
${
  c
    ? html`<p>A: <a href="${href(['runs', c.a.id])}">${runName(c.a)}</a> → B: <a href="${href(['runs', c.b.id])}">${runName(c.b)}</a></p>
${c.diff.kind === 'conformance' ? conformanceDiff(c.diff, c) : loadDiff(c.diff)}`
    : error
      ? ''
      : html`<p>Give the ids of two runs of one kind (both conformance or both load), or pick two in a target's history.</p>`
}`;
  return page({ title: c ? `Run #${c.a.id} → run #${c.b.id}` : 'Compare two runs', nav: 'compare' }, body);
}

export interface MatrixChoice {
  readonly target?: string;
  readonly last?: string;
  readonly version?: string;
}

export function matrixPage(
  targets: readonly TargetChoice[],
  choice: MatrixChoice,
  m: RuleMatrix | undefined,
  title: string,
  error?: string,
): Html {
  // without a choice, the first target that has a conformance run
  const selected = choice.target ?? String(targets.find((t) => t.hasConformanceRun)?.id ?? '');
  const body = html`
<form class="filters" method="get" action="/matrix" aria-label="Runs of a target">
<label>Target <select name="target">${targets.map(
    (t) => html`<option value="${t.id}"${selected === String(t.id) ? html` selected` : ''}>${t.name}</option>`,
  )}</select></label>
<label>Last runs <input name="last" value="${choice.last ?? '20'}" inputmode="numeric" pattern="[0-9]+" size="4"></label>
<button type="submit">Show the target's runs</button>
</form>
<form class="filters" method="get" action="/matrix" aria-label="Targets at one erpcert version">
<label>erpcert version <input name="version" value="${choice.version ?? ''}" size="10" required></label>
<button type="submit">Show every target at this version</button>
</form>
${error ? html`<p class="alert" role="alert">${error}</p>` : ''}
${m ? matrixTable(m, choice.version !== undefined) : ''}`;
  return page({ title, nav: 'matrix' }, body);
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The verdict every run gives a rule, when they all give it one (and there are two runs or more). */
function steadyVerdict(verdicts: readonly (string | null)[]): string | undefined {
  const [first] = verdicts;
  if (verdicts.length < 2 || first === null || first === undefined) return undefined;
  return verdicts.every((v) => v === first) ? first : undefined;
}

function matrixTable(m: RuleMatrix, byTarget: boolean): Html {
  if (m.columns.length === 0) return html`<p>No conformance run to show.</p>`;
  const n = m.columns.length;
  const span = n + 1;
  // 50 runs x 417 rules are 20,850 cells, and most rules keep one verdict in every run: such a row is one cell that
  // says so (its link opens the rule in the newest run), and only the rules that changed are drawn run by run. What
  // repeats is made once (each column's link, each verdict's mark).
  const links = m.columns.map((c) => `${href(['runs', c.run.id, 'rules'])}/`);
  const newest = m.columns.reduce((a, c) => (c.run.id > a.run.id ? c : a));
  const newestLink = `${href(['runs', newest.run.id, 'rules'])}/`;
  const absent = html`<td>${verdict(null)}</td>`;
  const marks = new Map<string, Html>();
  const shown = (v: string): Html => {
    let mark = marks.get(v);
    if (!mark) {
      mark = verdict(v);
      marks.set(v, mark);
    }
    return mark;
  };
  const everyRun = n === 2 ? 'in both runs' : `in all ${n} runs`;
  let rules = 0;
  let steady = 0;
  const groups = m.areas.map((a) => {
    const rows = a.rules.map((r) => {
      rules++;
      const rule = encodeURIComponent(r.id);
      const same = steadyVerdict(r.verdicts);
      if (same !== undefined) {
        steady++;
        return html`<tr><th scope="row">${r.id}</th><td class="steady" colspan="${n}"><a href="${newestLink}${rule}">${shown(same)}</a> ${everyRun}</td></tr>`;
      }
      return html`<tr><th scope="row">${r.id}</th>${r.verdicts.map((v, i) =>
        v === null || links[i] === undefined ? absent : html`<td><a href="${links[i]}${rule}">${shown(v)}</a></td>`,
      )}</tr>`;
    });
    return html`<tbody><tr><th scope="rowgroup" colspan="${span}">${a.area}</th></tr>
${rows}</tbody>`;
  });
  return html`<p>${rules} rules in ${m.areas.length} areas × ${n} runs${byTarget ? ' (the newest run of each target)' : ', newest first'}.${
    n > 1
      ? ` ${count(rules - steady, 'rule differs', 'rules differ')} between these runs (shown run by run); ${count(steady, 'rule has', 'rules have')} one verdict ${everyRun} (shown once).`
      : ''
  }</p>
<div class="scroll"><table class="matrix" aria-label="Rules by run">
<thead><tr><th scope="col">Rule</th>${m.columns.map(
    (c) =>
      html`<th scope="col"><a href="${href(['runs', c.run.id])}">${byTarget ? (c.target?.name ?? `#${c.run.targetId}`) : `#${c.run.id}`}</a>${c.run.build ? html`<br><span class="muted">${c.run.build}</span>` : ''}</th>`,
  )}</tr></thead>
${groups}
</table></div>`;
}
