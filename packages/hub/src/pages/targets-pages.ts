/** The targets page (`/`) and a target's history (`/targets/:id`), filterable by kind, profile, build and label. */
import type { HubStore, RunFilter } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import { type Html, href, html } from './html.js';
import { outcomeWord, page, runName, runStrip, totalsLine, verdict, when } from './layout.js';

export async function targetsPage(store: HubStore, organisations: readonly number[]): Promise<Html> {
  const targets = await store.targets(organisations);
  const body =
    targets.length === 0
      ? html`<p>No runs have been published yet. <a href="/upload">Upload a report folder's zip</a>, or publish from CI with <code>erpcert publish DIR --hub URL</code>.</p>`
      : html`<ul class="cards">${targets.map(
          (t) => html`<li class="card">
<h2><a href="${href(['targets', t.id])}">${t.name}</a></h2>
<dl class="facts">
<dt>URL</dt><dd>${t.embedded ? 'the embedded reference server' : t.url}</dd>
<dt>Runs</dt><dd>${t.runCount}</dd>
<dt>Latest</dt><dd>${
            t.latest
              ? html`<a href="${href(['runs', t.latest.id])}">${runName(t.latest)}</a> ${verdict(outcomeWord(t.latest))}<br>${totalsLine(t.latest)}`
              : html`<span class="muted">no conformance run</span>`
          }</dd>
</dl>
<h3 class="sr">Recent runs of ${t.name}</h3>
${runStrip(t.recent, `last ${t.recent.length} runs of ${t.name}, newest first`)}
<p><a href="${href(['targets', t.id])}">History<span class="sr"> of ${t.name}</span></a> · <a href="${href(['matrix'], { target: t.id })}">Matrix<span class="sr"> of ${t.name}</span></a> · <a href="${href(['targets', t.id, 'trends'])}">Load trends<span class="sr"> of ${t.name}</span></a></p>
</li>`,
        )}</ul>`;
  return page({ title: 'Targets', nav: 'targets' }, body);
}

export interface HistoryQuery {
  readonly kind?: RunFilter['kind'];
  readonly profile?: string;
  readonly build?: string;
  readonly label?: string;
}

const HISTORY_LIMIT = 200;

export async function historyPage(
  store: HubStore,
  target: { id: number; name: string; url: string; embedded: boolean },
  q: HistoryQuery,
  /** The target is saved in the hub: its page starts live runs. */
  saved = false,
): Promise<Html> {
  const runs = await store.targetRuns(target.id, { ...q, limit: HISTORY_LIMIT });
  const filtered = Boolean(q.kind || q.profile || q.build || q.label);
  const body = html`
<p>${target.embedded ? 'The embedded reference server' : target.url} ·
${saved ? html`<a href="${href(['saved-targets', target.id])}">Start a run</a> ·` : ''}
<a href="${href(['matrix'], { target: target.id })}">Rule matrix</a> ·
<a href="${href(['targets', target.id, 'trends'])}">Load trends</a></p>
<form class="filters" method="get" action="${href(['targets', target.id])}" role="search" aria-label="Filter the runs">
<label>Kind <select name="kind">
${[
  ['', 'any'],
  ['conformance', 'conformance'],
  ['load', 'load'],
].map(([v, t]) => html`<option value="${v}"${(q.kind ?? '') === v ? html` selected` : ''}>${t}</option>`)}
</select></label>
<label>Profile <input name="profile" value="${q.profile ?? ''}" size="10"></label>
<label>Build <input name="build" value="${q.build ?? ''}" size="14"></label>
<label>Label <input name="label" value="${q.label ?? ''}" size="12"></label>
<button type="submit">Filter</button>
${filtered ? html`<a href="${href(['targets', target.id])}">Clear the filters</a>` : ''}
</form>
<h2 id="runs-heading">${runs.length} run${runs.length === 1 ? '' : 's'}${filtered ? ' matching' : ''}${runs.length === HISTORY_LIMIT ? ` (the newest ${HISTORY_LIMIT})` : ''}</h2>
${runs.length === 0 ? html`<p>No run matches these filters.</p>` : runsTable(runs)}`;
  return page({ title: `History of ${target.name}`, nav: 'targets', crumbs: [['Targets', '/']] }, body);
}

/** The runs with a radio pair per row: pick two and compare them, without JavaScript. */
function runsTable(runs: readonly RunSummary[]): Html {
  return html`<form method="get" action="/compare">
<div class="scroll"><table aria-labelledby="runs-heading">
<thead><tr><th scope="col">Run</th><th scope="col">Outcome</th><th scope="col">Verdicts</th><th scope="col">Kind</th><th scope="col">Profile</th><th scope="col">Build</th><th scope="col">Label</th><th scope="col">Started</th><th scope="col">erpcert</th><th scope="col">Signature</th><th scope="col">Older (A)</th><th scope="col">Newer (B)</th></tr></thead>
<tbody>${runs.map(
    (r, i) => html`<tr>
<th scope="row"><a href="${href(['runs', r.id])}">#${r.id}</a></th>
<td>${verdict(outcomeWord(r))}</td>
<td>${totalsLine(r)}</td>
<td>${r.kind}</td><td>${r.profile ?? ''}</td><td>${r.build ?? ''}</td><td>${r.label ?? ''}</td>
<td>${when(r.startedAt)}</td><td>${r.erpcertVersion}</td><td>${r.signature.text}</td>
<td><input type="radio" name="a" value="${r.id}" aria-label="compare from run #${r.id}"${i === 1 ? html` checked` : ''}></td>
<td><input type="radio" name="b" value="${r.id}" aria-label="compare to run #${r.id}"${i === 0 ? html` checked` : ''}></td>
</tr>`,
  )}</tbody>
</table></div>
<button type="submit">Compare the two chosen runs</button>
</form>`;
}
