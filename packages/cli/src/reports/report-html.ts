/**
 * report.html: the certification report of a conformance run. Self-contained (inline CSS, no scripts, no
 * external assets) and readable on paper. Holds the target, date, erpcert version, spec versions and
 * hash, profile and seed, the rule-by-rule matrix with doc links, the failures with counterexample,
 * masked exchange, curl line and replay command, the cleanup residue and the coverage table.
 */

import type { FailureEntry, ResultsDocument, RuleResult, VerdictCounts } from '@erpcert/runs';
import { coverageLine } from '@erpcert/runs';
import { signatureLine } from '../attest/signature-line.js';
import { knownDeviationsVerdictLines } from '../known-deviations/apply-known-deviations.js';
import { causeGroups, causeOrder, failCountText, rootCauses } from './causes.js';
import { fixturesHtml } from './fixtures-section.js';
import { esc, page, verdictBadge } from './html.js';
import type { RecordedExchange } from './runner.js';

/** Options of {@link renderReportHtml}. */
export interface ReportHtmlOptions {
  /** Where the API documents are, relative to the report (`../../../docs/`) or absolute; doc links start with it. */
  readonly docsBase: string;
}

const MAX_BODY = 8000;

function clip(text: string): string {
  return text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}\n... (${text.length - MAX_BODY} more characters)` : text;
}

function countsRow(label: string, c: VerdictCounts, known: boolean, strong = false): string {
  const cell = (n: number) => `<td class="n">${n}</td>`;
  const name = strong ? `<strong>${esc(label)}</strong>` : esc(label);
  const fail = `<td class="n">${esc(failCountText(c.FAIL, c.following))}</td>`;
  return `<tr><th scope="row">${name}</th>${cell(c.rules)}${cell(c.PASS)}${fail}${cell(c.ERROR)}${known ? cell(c.KNOWN) : ''}${cell(c.WARN)}${cell(c.SKIP)}${cell(c.NONE)}</tr>`;
}

/** The known-deviations section: the file, every KNOWN rule with its entry, the expired and fixed entries. */
function knownDeviations(doc: ResultsDocument): string {
  const kd = doc.knownDeviations;
  if (kd === null) return '';
  const known = doc.rules.filter((r) => r.known !== null);
  const rows = known.map((r) => {
    const k = r.known!;
    return `<tr data-rule="${esc(r.id)}"><td class="ids"><a href="#rule-${esc(r.id)}">${esc(r.id)}</a></td><td>${esc(k.verdict)}</td><td>${k.reason ? esc(k.reason) : '<span class="muted">no reason given yet</span>'}</td><td>${esc(k.expires ?? '')}</td><td>${esc(k.ticket ?? '')}</td></tr>`;
  });
  const lines = knownDeviationsVerdictLines(kd);
  return [
    '<h2 id="known-deviations">Known deviations</h2>',
    `<p>${kd.entries} entr${kd.entries === 1 ? 'y' : 'ies'} in <code>${esc(kd.file)}</code>${kd.strict ? ' (--strict-baseline)' : ''}: ${known.length} KNOWN, ${kd.fixed.length} fixed, ${kd.expired.length} expired, ${kd.unjudged.length} not judged in this run. A KNOWN rule is not conformant: the team has accepted the deviation for now.</p>`,
    known.length > 0
      ? `<table id="known-table"><thead><tr><th>Rule</th><th>Verdict of the tests</th><th>Reason</th><th>Expires</th><th>Ticket</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '',
    lines.length > 0 ? `<ul id="known-notes">${lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>` : '',
  ].join('\n');
}

