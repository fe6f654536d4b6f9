import { describe, expect, it } from 'vitest';
import { niceTicks, saturationChartSvg } from './saturation-chart.js';

describe('niceTicks', () => {
  it.each([
    [10, [0, 2, 4, 6, 8, 10]],
    [232, [0, 50, 100, 150, 200, 250]],
    [2300, [0, 500, 1000, 1500, 2000, 2500]],
    [3, [0, 1, 2, 3]],
    [0, [0, 1]],
  ])('up to %d', (max, want) => {
    expect(niceTicks(max)).toEqual(want);
  });
});

describe('saturationChartSvg', () => {
  const points = [
    { offered: 4, achieved: 4, p99: 12, errors: 0, dropped: 0 },
    { offered: 61, achieved: 61, p99: 35, errors: 0, dropped: 0 },
    { offered: 118, achieved: 90, p99: 2300, errors: 0, dropped: 30 },
  ];
  const svg = saturationChartSvg(points, { scenario: 'invoices', documentedMin: 3 });
  const count = (re: RegExp) => (svg.match(re) ?? []).length;

  it('draws both series with a marker per step', () => {
    expect(count(/class="series series-throughput"/g)).toBe(1);
    expect(count(/class="series series-p99"/g)).toBe(1);
    expect(svg).toMatch(/<g class="markers markers-throughput"[^>]*>(<circle [^>]+\/>){3}<\/g>/);
    expect(svg).toMatch(/<g class="markers markers-p99"[^>]*>(<rect [^>]+\/>){3}<\/g>/);
  });

  it('has three axes with ticks and titles, a legend and the documented minimum', () => {
    for (const axis of ['axis-x', 'axis-y-left', 'axis-y-right']) expect(svg).toContain(`class="axis ${axis}"`);
    expect(svg).toContain('offered rate (operations/s)');
    expect(svg).toContain('achieved (checked operations/s)');
    expect(svg).toContain('p99 latency (ms)');
    expect(count(/class="legend-item"/g)).toBe(4); // throughput, p99, ideal, broken step
    expect(svg).toContain('documented minimum 3/s');
  });

  it('marks the first step with drops', () => {
    expect(svg).toContain('<g class="broken">');
    const clean = saturationChartSvg(points.slice(0, 2), { scenario: 'x' });
    expect(clean).not.toContain('<g class="broken">');
  });

  it('labels the highest step with what limited the steps, and draws no label without a verdict', () => {
    const unsorted = [points[2]!, points[0]!, points[1]!]; // bisection runs steps out of order
    const labelled = saturationChartSvg(unsorted, { scenario: 'invoices', limitedBy: 'generator' });
    expect(labelled).toMatch(/<g class="limited-by" data-limited-by="generator"><line x1="([\d.]+)" x2="\1"/);
    const x = /<g class="limited-by"[^>]*><line x1="([\d.]+)"/.exec(labelled)?.[1];
    const highest = /<g class="markers markers-throughput"[^>]*>(?:<circle [^>]+\/>){2}<circle cx="([\d.]+)"/.exec(
      labelled,
    )?.[1];
    expect(x).toBe(highest); // the label stands at the 118/s step, the last of the sorted markers
    expect(labelled).toContain('>limited by generator</text>');
    expect(svg).not.toContain('class="limited-by"');
  });

  it('says so when there are no steps', () => {
    expect(saturationChartSvg([], { scenario: 'x' })).toContain('No saturation steps');
  });
});
