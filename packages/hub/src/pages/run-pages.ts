/**
 * A run (`/runs/:id`): its facts, the coverage line, the area table and the rule matrix with filters (verdict, area,
 * text); a load run shows its scenarios. A rule (`/runs/:id/rules/:rule`) opens its observations, failures,
 * counterexample, masked exchanges, curl line and replay command, from the stored results.json through the same
 * code as the API (api/run-views.ts). Every value from the run is shown as text.
 */
import { coverageLine, judgedCoverage, type LoadRunDocument, type ResultsDocument } from '@erpcert/runs';
import type { RunDocuments } from '../api/run-documents.js';
import { P95_NOT_RECORDED, type RuleEvidence, type StoredTarget } from '../api/run-views.js';
import type { StoredFile } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import { evidenceText, type Html, href, html } from './html.js';
import { csrfField, outcomeWord, type PageOptions, page, totalsLine, verdict, when } from './layout.js';

export interface RuleFilter {
  readonly verdict?: string;
  readonly area?: string;
  readonly q?: string;
}

const VERDICTS = ['PASS', 'FAIL', 'ERROR', 'WARN', 'SKIP', 'KNOWN', 'NONE'];

/** Whether the run can be rerun from its pages (a conformance run of a saved target): `why` says why not. */
export interface Rerun {
  readonly why?: string;
}

const RERUN_FORM = 'rerun-form';

/** The run page's rerun form: the CSRF token and "every FAIL"; the area table's buttons submit it too (`form=`). */
function rerunForm(run: RunSummary, rerun: Rerun): Html {
  if (rerun.why) return html`<p class="muted" id="rerun-note">Rerun: ${rerun.why}.</p>`;
  return html`<h2 id="rerun-heading">Rerun</h2>
<form class="stack" method="post" action="${href(['runs', run.id, 'rerun'])}" id="${RERUN_FORM}" aria-labelledby="rerun-heading">
<p>A rerun is a new live run of the saved target, linked to this one. Rerun every FAIL here, one area from the area table, or one rule from its page.</p>
${csrfField()}
${run.totals.FAIL > 0 ? html`<button type="submit" name="fails" value="1">Rerun every FAIL (${run.totals.FAIL})</button>` : html`<p>This run has no FAIL.</p>`}
</form>`;
}

/**
 * Where a run's pages link to: the hub's own pages ({@link HUB_LINKS}), or a read-only view of one run (a share
 * link, a certified run on the public page) that links only inside itself.
 */
export interface RunLinks {
  /** The run's page, with a filter. */
  run(run: RunSummary, query?: Readonly<Record<string, string | undefined>>): string;
  rule(run: RunSummary, rule: string): string;
  file(run: RunSummary, path: string): string;
  /** Whether the hub's other pages are linked (target, parent run, compare, matrix, trends, navigation). */
  readonly hub: boolean;
  /** What this read-only view is, shown above the run. */
  readonly banner?: Html;
}

export const HUB_LINKS: RunLinks = {
  run: (run, query = {}) => href(['runs', run.id], query),
  rule: (run, rule) => href(['runs', run.id, 'rules', rule]),
  file: (run, path) => href(['api', 'v1', 'runs', run.id, 'files', ...path.split('/')]),
  hub: true,
};

/** The links of a read-only view rooted at `base` (`/s/<token>`, `/certified/runs/<id>`). */
export function readOnlyLinks(base: readonly (string | number)[], banner: Html): RunLinks {
  return {
    run: (_run, query = {}) => href([...base], query),
    rule: (_run, rule) => href([...base, 'rules', rule]),
    file: (_run, path) => href([...base, 'files', ...path.split('/')]),
    hub: false,
    banner,
  };
}