function facts(doc: ResultsDocument): string {
  const { run, spec } = doc;
  const t = run.target;
  const items: [string, string][] = [
    ['Target', `<code>${esc(t.url)}</code>${t.embedded ? ' (embedded reference server)' : ''}`],
    ['Date', `${esc(run.startedAt)} to ${esc(run.finishedAt)} (${(run.durationMs / 1000).toFixed(1)} s)`],
    ['erpcert version', esc(doc.tool.version)],
    ['Spec version', `REST ${esc(spec.versions.rest)}, portal ${esc(spec.versions.portal)}`],
    [
      'Spec SHA-256',
      `<code>${esc(spec.sha256)}</code> <span class="muted small">(over ${spec.files} files of specs/)</span>`,
    ],
    ['Profile', esc(run.profile)],
    ['Seed', run.seed === null ? '<span class="muted">random per property</span>' : esc(run.seed)],
    ['Runs per property', run.runs === null ? '<span class="muted">suite default</span>' : esc(run.runs)],
    ['User', t.user === null ? '<span class="muted">none</span>' : esc(t.user)],
    [
      'Company',
      `${t.compcode === null ? 'default' : esc(t.compcode)} (in the ${esc(t.companyIn)}), portal path <code>${esc(t.portalPath)}</code>`,
    ],
    ['Rules selected', run.only === null ? 'all' : `<code>${esc(run.only)}</code>`],
    ['Shard', run.shard === null ? 'none' : esc(run.shard)],
    ['Run tag', `<code>${esc(run.runTag)}</code>`],
    ['Command', `<code>${esc(run.command)}</code>`],
    ['Signature', `<span id="signature">${esc(signatureLine(doc.attestation))}</span>`],
  ];
  return `<dl class="facts">${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function docLink(rule: RuleResult, docsBase: string): string {
  const base = docsBase.endsWith('/') || docsBase === '' ? docsBase : `${docsBase}/`;
  return `<a href="${esc(base + rule.docAnchor)}">${esc(rule.doc)} § ${esc(rule.section)}</a>`;
}

function matrix(doc: ResultsDocument, docsBase: string): string {
  const rows = doc.rules.map((r) => {
    const note = [
      r.standing === 'inferred' && r.inferredFrom
        ? `<div class="muted small">Inferred: ${esc(r.inferredFrom)}</div>`
        : '',
      r.reason !== null && r.verdict !== 'FAIL' && r.verdict !== 'KNOWN'
        ? `<div class="muted small">${esc(r.reason)}</div>`
        : '',
      r.verdict === 'FAIL' && r.causedBy?.length
        ? `<div class="small follows">follows from ${r.causedBy.map((c) => `<a href="#rule-${esc(c)}">${esc(c)}</a>`).join(', ')}</div>`
        : '',
      r.known !== null
        ? `<div class="small">known deviation (${esc(r.known.verdict)}): ${esc(r.known.reason || 'no reason given yet')}</div>`
        : '',
      r.verdict === 'FAIL' || r.verdict === 'ERROR' || r.verdict === 'KNOWN'
        ? r.failures
            .map((i) => {
              const what = doc.failures[i]?.verdict === 'ERROR' ? 'error' : 'failure';
              return `<div class="small"><a href="#failure-${i + 1}">${what} ${i + 1}</a></div>`;
            })
            .join('')
        : '',
      !r.observable ? '<div class="muted small">not observable by a black-box client</div>' : '',
      // issue 28: observations where a right and a wrong server answer alike are no evidence for a PASS
      r.decisiveObservations !== undefined && r.decisiveObservations < r.observations
        ? `<div class="muted small decisive">${r.decisiveObservations} of ${r.observations} observations decisive</div>`
        : '',
      r.verdict === 'NONE' && !r.tested && r.observable
        ? '<div class="muted small">no test covers this rule</div>'
        : '',
    ].join('');
    return (
      `<tr id="rule-${esc(r.id)}" data-rule="${esc(r.id)}" data-verdict="${esc(r.verdict)}">` +
      `<td class="ids">${esc(r.id)}</td><td>${esc(r.title)}${note}</td><td>${esc(r.standing)}</td><td>${esc(r.kind)}</td>` +
      `<td>${verdictBadge(r.verdict)}</td><td class="n observations">${r.observations}</td>` +
      `<td class="small">${docLink(r, docsBase)}</td></tr>`
    );
  });
  return [
    '<table id="matrix">',
    '<thead><tr><th>Rule</th><th>Title</th><th>Standing</th><th>Kind</th><th>Verdict</th>' +
      '<th class="n" title="checks of the rule that asserted against target data">Observations</th><th>Doc section</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody>`,
    '</table>',
  ].join('\n');
}

