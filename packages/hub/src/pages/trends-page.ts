/**
 * Load trends of a target (`/targets/:id/trends`): each scenario's throughput and latency over its load runs
 * (oldest first) as inline SVG with the documented figure as a dashed line, and per run the saturation knee and what
 * limited it. erpcert's load results measure p50, p90 and p99 (no p95), so the latency chart draws p90 and p99.
 */
import type { ScenarioTrend, StoredTarget } from '../api/run-views.js';
import { type Html, href, html } from './html.js';
import { page, verdict } from './layout.js';
import { lineChart } from './svg-chart.js';

function scenarioSection(s: ScenarioTrend, i: number): Html {
  const xLabels = s.points.map((p) => p.build ?? `#${p.run}`);
  const hasRate = s.points.some((p) => p.throughput !== null);
  const hasRead = s.points.some((p) => p.readSeconds !== null);
  const rateLines =
    s.documentedRate?.min !== null && s.documentedRate?.min !== undefined
      ? [{ name: 'documented minimum', value: s.documentedRate.min }]
      : [];
  if (
    s.documentedRate?.max !== null &&
    s.documentedRate?.max !== undefined &&
    s.documentedRate.max !== s.documentedRate.min
  )
    rateLines.push({ name: 'documented maximum', value: s.documentedRate.max });
  const id = `s${i}`;
  return html`<section aria-labelledby="${id}-heading">
<h2 id="${id}-heading">${s.scenario}</h2>
<p>Documented: ${s.documented}</p>
${
  hasRate
    ? lineChart({
        id: `${id}-rate`,
        title: `${s.scenario}: throughput per run`,
        description: `Achieved requests per second over ${s.points.length} load runs, oldest first${rateLines.length ? `; the dashed line is the documented figure (${s.documented})` : ''}.`,
        unit: 'req/s',
        xLabels,
        series: [{ name: 'throughput (req/s)', values: s.points.map((p) => p.throughput) }],
        lines: rateLines,
      })
    : ''
}
${
  hasRead
    ? lineChart({
        id: `${id}-read`,
        title: `${s.scenario}: seconds of the documented read per run`,
        description: `Seconds to read the documented number of records, over ${s.points.length} load runs, oldest first.`,
        unit: 's',
        xLabels,
        series: [{ name: 'read time (s)', values: s.points.map((p) => p.readSeconds) }],
      })
    : ''
}
${lineChart({
  id: `${id}-latency`,
  title: `${s.scenario}: latency per run`,
  description: `p90 and p99 latency in milliseconds over ${s.points.length} load runs, oldest first.`,
  unit: 'ms',
  xLabels,
  series: [
    { name: 'p90 (ms)', values: s.points.map((p) => p.p90Ms) },
    { name: 'p99 (ms)', values: s.points.map((p) => p.p99Ms) },
  ],
})}
<div class="scroll"><table aria-label="${s.scenario}: figures per run">
<thead><tr><th scope="col">Run</th><th scope="col">Build</th><th scope="col">Verdict</th><th scope="col" class="num">Throughput req/s</th><th scope="col" class="num">p90 ms</th><th scope="col" class="num">p99 ms</th><th scope="col" class="num">Read s</th><th scope="col" class="num">Saturation knee req/s</th><th scope="col">Limited by</th></tr></thead>
<tbody>${s.points.map(
    (
      p,
    ) => html`<tr><th scope="row"><a href="${href(['runs', p.run])}">#${p.run}</a></th><td>${p.build ?? ''}</td><td>${verdict(p.verdict.toUpperCase())}</td>
<td class="num">${p.throughput ?? '—'}</td><td class="num">${p.p90Ms}</td><td class="num">${p.p99Ms}</td><td class="num">${p.readSeconds ?? '—'}</td><td class="num">${p.knee ?? '—'}</td><td>${p.limitedBy ?? '—'}</td></tr>`,
  )}</tbody></table></div>
</section>`;
}

export function trendsPage(target: StoredTarget, trends: { runs: number; scenarios: readonly ScenarioTrend[] }): Html {
  const body =
    trends.scenarios.length === 0
      ? html`<p>${target.name} has no load run yet. Publish one made by <code>erpcert load</code>.</p>`
      : html`<p>${trends.runs} load run${trends.runs === 1 ? '' : 's'}, oldest first. Latency is drawn at p90 and p99: the percentiles erpcert's load results hold.</p>
${trends.scenarios.map(scenarioSection)}`;
  return page(
    {
      title: `Load trends of ${target.name}`,
      nav: 'targets',
      crumbs: [
        ['Targets', '/'],
        [target.name, href(['targets', target.id])],
      ],
    },
    body,
  );
}