function runFacts(
  run: RunSummary,
  target: StoredTarget | undefined,
  files: readonly StoredFile[],
  links: RunLinks,
): Html {
  return html`${links.banner ?? ''}<dl class="facts">
<dt>Outcome</dt><dd>${verdict(outcomeWord(run))} exit code ${run.exitCode}${run.status === 'published' ? '' : ` · ${run.status}`}</dd>
<dt>Target</dt><dd>${target ? (links.hub ? html`<a href="${href(['targets', target.id])}">${target.name}</a>` : target.name) : `#${run.targetId}`}</dd>
<dt>Build</dt><dd>${run.build ?? '—'}</dd>
<dt>Label</dt><dd>${run.label ?? '—'}</dd>
<dt>${run.kind === 'load' ? 'Engine' : 'Profile'}</dt><dd>${run.profile ?? '—'}</dd>
${run.seed === null ? '' : html`<dt>Seed</dt><dd>${run.seed}</dd>`}
${run.only ? html`<dt>Only</dt><dd>${run.only}</dd>` : ''}
<dt>Started</dt><dd>${when(run.startedAt)}</dd>
<dt>Published</dt><dd>${when(run.publishedAt)}</dd>
<dt>erpcert</dt><dd>${run.erpcertVersion}</dd>
${run.specSha256 ? html`<dt>Spec SHA-256</dt><dd><code>${run.specSha256}</code></dd>` : ''}
<dt>Signature</dt><dd>${run.signature.text}${run.signature.detail ? html`<br><span class="muted">${run.signature.detail}</span>` : ''}</dd>
${links.hub ? html`<dt>Certification</dt><dd><a href="${href(['runs', run.id, 'certification'])}">Submit for certification, share read-only</a></dd>` : ''}
${run.parentRunId === null || !links.hub ? '' : html`<dt>Rerun of</dt><dd><a href="${href(['runs', run.parentRunId])}">#${run.parentRunId}</a></dd>`}
<dt>Files</dt><dd>${files.map(
    (f, i) => html`${i > 0 ? ', ' : ''}<a href="${links.file(run, f.path)}">${f.path}</a>`,
  )}</dd>
</dl>`;
}

/** The frame of a run's page: the hub's navigation and crumbs, or a bare page for a read-only view. */
function hubFrame(links: RunLinks, target: StoredTarget | undefined): Partial<PageOptions> {
  if (!links.hub) return { bare: true };
  return {
    nav: 'targets',
    crumbs: [['Targets', '/'], ...(target ? [[target.name, href(['targets', target.id])] as const] : [])],
  };
}

export function conformanceRunPage(
  run: RunSummary,
  target: StoredTarget | undefined,
  files: readonly StoredFile[],
  doc: ResultsDocument,
  f: RuleFilter,
  links: RunLinks = HUB_LINKS,
  rerun: Rerun = { why: 'this hub runs no live runs' },
): Html {
  const judged = doc.coverage.judged ?? judgedCoverage(doc.rules);
  const text = (f.q ?? '').toLowerCase();
  const rules = doc.rules.filter(
    (r) =>
      (!f.verdict || r.verdict === f.verdict) &&
      (!f.area || r.area === f.area) &&
      (!text || r.id.toLowerCase().includes(text) || r.title.toLowerCase().includes(text)),
  );
  const areas = doc.areas.map((a) => a.area);
  const filtered = Boolean(f.verdict || f.area || f.q);
  const body = html`
${runFacts(run, target, files, links)}
${
  links.hub
    ? html`<p>${
        run.parentRunId === null
          ? ''
          : html`<a href="${href(['compare'], { a: run.parentRunId, b: run.id })}">Compare with its parent run #${run.parentRunId}</a> · `
      }<a href="${href(['compare'], { b: run.id })}">Compare with another run</a>${
        target ? html` · <a href="${href(['matrix'], { target: target.id })}">Matrix of ${target.name}</a>` : ''
      }</p>`
    : ''
}
<h2>Coverage</h2>
<p id="coverage">${coverageLine(judged)}</p>
<p>${totalsLine(run)}</p>
${doc.problems.length > 0 ? html`<h2>Problems</h2><ul>${doc.problems.map((p) => html`<li>${evidenceText(p)}</li>`)}</ul>` : ''}
${links.hub ? rerunForm(run, rerun) : ''}
<h2 id="areas-heading">Areas</h2>
<div class="scroll"><table aria-labelledby="areas-heading">
<thead><tr><th scope="col">Area</th><th scope="col" class="num">Rules</th>${VERDICTS.map((v) => html`<th scope="col" class="num">${v}</th>`)}${rerun.why || !links.hub ? '' : html`<th scope="col">Rerun</th>`}</tr></thead>
<tbody>${doc.areas.map(
    (a) =>
      html`<tr><th scope="row"><a href="${links.run(run, { area: a.area })}">${a.area}</a></th><td class="num">${a.rules}</td>${VERDICTS.map(
        (v) => html`<td class="num">${(a as unknown as Record<string, number>)[v] ?? 0}</td>`,
      )}${rerun.why || !links.hub ? '' : html`<td><button type="submit" form="${RERUN_FORM}" name="area" value="${a.area}">Rerun<span class="sr"> the area ${a.area}</span></button></td>`}</tr>`,
  )}</tbody>
</table></div>
<h2 id="rules-heading">Rules</h2>
<form class="filters" method="get" action="${links.run(run)}" role="search" aria-label="Filter the rules">
<label>Verdict <select name="verdict"><option value="">any</option>${VERDICTS.map(
    (v) => html`<option value="${v}"${f.verdict === v ? html` selected` : ''}>${v}</option>`,
  )}</select></label>
<label>Area <select name="area"><option value="">any</option>${areas.map(
    (a) => html`<option value="${a}"${f.area === a ? html` selected` : ''}>${a}</option>`,
  )}</select></label>
<label>Text <input name="q" value="${f.q ?? ''}" size="18"></label>
<button type="submit">Filter</button>
${filtered ? html`<a href="${links.run(run)}">Clear the filters</a>` : ''}
</form>
<p id="rules-count">${rules.length} of ${doc.rules.length} rules</p>
<div class="scroll"><table aria-labelledby="rules-heading">
<thead><tr><th scope="col">Rule</th><th scope="col">Verdict</th><th scope="col">Title</th><th scope="col">Area</th><th scope="col" class="num">Observations</th><th scope="col">Standing</th><th scope="col">Reason</th></tr></thead>
<tbody>${rules.map(
    (r) =>
      html`<tr><th scope="row"><a href="${links.rule(run, r.id)}">${r.id}</a></th><td>${verdict(r.verdict)}</td><td>${r.title}</td><td>${r.area}</td><td class="num">${r.observations}</td><td>${r.standing}</td><td>${r.reason ? evidenceText(r.reason) : ''}</td></tr>`,
  )}</tbody>
</table></div>`;
  return page(
    {
      title: `Run #${run.id}`,
      ...hubFrame(links, target),
    },
    body,
  );
}

