/**
 * A line chart as inline SVG, drawn on the server: one or two series over runs (x: the runs in order), and optional
 * horizontal lines (a documented figure). Only presentation attributes and classes (the CSP allows no inline
 * style); `role="img"` with a title and a description names it, and the page gives the same numbers in a table.
 */
import { type Html, html } from './html.js';

export interface Series {
  readonly name: string;
  /** One value per x position; null where the run has no figure. */
  readonly values: readonly (number | null)[];
}

export interface ChartOptions {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly unit: string;
  /** Labels of the x positions (builds or run ids). */
  readonly xLabels: readonly string[];
  readonly series: readonly Series[];
  readonly lines?: readonly { readonly name: string; readonly value: number }[];
}

const W = 640;
const H = 250;
const LEFT = 56;
const RIGHT = 28;
const TOP = 26;
const BOTTOM = 42;

function niceMax(v: number): number {
  if (v <= 0) return 1;
  const exp = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * exp >= v) return m * exp;
  return 10 * exp;
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

export function lineChart(o: ChartOptions): Html {
  const n = o.xLabels.length;
  const all = [
    ...o.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v))),
    ...(o.lines ?? []).map((l) => l.value),
  ];
  const max = niceMax(Math.max(0, ...all) * 1.05);
  const x = (i: number) => LEFT + (n <= 1 ? (W - LEFT - RIGHT) / 2 : (i * (W - LEFT - RIGHT)) / (n - 1));
  const y = (v: number) => TOP + (H - TOP - BOTTOM) * (1 - v / max);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => t * max);
  const every = Math.max(1, Math.ceil(n / 10));
  const seriesMarks = o.series.map((s, k) => {
    const cls = k === 0 ? 'a' : 'b';
    const pts = s.values.map((v, i) => (v === null ? null : ([x(i), y(v)] as const)));
    const path = pts
      .map((p, i) =>
        p === null ? '' : `${i === 0 || pts[i - 1] === null ? 'M' : 'L'}${p[0].toFixed(1)},${p[1].toFixed(1)}`,
      )
      .join(' ')
      .trim();
    return html`${path ? html`<path class="series-${cls}" d="${path}"></path>` : ''}${pts.map((p) =>
      p === null
        ? ''
        : html`<circle class="dot-${cls}" cx="${p[0].toFixed(1)}" cy="${p[1].toFixed(1)}" r="3"></circle>`,
    )}`;
  });
  return html`<svg class="chart" id="${o.id}" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${o.id}-title ${o.id}-desc" xmlns="http://www.w3.org/2000/svg">
<title id="${o.id}-title">${o.title}</title>
<desc id="${o.id}-desc">${o.description}</desc>
${ticks.map(
  (t) =>
    html`<line class="grid" x1="${LEFT}" x2="${W - RIGHT}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"></line><text x="${LEFT - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${fmt(t)}</text>`,
)}
<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${H - BOTTOM}"></line>
<line class="axis" x1="${LEFT}" x2="${W - RIGHT}" y1="${H - BOTTOM}" y2="${H - BOTTOM}"></line>
<text x="${LEFT}" y="${TOP - 12}" text-anchor="middle">${o.unit}</text>
${o.xLabels.map((l, i) =>
  i % every === 0 || i === n - 1
    ? html`<text x="${x(i).toFixed(1)}" y="${H - BOTTOM + 16}" text-anchor="middle">${l.length > 12 ? `${l.slice(0, 11)}…` : l}</text>`
    : '',
)}
${(o.lines ?? []).map(
  (l) =>
    html`<line class="documented" x1="${LEFT}" x2="${W - RIGHT}" y1="${y(l.value).toFixed(1)}" y2="${y(l.value).toFixed(1)}"></line>`,
)}
${seriesMarks}
</svg>
<ul class="legend">${o.series.map(
    (s, k) => html`<li><span class="key key-${k === 0 ? 'a' : 'b'}" aria-hidden="true"></span>${s.name}</li>`,
  )}${(o.lines ?? []).map((l) => html`<li><span class="key key-doc" aria-hidden="true"></span>${l.name} (${fmt(l.value)} ${o.unit})</li>`)}</ul>`;
}
