/**
 * The saturation curve as an inline SVG chart: achieved throughput (left axis) and p99 latency (right axis)
 * against the offered rate (x axis), with ticks, axis titles, a legend, the ideal line (achieved = offered), the
 * documented minimum and the step where the curve broke. No script, no external asset.
 */
import { esc } from '../reports/html.js';

/** One step of the curve (LoadScenarioResult.saturation). */
export interface CurvePoint {
  readonly offered: number;
  readonly achieved: number;
  readonly p99: number;
  readonly errors: number;
  readonly dropped?: number;
}

export interface ChartOptions {
  /** Used in ids and `data-scenario`. */
  readonly scenario: string;
  /** Documented minimum rate, drawn as a horizontal line on the throughput axis. */
  readonly documentedMin?: number;
  /** p99 limit of the stepping, drawn on the latency axis. */
  readonly p99LimitMs?: number;
  /** What stopped the steps: written as a label at the last (highest) step. */
  readonly limitedBy?: 'target' | 'generator' | 'step-limit';
  readonly width?: number;
  readonly height?: number;
}

/** Round tick values from 0 to at least `max`: steps of 1, 2 or 5 times a power of ten, about `count` of them. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function label(n: number): string {
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(n % 1000 === 0 ? 0 : 1)}k`;
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

const f = (n: number) => n.toFixed(1);

/** The chart for `points` (at least one), or an explanatory paragraph when there are none. */
export function saturationChartSvg(points: readonly CurvePoint[], o: ChartOptions): string {
  if (points.length === 0) return '<p class="muted">No saturation steps were run.</p>';
  const width = o.width ?? 720;
  const height = o.height ?? 340;
  const m = { left: 64, right: 72, top: 20, bottom: 88 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const sorted = [...points].sort((a, b) => a.offered - b.offered);
  const xTicks = niceTicks(Math.max(...sorted.map((p) => p.offered)));
  const yTicks = niceTicks(Math.max(...sorted.map((p) => Math.max(p.achieved, p.offered)), o.documentedMin ?? 0));
  const pTicks = niceTicks(Math.max(...sorted.map((p) => p.p99), 1));
  const xMax = xTicks[xTicks.length - 1]!;
  const yMax = yTicks[yTicks.length - 1]!;
  const pMax = pTicks[pTicks.length - 1]!;
  const x = (v: number) => m.left + (v / xMax) * plotW;
  const y = (v: number) => m.top + plotH - (v / yMax) * plotH;
  const yp = (v: number) => m.top + plotH - (v / pMax) * plotH;
  const bottom = m.top + plotH;
  const right = m.left + plotW;
  const line = (pts: [number, number][]) => pts.map(([a, b], i) => `${i === 0 ? 'M' : 'L'}${f(a)},${f(b)}`).join(' ');
  const broken = sorted.find((p) => p.errors > 0 || (p.dropped ?? 0) > 0);
  const id = esc(o.scenario);
  const parts: string[] = [];
  parts.push(
    `<svg class="saturation-chart" data-scenario="${id}" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title-${id}">`,
    `<title id="chart-title-${id}">Saturation curve of ${id}: throughput and p99 latency against the offered rate</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#fff"/>`,
  );
  // grid and axes
  const grid = yTicks.map(
    (t) => `<line x1="${m.left}" x2="${right}" y1="${f(y(t))}" y2="${f(y(t))}" stroke="#eaeef2"/>`,
  );
  parts.push(`<g class="grid">${grid.join('')}</g>`);
  const xAxis = [
    `<line x1="${m.left}" x2="${right}" y1="${bottom}" y2="${bottom}" stroke="#57606a"/>`,
    ...xTicks.map(
      (t) =>
        `<g class="tick"><line x1="${f(x(t))}" x2="${f(x(t))}" y1="${bottom}" y2="${bottom + 5}" stroke="#57606a"/><text x="${f(x(t))}" y="${bottom + 18}" text-anchor="middle">${label(t)}</text></g>`,
    ),
    `<text class="axis-title" x="${f(m.left + plotW / 2)}" y="${bottom + 36}" text-anchor="middle">offered rate (operations/s)</text>`,
  ];
  parts.push(`<g class="axis axis-x" font-size="11" fill="#1b1f24">${xAxis.join('')}</g>`);
  const yAxis = [
    `<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${bottom}" stroke="#0969da"/>`,
    ...yTicks.map(
      (t) =>
        `<g class="tick"><line x1="${m.left - 5}" x2="${m.left}" y1="${f(y(t))}" y2="${f(y(t))}" stroke="#0969da"/><text x="${m.left - 8}" y="${f(y(t) + 4)}" text-anchor="end">${label(t)}</text></g>`,
    ),
    `<text class="axis-title" transform="translate(16 ${f(m.top + plotH / 2)}) rotate(-90)" text-anchor="middle">achieved (checked operations/s)</text>`,
  ];
  parts.push(`<g class="axis axis-y-left" font-size="11" fill="#0969da">${yAxis.join('')}</g>`);
  const pAxis = [
    `<line x1="${right}" x2="${right}" y1="${m.top}" y2="${bottom}" stroke="#bc4c00"/>`,
    ...pTicks.map(
      (t) =>
        `<g class="tick"><line x1="${right}" x2="${right + 5}" y1="${f(yp(t))}" y2="${f(yp(t))}" stroke="#bc4c00"/><text x="${right + 8}" y="${f(yp(t) + 4)}" text-anchor="start">${label(t)}</text></g>`,
    ),
    `<text class="axis-title" transform="translate(${width - 14} ${f(m.top + plotH / 2)}) rotate(90)" text-anchor="middle">p99 latency (ms)</text>`,
  ];
  parts.push(`<g class="axis axis-y-right" font-size="11" fill="#bc4c00">${pAxis.join('')}</g>`);
  // reference lines: ideal (achieved = offered) and the documented minimum
  parts.push(
    `<path class="ideal" d="${line([
      [x(0), y(0)],
      [x(Math.min(xMax, yMax)), y(Math.min(xMax, yMax))],
    ])}" stroke="#8c959f" stroke-dasharray="2 4" fill="none"/>`,
  );
  if (o.documentedMin !== undefined)
    parts.push(
      `<g class="documented"><line x1="${m.left}" x2="${right}" y1="${f(y(o.documentedMin))}" y2="${f(y(o.documentedMin))}" stroke="#1a7f37" stroke-dasharray="6 3"/><text x="${right - 4}" y="${f(y(o.documentedMin) - 4)}" text-anchor="end" font-size="11" fill="#1a7f37">documented minimum ${label(o.documentedMin)}/s</text></g>`,
    );
  if (o.p99LimitMs !== undefined && o.p99LimitMs <= pMax)
    parts.push(
      `<g class="p99-limit"><line x1="${m.left}" x2="${right}" y1="${f(yp(o.p99LimitMs))}" y2="${f(yp(o.p99LimitMs))}" stroke="#bc4c00" stroke-dasharray="1 3"/><text x="${m.left + 4}" y="${f(yp(o.p99LimitMs) - 4)}" font-size="11" fill="#bc4c00">p99 limit ${label(o.p99LimitMs)} ms</text></g>`,
    );
  // the two series
  const tp = sorted.map((p) => [x(p.offered), y(p.achieved)] as [number, number]);
  const lat = sorted.map((p) => [x(p.offered), yp(p.p99)] as [number, number]);
  parts.push(
    `<path class="series series-throughput" d="${line(tp)}" stroke="#0969da" stroke-width="2.5" fill="none"/>`,
    `<g class="markers markers-throughput" fill="#0969da">${tp.map(([a, b]) => `<circle cx="${f(a)}" cy="${f(b)}" r="4"/>`).join('')}</g>`,
    `<path class="series series-p99" d="${line(lat)}" stroke="#bc4c00" stroke-width="2" stroke-dasharray="7 4" fill="none"/>`,
    `<g class="markers markers-p99" fill="#bc4c00">${lat.map(([a, b]) => `<rect x="${f(a - 3.5)}" y="${f(b - 3.5)}" width="7" height="7"/>`).join('')}</g>`,
  );
  if (broken)
    parts.push(
      `<g class="broken"><circle cx="${f(x(broken.offered))}" cy="${f(y(broken.achieved))}" r="9" fill="none" stroke="#cf222e" stroke-width="2"/></g>`,
    );
  // what stopped the steps, at the highest step
  if (o.limitedBy !== undefined) {
    const last = sorted[sorted.length - 1]!;
    const lx = x(last.offered);
    const anchor = lx > m.left + plotW * 0.6 ? 'end' : 'start';
    const dx = anchor === 'end' ? -10 : 10;
    const colour = o.limitedBy === 'generator' ? '#9a6700' : o.limitedBy === 'target' ? '#cf222e' : '#57606a';
    parts.push(
      `<g class="limited-by" data-limited-by="${esc(o.limitedBy)}"><line x1="${f(lx)}" x2="${f(lx)}" y1="${m.top}" y2="${bottom}" stroke="${colour}" stroke-dasharray="3 3"/><text x="${f(lx + dx)}" y="${m.top + 12}" text-anchor="${anchor}" font-size="11" font-weight="bold" fill="${colour}">limited by ${esc(o.limitedBy)}</text></g>`,
    );
  }
  // legend, under the x axis title
  const ly = height - 22;
  const items: string[] = [
    `<line x1="0" x2="24" y1="0" y2="0" stroke="#0969da" stroke-width="2.5"/><circle cx="12" cy="0" r="4" fill="#0969da"/><text x="30" y="4">achieved throughput</text>`,
    `<line x1="0" x2="24" y1="0" y2="0" stroke="#bc4c00" stroke-width="2" stroke-dasharray="7 4"/><rect x="8.5" y="-3.5" width="7" height="7" fill="#bc4c00"/><text x="30" y="4">p99 latency</text>`,
    `<line x1="0" x2="24" y1="0" y2="0" stroke="#8c959f" stroke-dasharray="2 4"/><text x="30" y="4">ideal (achieved = offered)</text>`,
    ...(broken
      ? [
          `<circle cx="12" cy="0" r="6" fill="none" stroke="#cf222e" stroke-width="2"/><text x="30" y="4">first step with errors or drops</text>`,
        ]
      : []),
  ];
  const widths = [160, 110, 180, 210];
  let lx = m.left;
  const legend = items.map((item, i) => {
    const g = `<g class="legend-item" transform="translate(${lx} ${ly})">${item}</g>`;
    lx += widths[i] ?? 160;
    return g;
  });
  parts.push(`<g class="legend" font-size="11" fill="#1b1f24">${legend.join('')}</g>`, '</svg>');
  return parts.join('\n');
}