export function loadRunPage(
  run: RunSummary,
  target: StoredTarget | undefined,
  files: readonly StoredFile[],
  doc: LoadRunDocument,
  links: RunLinks = HUB_LINKS,
): Html {
  const body = html`
${runFacts(run, target, files, links)}
${
  links.hub
    ? html`<p><a href="${href(['compare'], { b: run.id })}">Compare with another run</a>${
        target ? html` · <a href="${href(['targets', target.id, 'trends'])}">Load trends of ${target.name}</a>` : ''
      }</p>`
    : ''
}
${doc.problems.length > 0 ? html`<h2>Problems</h2><ul>${doc.problems.map((p) => html`<li>${evidenceText(p)}</li>`)}</ul>` : ''}
<h2 id="scenarios-heading">Scenarios</h2>
<div class="scroll"><table aria-labelledby="scenarios-heading">
<thead><tr><th scope="col">Scenario</th><th scope="col">Verdict</th><th scope="col">Documented</th><th scope="col">Measured</th><th scope="col" class="num">p50 ms</th><th scope="col" class="num">p90 ms</th><th scope="col" class="num">p95 ms</th><th scope="col" class="num">p99 ms</th><th scope="col" class="num">Errors</th><th scope="col">Saturation</th><th scope="col">Reason</th></tr></thead>
<tbody>${doc.scenarios.map(
    (
      s,
    ) => html`<tr><th scope="row">${s.scenario}</th><td>${verdict(s.verdict.toUpperCase())}</td><td>${s.comparison.documented}</td><td>${s.comparison.measured}</td>
<td class="num">${s.latencyMs.p50}</td><td class="num">${s.latencyMs.p90}</td><td class="num">${s.latencyMs.p95 ?? P95_NOT_RECORDED}</td><td class="num">${s.latencyMs.p99}</td><td class="num">${s.errors}</td>
<td>${s.saturationVerdict ? html`limited by ${s.saturationVerdict.limitedBy}: ${s.saturationVerdict.evidence}` : '—'}</td><td>${evidenceText(s.reason)}</td></tr>`,
  )}</tbody>
</table></div>`;
  return page(
    {
      title: `Load run #${run.id}`,
      ...hubFrame(links, target),
    },
    body,
  );
}

const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|x-auth-token)$/i;

/** Header lines, with any secret that reached the report masked again (the client masks them already). */
function headerLines(headers: Readonly<Record<string, string>> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([k, v]) => `${k}: ${SECRET_HEADERS.test(k) && !/^\*+$/.test(String(v)) ? '***' : v}`)
    .join('\n');
}

type Failure = RuleEvidence['failures'][number];

function exchangeBlock(e: Failure['exchanges'][number], n: number, last: boolean): Html {
  return html`<h4>Exchange ${n}${last ? ' (the one that broke the rule)' : ''}</h4>
<pre class="request" tabindex="0" aria-label="request ${n}">${evidenceText(`${e.request.method} ${e.request.url}\n${headerLines(e.request.headers)}${e.request.body === undefined ? '' : `\n\n${e.request.body}`}`)}</pre>
${
  e.response
    ? html`<pre class="response" tabindex="0" aria-label="response ${n}">${evidenceText(`${e.response.status}${e.durationMs === undefined ? '' : ` (${e.durationMs} ms)`}\n${headerLines(e.response.headers)}${e.response.body === undefined ? '' : `\n\n${e.response.body}`}`)}</pre>`
    : html`<p>No response: ${evidenceText(e.error ?? 'unknown transport failure')}</p>`
}`;
}

