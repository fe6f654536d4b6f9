import type { LoadRunDocument, LoadScenarioEntry } from '@erpcert/runs';
import { esc, page } from '../reports/html.js';
import {
  baselineTable,
  bytesTable,
  errorTable,
  LIMITED_BY_MEANING,
  latencyTable,
  notes,
  readsTable,
  saturationTable,
  type Table,
  verdictTable,
} from './report-sections.js';
import { saturationChartSvg } from './saturation-chart.js';

const VERDICT_CLASS: Record<string, string> = { pass: 'pass', fail: 'fail', info: 'skip' };

/** An HTML table; the `verdictColumn` cells become coloured labels. */
function htmlTable(id: string, t: Table, verdictColumn?: number): string {
  const head = t.head.map((h, i) => `<th${t.numeric.includes(i) ? ' class="n"' : ''}>${esc(h)}</th>`).join('');
  const rows = t.rows.map((r) => {
    const cells = r.map((c, i) => {
      if (i === verdictColumn) return `<td><span class="v v-${VERDICT_CLASS[c] ?? 'none'}">${esc(c)}</span></td>`;
      return `<td${t.numeric.includes(i) ? ' class="n"' : ''}>${esc(c)}</td>`;
    });
    return `<tr data-scenario="${esc(r[0])}">${cells.join('')}</tr>`;
  });
  return `<table id="${id}"><thead><tr>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

function chartSection(e: LoadScenarioEntry): string {
  const min = e.documented.ratePerSecond?.min;
  const v = e.saturationVerdict;
  const options = {
    scenario: e.scenario,
    ...(min !== undefined ? { documentedMin: min } : {}),
    ...(v ? { limitedBy: v.limitedBy } : {}),
  };
  return [
    `<h3>${esc(e.scenario)}: ${esc(e.title)}</h3>`,
    `<figure class="chart">${saturationChartSvg(e.saturation ?? [], options)}`,
    `<figcaption class="muted small">${esc(v?.reason ?? '')}</figcaption></figure>`,
    ...(v
      ? [
          `<p class="limited-by" data-limited-by="${esc(v.limitedBy)}"><strong>Limited by: ${esc(v.limitedBy)}</strong> (${esc(LIMITED_BY_MEANING[v.limitedBy])}). Evidence: ${esc(v.evidence)}.</p>`,
          ...(v.advice ? [`<p class="advice"><strong>What to do:</strong> ${esc(v.advice)}.</p>`] : []),
        ]
      : []),
    htmlTable(`steps-${e.scenario}`, saturationTable(e)),
  ].join('\n');
}

/** report.html: the load report, self-contained (inline styles and SVG, no script, no external asset). */
export function renderLoadReportHtml(doc: LoadRunDocument): string {
  const r = doc.run;
  const failed = doc.scenarios.filter((e) => e.verdict === 'fail').length;
  const outcome =
    r.outcome === 'pass'
      ? 'PASS: every threshold held'
      : r.outcome === 'fail'
        ? `FAIL: ${failed} scenario(s) missed their threshold`
        : 'ERROR: the run could not be completed';
  const facts: [string, string][] = [
    [
      'Target',
      `${r.target.url}${r.target.embedded ? ` (embedded reference server, seed size ${r.target.seedSize})` : ''}`,
    ],
    ['Started', r.startedAt],
    ['Duration', `${r.durationSeconds} s`],
    ['Engine', `${r.engine}: ${r.engineNote}`],
    ['Company', `${r.target.compcode ?? 'not sent'} (${r.target.companyIn}), portal ${r.target.portalPath}`],
    ['Command', r.command],
    ['erpcert', doc.tool.version],
  ];
  const curves = doc.scenarios.filter((e) => (e.saturation ?? []).length > 0);
  const bytes = bytesTable(doc);
  const reads = readsTable(doc);
  const body = [
    '<h1>erpcert load report</h1>',
    `<p><span id="outcome" class="outcome outcome-${esc(r.outcome)}">${esc(outcome)}</span></p>`,
    `<dl class="facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`,
    '<h2>Verdicts: documented against measured</h2>',
    htmlTable('verdicts', verdictTable(doc), 4),
    '<h2>Latency percentiles</h2>',
    htmlTable('latency', latencyTable(doc)),
    '<h2>Errors</h2>',
    htmlTable('errors', errorTable(doc)),
    ...(bytes.rows.length ? ['<h2>Bytes per record</h2>', htmlTable('bytes', bytes)] : []),
    ...(reads.rows.length ? ['<h2>Reads</h2>', htmlTable('reads', reads)] : []),
    '<h2>Saturation</h2>',
    curves.length
      ? `<p class="muted">Throughput and p99 latency against the offered rate, stepped upwards until errors, drops or latency broke.</p>\n${curves.map(chartSection).join('\n')}`
      : '<p class="muted">No saturation run (turn it on with <code>--saturation</code>).</p>',
    ...(doc.baseline
      ? [
          '<h2>Change against the baseline</h2>',
          `<p class="muted">Baseline <code>${esc(doc.baseline.dir)}</code> (${esc(doc.baseline.startedAt)}, ${esc(doc.baseline.engine)}).</p>`,
          doc.baseline.changes.length ? htmlTable('baseline', baselineTable(doc)) : '<p>No scenario in common.</p>',
        ]
      : []),
    ...(doc.problems.length
      ? ['<h2>Problems</h2>', `<ul>${doc.problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>`]
      : []),
    '<h2>Notes</h2>',
    `<ul class="small">${notes(doc)
      .map((n) => `<li>${esc(n)}</li>`)
      .join('')}</ul>`,
  ].join('\n');
  return page(`erpcert load ${r.startedAt}`, body);
}