function exchangeText(x: RecordedExchange): string {
  const req = x.request;
  const lines = [`${req.method} ${req.url}`, ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`)];
  if (req.body) lines.push('', clip(req.body));
  lines.push('');
  if (x.response) {
    lines.push(`HTTP ${x.response.status}`, ...Object.entries(x.response.headers).map(([k, v]) => `${k}: ${v}`));
    if (x.response.body) lines.push('', clip(x.response.body));
  } else lines.push(`(no response: ${x.error ?? 'unknown'})`);
  return lines.join('\n');
}

function failureBlock(f: FailureEntry, i: number, doc: ResultsDocument): string {
  const titles = f.rules.map((id) => {
    const r = doc.rules.find((x) => x.id === id);
    return `<span class="ids">${esc(id)}</span> ${r ? esc(r.title) : ''}${r?.standing === 'inferred' ? ' <span class="muted">(inferred)</span>' : ''}`;
  });
  const replayInfo =
    f.seed !== null
      ? `<p class="small">Seed ${esc(f.seed)}${f.path !== null ? `, path ${esc(f.path)}` : ''}${f.shrinks !== null ? `, shrunk ${esc(f.shrinks)} times` : ''}</p>`
      : '';
  const last = f.exchanges.at(-1);
  return [
    `<section class="failure" id="failure-${i + 1}" data-rules="${esc(f.rules.join(','))}" data-verdict="${esc(f.verdict)}"${f.known ? ' data-known="true"' : ''}>`,
    `<h3>${f.known ? 'Known ' : ''}${f.verdict === 'ERROR' ? (f.known ? 'error' : 'Error') : f.known ? 'failure' : 'Failure'} ${i + 1}: ${titles.join('; ')}</h3>`,
    f.causedBy?.length
      ? `<p class="small follows" data-caused-by="${esc(f.causedBy.join(','))}">Follows from ${f.causedBy.map((c) => esc(c)).join(', ')}: the failing run's data passed through that rule's behaviour, which FAILed in this run. Fix the cause first.</p>`
      : '',
    f.known
      ? '<p class="muted small">KNOWN: the known-deviations file accepts every rule of this entry; it does not fail the run.</p>'
      : '',
    f.verdict === 'ERROR'
      ? '<p class="muted small">ERROR: these rules could not be judged; the exchange shows what the target answered.</p>'
      : '',
    `<p>${esc(f.message)}</p>`,
    `<p class="muted small">Test: ${esc(f.test)}</p>`,
    f.counterexample !== null
      ? `<h4>Counterexample</h4><pre class="counterexample">${esc(clip(f.counterexample))}</pre>`
      : '',
    replayInfo,
    last ? `<h4>Exchange (secrets masked)</h4><pre class="exchange">${esc(exchangeText(last))}</pre>` : '',
    f.exchanges.length > 1
      ? `<p class="muted small">${f.exchanges.length - 1} earlier exchange(s) of this run are in results.json.</p>`
      : '',
    f.curl !== null ? `<h4>curl</h4><pre class="curl">${esc(f.curl)}</pre>` : '',
    `<h4>Reproduce with</h4><pre class="replay">${esc(f.replay)}</pre>`,
    f.errors.length > 0
      ? `<details><summary class="small">vitest error</summary><pre>${esc(clip(f.errors.join('\n')))}</pre></details>`
      : '',
    '</section>',
  ].join('\n');
}

function residue(doc: ResultsDocument): string {
  const c = doc.cleanup;
  const closed = c.residue.filter((r) => r.status === 'closed').length;
  const summary = `<p>${c.ledgerEntries} record(s) created by this run: ${c.deleted} deleted, ${c.alreadyGone} already gone, ${closed} closed, ${c.residue.length - closed} left behind.</p>`;
  if (c.residue.length === 0) return `${summary}<p id="residue-none">Nothing was left behind.</p>`;
  const rows = c.residue.map(
    (r) =>
      `<tr><td>${esc(r.register)}</td><td><code>${esc(r.key)}</code></td><td>${esc(r.company ?? '')}</td><td>${esc(r.status)}</td><td>${esc(r.reason)}</td></tr>`,
  );
  return `${summary}<table id="residue-table"><thead><tr><th>Register</th><th>Key</th><th>Company</th><th>Status</th><th>Reason</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function idList(ids: readonly string[]): string {
  return ids.length === 0
    ? '<p class="muted">none</p>'
    : `<ul class="idlist">${ids.map((id) => `<li class="ids">${esc(id)}</li>`).join('')}</ul>`;
}

function coverage(doc: ResultsDocument): string {
  const c = doc.coverage;
  const line = (label: string, w: { withTests: readonly string[]; withoutTests: readonly string[] }) => {
    const total = w.withTests.length + w.withoutTests.length;
    const pct = total === 0 ? '' : ` (${Math.round((100 * w.withTests.length) / total)}%)`;
    return `<tr data-standing="${esc(label)}"><th scope="row">${esc(label)}</th><td class="n">${total}</td><td class="n">${w.withTests.length}${pct}</td><td class="n">${w.withoutTests.length}</td></tr>`;
  };
  return [
    '<table id="coverage-table">',
    '<thead><tr><th>Standing</th><th class="n">Observable rules</th><th class="n">With tests</th><th class="n">Without tests</th></tr></thead>',
    `<tbody>${line('documented', c.documented)}${line('inferred', c.inferred)}</tbody>`,
    '</table>',
    `<p class="small muted">Also in scope: ${c.unspecified.total} unspecified rule(s) (never a FAIL; ${c.unspecified.withTests} with tests) and ${c.notObservable.length} rule(s) no black-box client can observe.</p>`,
    '<h3>Documented rules without tests</h3>',
    idList(c.documented.withoutTests),
    '<h3>Inferred rules without tests</h3>',
    idList(c.inferred.withoutTests),
    '<h3>Documented and inferred rules with tests</h3>',
    idList([...c.documented.withTests, ...c.inferred.withTests]),
  ].join('\n');
}

/** The causes: each FAIL that others follow from, with its followers (nothing when none follows). */
function causesHtml(doc: ResultsDocument): string {
  const groups = causeGroups(doc.rules);
  if (groups.length === 0) return '';
  const rows = groups.map(
    (g) =>
      `<tr><th scope="row"><a href="#rule-${esc(g.cause)}">${esc(g.cause)}</a></th><td>${g.followers.map((f) => `<a href="#rule-${esc(f)}">${esc(f)}</a>`).join(', ')}</td></tr>`,
  );
  return [
    '<h2 id="causes">Causes and the FAILs that follow from them</h2>',
    '<p class="small">A FAIL follows from another when its data passed through that rule\'s behaviour (reliesOn in rules.yaml) and that rule FAILed in this run. It stays a FAIL; fix the cause first.</p>',
    `<table id="causes-table"><thead><tr><th>Cause</th><th>Following</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  ].join('\n');
}

/** Renders report.html from a results document. */
export function renderReportHtml(doc: ResultsDocument, options: ReportHtmlOptions): string {
  const { run, totals } = doc;
  const known = doc.knownDeviations !== null;
  const outcome =
    run.outcome === 'pass'
      ? `PASS: no rule failed, none could not be judged${totals.KNOWN > 0 ? ` (${totals.KNOWN} known deviation(s) accepted, not conformant)` : ''}`
      : run.outcome === 'fail'
        ? [
            ...(totals.FAIL > 0
              ? [
                  `FAIL: ${totals.FAIL} rule(s) failed${totals.following ? ` (${totals.FAIL - totals.following} cause(s), ${totals.following} following)` : ''}`,
                ]
              : ['FAIL']),
            ...(totals.ERROR > 0 ? [`${totals.ERROR} rule(s) could not be judged (ERROR)`] : []),
            ...(totals.FAIL + totals.ERROR === 0 ? ['the known-deviations file needs attention'] : []),
          ].join(', ')
        : 'ERROR: the run could not be completed';
  const body = [
    '<header>',
    ...(doc.coverage.judged ? [`<p id="coverage-line">${esc(coverageLine(doc.coverage.judged))}</p>`] : []),
    '<h1>erpcert conformance report</h1>',
    `<p><span class="outcome outcome-${esc(run.outcome)}" id="outcome">${esc(outcome)}</span></p>`,
    facts(doc),
    '</header>',
    '<h2 id="summary">Summary by rule area</h2>',
    `<table id="areas"><thead><tr><th>Area</th><th class="n">Rules</th><th class="n">PASS</th><th class="n">FAIL</th><th class="n">ERROR</th>${known ? '<th class="n">KNOWN</th>' : ''}<th class="n">WARN</th><th class="n">SKIP</th><th class="n">Not judged</th></tr></thead>`,
    `<tbody>${countsRow('Total', totals, known, true)}${doc.areas.map((a) => countsRow(a.area, a, known)).join('')}</tbody></table>`,
    '<p class="small muted">PASS: the rule held in every check of this run, and at least one check observed it. ' +
      'FAIL: a documented or inferred rule is broken. ERROR: the rule could not be judged: the target answered 5xx, a ' +
      'body that does not parse, a reset or a timeout where a check needed an answer (the transport rules FAIL with the ' +
      'evidence), or the suite failed without naming a rule. WARN: advisory (strict profile). ' +
      'SKIP: the target lacks the data, permission or module, or no check observed the rule. Not judged: no test covers the rule, or it is unspecified ' +
      '(the docs say "not shown") outside the strict profile. Standing: documented (the docs state it), inferred ' +
      '(follows directly from what they state), unspecified (never a FAIL).' +
      (known ? ' KNOWN: a FAIL or ERROR of a rule the known-deviations file accepts; never counted as a PASS.' : '') +
      '</p>',
    knownDeviations(doc),
    causesHtml(doc),
    '<h2 id="rules">Rule matrix</h2>',
    matrix(doc, options.docsBase),
    `<h2 id="failures">Failures and errors (${doc.failures.length})</h2>`,
    doc.failures.length === 0
      ? '<p>No rule failed, and every rule that ran could be judged.</p>'
      : causeOrder(
          doc.failures.map((f, i) => ({ ...f, i })),
          (rule) => rootCauses(rule, (id) => doc.rules.find((r) => r.id === id)?.causedBy),
        )
          .map((f) => failureBlock(f, f.i, doc))
          .join('\n'),
    '<h2 id="residue">Residue</h2>',
    residue(doc),
    fixturesHtml(doc),
    '<h2 id="coverage">Coverage</h2>',
    coverage(doc),
    ...(doc.problems.length > 0
      ? [
          '<h2 id="problems">Problems of the run</h2>',
          `<ul>${doc.problems.map((p) => `<li>${esc(clip(p))}</li>`).join('')}</ul>`,
        ]
      : []),
    `<footer class="muted small"><p>Generated by erpcert ${esc(doc.tool.version)} from results.json (schema version ${doc.schemaVersion}).</p></footer>`,
  ].join('\n');
  return page(`erpcert conformance report: ${run.target.url} ${run.startedAt}`, body);
}