function failureBlock(f: Failure, i: number): Html {
  return html`<section class="failure" aria-labelledby="failure-${i}">
<h3 id="failure-${i}">${verdict(f.verdict)} ${f.test}</h3>
<p class="message">${evidenceText(f.message)}</p>
${f.known ? html`<p class="note">accepted as a known deviation</p>` : ''}
${f.counterexample === undefined || f.counterexample === null ? '' : html`<h4>Counterexample</h4><pre class="counterexample" tabindex="0" aria-label="counterexample">${evidenceText(f.counterexample)}</pre>`}
${f.seed === undefined || f.seed === null ? '' : html`<p>seed ${f.seed}${f.path ? ` · path ${f.path}` : ''}${f.shrinks === undefined || f.shrinks === null ? '' : ` · shrunk ${f.shrinks} times`}</p>`}
${f.errors && f.errors.length > 0 ? html`<h4>Errors</h4><pre tabindex="0" aria-label="errors">${evidenceText(f.errors.join('\n'))}</pre>` : ''}
${f.exchanges.length > 0 ? html`<h4>Exchanges (masked)</h4>${f.exchanges.map((e, j) => exchangeBlock(e, j + 1, j === f.exchanges.length - 1))}` : ''}
${f.curl ? html`<h4>Reproduce with curl</h4><pre class="curl" tabindex="0" aria-label="curl command">${evidenceText(f.curl)}</pre>` : ''}
${f.replay ? html`<h4>Replay</h4><pre class="replay" tabindex="0" aria-label="replay command">${evidenceText(f.replay)}</pre>` : ''}
</section>`;
}

export function rulePage(
  ev: RuleEvidence,
  target: StoredTarget | undefined,
  links: RunLinks = HUB_LINKS,
  rerun: Rerun = { why: 'this hub runs no live runs' },
): Html {
  const { run, rule, tests, failures } = ev;
  const body = html`${links.banner ?? ''}
<dl class="facts">
<dt>Verdict</dt><dd>${verdict(rule.verdict)}</dd>
<dt>Title</dt><dd>${rule.title}</dd>
<dt>Area</dt><dd><a href="${links.run(run, { area: rule.area })}">${rule.area}</a></dd>
<dt>Observations</dt><dd>${rule.observations}</dd>
<dt>Standing</dt><dd>${rule.standing} · ${rule.kind}</dd>
<dt>Documented in</dt><dd>${rule.docAnchor ?? rule.doc}</dd>
${rule.reason ? html`<dt>Reason</dt><dd>${evidenceText(rule.reason)}</dd>` : ''}
</dl>
${
  !links.hub
    ? ''
    : rerun.why
      ? html`<p class="muted" id="rerun-note">Rerun: ${rerun.why}.</p>`
      : html`<form class="stack" method="post" action="${href(['runs', run.id, 'rerun'])}" aria-label="Rerun ${rule.id}">
<input type="hidden" name="rule" value="${rule.id}">
${csrfField()}
<button type="submit">Rerun this rule</button>
</form>`
}
<h2 id="tests-heading">Observations by test</h2>
${
  tests.length === 0
    ? html`<p>No test observed this rule.</p>`
    : html`<div class="scroll"><table aria-labelledby="tests-heading">
<thead><tr><th scope="col">Test</th><th scope="col">State</th><th scope="col">Verdict</th><th scope="col" class="num">Observations</th><th scope="col">Reason</th></tr></thead>
<tbody>${tests.map(
        (t) =>
          html`<tr><th scope="row">${t.name}</th><td>${t.state}</td><td>${verdict(t.verdict)}</td><td class="num">${t.observations}</td><td>${t.reason ? evidenceText(t.reason) : ''}</td></tr>`,
      )}</tbody></table></div>`
}
<h2>Failures</h2>
${failures.length === 0 ? html`<p>No failure names this rule in run #${run.id}.</p>` : failures.map(failureBlock)}`;
  return page(
    {
      title: `${rule.id} in run #${run.id}`,
      ...(links.hub
        ? {
            nav: 'targets' as const,
            crumbs: [
              ['Targets', '/'] as const,
              ...(target ? [[target.name, href(['targets', target.id])] as const] : []),
              [`Run #${run.id}`, links.run(run)] as const,
            ],
          }
        : { bare: true, crumbs: [[`Run #${run.id}`, links.run(run)] as const] }),
    },
    body,
  );
}

export async function runPage(
  docs: RunDocuments,
  run: RunSummary,
  target: StoredTarget | undefined,
  files: readonly StoredFile[],
  f: RuleFilter,
  links: RunLinks = HUB_LINKS,
  rerun?: Rerun,
): Promise<Html> {
  const d = await docs.document(run);
  return d.kind === 'load'
    ? loadRunPage(run, target, files, d.doc, links)
    : conformanceRunPage(run, target, files, d.doc, f, links, rerun);
}
