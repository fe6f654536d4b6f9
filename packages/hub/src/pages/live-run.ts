/**
 * The live part of a run page: a live run's state, the rules judged so far and its progress, as HTML the run
 * page includes ({@link liveRunSection}). Without JavaScript it shows the state at load time and a refresh link;
 * the external script at {@link LIVE_SCRIPT_PATH} (no inline script: the pages' CSP forbids it) follows the run's
 * events with EventSource and updates the section until the run ends.
 */
import type { Job } from '../live/job-queue.js';
import { type Html, href, html } from './html.js';
import { csrfField } from './layout.js';

export const LIVE_SCRIPT_PATH = '/assets/live-run.js';

const VERDICT_ORDER = ['PASS', 'FAIL', 'ERROR', 'WARN', 'SKIP', 'KNOWN', 'NONE'];

export interface LiveRunView extends Job {
  /** rule id -> verdict, the last of each (JobQueue.judged). */
  readonly judged: Readonly<Record<string, string>>;
}

/**
 * The live section of a run page, for the live run's page to include; every value escaped by `html`. With
 * `cancel`, a run that has not ended shows a form that cancels it (the script hides it once the run ends).
 */
export function liveRunSection(
  job: LiveRunView,
  options: { readonly refreshHref?: string; readonly cancel?: boolean } = {},
): Html {
  const ended = ['done', 'failed', 'interrupted', 'cancelled'].includes(job.state);
  const rules = Object.entries(job.judged).sort(([a], [b]) => a.localeCompare(b));
  const counts = new Map<string, number>();
  for (const [, v] of rules) counts.set(v, (counts.get(v) ?? 0) + 1);
  const order = (v: string) => {
    const i = VERDICT_ORDER.indexOf(v);
    return i < 0 ? VERDICT_ORDER.length : i;
  };
  const tally =
    [...counts]
      .sort(([a], [b]) => order(a) - order(b))
      .map(([v, n]) => `${n} ${v}`)
      .join(', ') || 'no rule judged yet';
  return html`<section class="live-run" aria-labelledby="live-run-title" data-live-run="${job.id}" data-events="/api/v1/live-runs/${job.id}/events"${ended ? html` data-ended=""` : ''}>
<h2 id="live-run-title">Live run #${job.id}${job.parentRunId ? html` (rerun of <a href="${href(['runs', job.parentRunId])}">#${job.parentRunId}</a>)` : ''}</h2>
<p>State: <strong data-live-state="">${job.state}</strong> <span data-live-message="">${job.message ?? ''}</span>${job.runId ? html` <a href="/runs/${job.runId}">run #${job.runId}</a>` : ''}</p>
<p aria-live="polite"><span data-live-tally="">${tally}</span> <span data-live-progress=""></span></p>
<ul data-live-rules="">${rules.map(([r, v]) => html`<li><code>${r}</code> <strong class="verdict-${v}">${v}</strong></li>`)}</ul>
${ended ? '' : html`<p data-live-refresh=""><a href="${options.refreshHref ?? ''}">Refresh</a> to see its progress.</p>`}
${
  ended || !options.cancel
    ? ''
    : html`<form class="stack" method="post" action="${href(['live-runs', job.id, 'cancel'])}" data-live-cancel="" aria-label="Cancel live run #${job.id}">
${csrfField()}
<button type="submit">Cancel this run</button>
<p class="muted">A cancelled run stops its tests and still cleans up what it created.</p>
</form>`
}
</section>
${ended ? '' : html`<script src="${LIVE_SCRIPT_PATH}" defer></script>`}`;
}

/** The script behind {@link LIVE_SCRIPT_PATH}: EventSource on the section's events, DOM updates, no eval. */
export const LIVE_SCRIPT = `'use strict';
(function () {
  var section = document.querySelector('[data-live-run]');
  if (!section || section.hasAttribute('data-ended') || typeof EventSource === 'undefined') return;
  var q = function (name) { return section.querySelector('[' + name + ']'); };
  var refresh = q('data-live-refresh');
  if (refresh) refresh.hidden = true;
  var judged = {};
  section.querySelectorAll('[data-live-rules] li').forEach(function (li) {
    judged[li.querySelector('code').textContent] = li;
  });
  var tally = function () {
    var n = {};
    Object.keys(judged).forEach(function (r) {
      var v = judged[r].querySelector('strong').textContent; n[v] = (n[v] || 0) + 1;
    });
    q('data-live-tally').textContent = Object.keys(n).map(function (v) { return n[v] + ' ' + v; }).join(', ') || 'no rule judged yet';
  };
  var es = new EventSource(section.getAttribute('data-events'));
  es.addEventListener('rule', function (m) {
    var e = JSON.parse(m.data);
    var li = judged[e.rule];
    if (!li) {
      li = document.createElement('li');
      var code = document.createElement('code'); code.textContent = e.rule;
      li.appendChild(code); li.appendChild(document.createTextNode(' ')); li.appendChild(document.createElement('strong'));
      q('data-live-rules').appendChild(li); judged[e.rule] = li;
    }
    var strong = li.querySelector('strong'); strong.textContent = e.verdict; strong.className = 'verdict-' + e.verdict;
    tally();
  });
  es.addEventListener('progress', function (m) {
    var e = JSON.parse(m.data), parts = [];
    if (e.filesTotal) parts.push((e.filesDone || 0) + '/' + e.filesTotal + ' test files');
    if (e.tests !== undefined) parts.push(e.tests + ' tests');
    if (e.requests !== undefined) parts.push(e.requests + ' requests sent');
    if (e.secondsLeft !== undefined) parts.push('about ' + Math.ceil(e.secondsLeft) + ' s left');
    q('data-live-progress').textContent = parts.length ? '(' + parts.join(', ') + ')' : '';
  });
  es.addEventListener('state', function (m) {
    var e = JSON.parse(m.data);
    q('data-live-state').textContent = e.state;
    q('data-live-message').textContent = e.message || '';
  });
  es.addEventListener('end', function (m) {
    var e = JSON.parse(m.data);
    es.close();
    var cancel = q('data-live-cancel');
    if (cancel) cancel.hidden = true;
    q('data-live-state').textContent = e.state;
    q('data-live-message').textContent = e.message || '';
    if (e.runId) {
      var a = document.createElement('a'); a.href = '/runs/' + e.runId; a.textContent = 'run #' + e.runId;
      q('data-live-message').appendChild(document.createTextNode(' ')); q('data-live-message').appendChild(a);
    }
  });
})();
`;
