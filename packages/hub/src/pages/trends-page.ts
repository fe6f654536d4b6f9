/**
 * Load trends of a target (`/targets/:id/trends`): each scenario's throughput and p95 latency over its load runs
 * (oldest first) as inline SVG with the documented figure as a dashed line, the saturation knee per run, and a table
 * with the figures of each run and what limited its saturation. A run of an erpcert that did not measure p95 has
 * none: its p95 is "not recorded" (a gap in the chart), never 0.
 */
import { P95_NOT_RECORDED, type ScenarioTrend, type StoredTarget } from '../api/run-views.js';
import { type Html, href, html } from './html.js';
import { page, verdict } from './layout.js';
import { lineChart } from './svg-chart.js';

/** "p95 not recorded for #3, #4 (erpcert before p95)", or nothing when every run has it. */
function p95Gaps(s: ScenarioTrend): string {
  const missing = s.points.filter((p) => p.p95Ms === null).map((p) => p.build ?? `#${p.run}`);
  return missing.length === 0 ? '' : `; p95 not recorded for ${missing.join(', ')} (an erpcert before p95)`;
}

/** "limited by target in every run", or per run: "v1.0 target, v1.1 generator". */
function limiters(s: ScenarioTrend): string {
  const withKnee = s.points.filter((p) => p.knee !== null);
  const kinds = new Set(withKnee.map((p) => p.limitedBy ?? 'unknown'));
  if (kinds.size === 1 && withKnee.length === s.points.length) return `limited by ${[...kinds][0]} in every run`;
  return `limited by: ${withKnee.map((p) => `${p.build ?? `#${p.run}`} ${p.limitedBy ?? 'unknown'}`).join(', ')}`;
}

function scenarioSection(s: ScenarioTrend, i: number): Html {
  const xLabels = s.points.map((p) => p.build ?? `#${p.run}`);
  const hasRate = s.points.some((p) => p.throughput !== null);
  const hasRead = s.points.some((p) => p.readSeconds !== null);
  const hasKnee = s.points.some((p) => p.knee !== null);
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
  title: `${s.scenario}: p95 latency per run`,
  description: `p95 latency in milliseconds over ${s.points.length} load runs, oldest first, with p99 beside it${p95Gaps(s)}.`,
  unit: 'ms',
  xLabels,
  series: [
    { name: 'p95 (ms)', values: s.points.map((p) => p.p95Ms) },
    { name: 'p99 (ms)', values: s.points.map((p) => p.p99Ms) },
  ],
})}
${
  hasKnee
    ? lineChart({
        id: `${id}-knee`,
        title: `${s.scenario}: saturation knee per run`,
        description: `Best achieved rate among the saturation steps that held, over ${s.points.length} load runs, oldest first; ${limiters(s)}${rateLines.length ? `; the dashed line is the documented figure (${s.documented})` : ''}.`,
        unit: 'req/s',
        xLabels,
        series: [{ name: 'saturation knee (req/s)', values: s.points.map((p) => p.knee) }],
        lines: rateLines,
      })
    : ''
}
<div class="scroll"><table aria-label="${s.scenario}: figures per run">
<thead><tr><th scope="col">Run</th><th scope="col">Build</th><th scope="col">Verdict</th><th scope="col" class="num">Throughput req/s</th><th scope="col" class="num">p90 ms</th><th scope="col" class="num">p95 ms</th><th scope="col" class="num">p99 ms</th><th scope="col" class="num">Read s</th><th scope="col" class="num">Saturation knee req/s</th><th scope="col">Limited by</th></tr></thead>
<tbody>${s.points.map(
    (
      p,
    ) => html`<tr><th scope="row"><a href="${href(['runs', p.run])}">#${p.run}</a></th><td>${p.build ?? ''}</td><td>${verdict(p.verdict.toUpperCase())}</td>
<td class="num">${p.throughput ?? '—'}</td><td class="num">${p.p90Ms}</td><td class="num">${p.p95Ms ?? P95_NOT_RECORDED}</td><td class="num">${p.p99Ms}</td><td class="num">${p.readSeconds ?? '—'}</td><td class="num">${p.knee ?? '—'}</td><td>${p.limitedBy ?? '—'}</td></tr>`,
  )}</tbody></table></div>
</section>`;
}

export function trendsPage(target: StoredTarget, trends: { runs: number; scenarios: readonly ScenarioTrend[] }): Html {
  const body =
    trends.scenarios.length === 0
      ? html`<p>${target.name} has no load run yet. Publish one made by <code>erpcert load</code>.</p>`
      : html`<p>${trends.runs} load run${trends.runs === 1 ? '' : 's'}, oldest first. Per scenario: the throughput against the documented figure (dashed), the p95 latency (p99 beside it), the saturation knee, and per run what limited the saturation. A run of an erpcert before p95 shows its p95 as "not recorded".</p>
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
