/**
 * The latency percentiles of an autocannon run, p95 included. autocannon 9 reports its latency histogram at fixed
 * percentiles (hdr-histogram-percentiles-obj: ..., p90, p97.5, p99, ...), without p95. Each response time autocannon
 * emits (the instance's `response` event: the value its own histogram records, for every response) goes into an HDR
 * histogram built as autocannon builds its latency histogram (lib/histUtil.js), and every percentile is read from
 * it: p95 is the histogram's value at the 95th percentile, measured, not interpolated between p90 and p97.5.
 */
import type { Latency } from '@erpcert/load-k6';
import * as hdr from 'hdr-histogram-js';

hdr.initWebAssemblySync();

/** autocannon 9's latency histogram settings (lib/histUtil.js getHistograms). */
const AUTOCANNON_LATENCY = {
  useWebAssembly: true,
  bitBucketSize: 64,
  autoResize: true,
  lowestDiscernibleValue: 1,
  highestTrackableValue: 10_000,
  numberOfSignificantValueDigits: 5,
} as const;

/** All zero: a run that got no response. */
export const NO_LATENCY: Latency = { p50: 0, p90: 0, p95: 0, p99: 0, max: 0 };

/** Response times in milliseconds, read back as p50/p90/p95/p99/max. Call {@link destroy} when done. */
export class LatencyHistogram {
  private readonly histogram = hdr.build(AUTOCANNON_LATENCY);
  private destroyed = false;

  /** Records one response time (ms). */
  record(ms: number): void {
    this.histogram.recordValue(ms);
  }

  /** Responses recorded. */
  get count(): number {
    return this.histogram.totalCount;
  }

  /** The percentiles of what was recorded; all zero when nothing was. */
  latency(): Latency {
    if (this.count === 0) return NO_LATENCY;
    const at = (p: number) => this.histogram.getValueAtPercentile(p);
    return { p50: at(50), p90: at(90), p95: at(95), p99: at(99), max: this.histogram.maxValue };
  }

  /** Frees the WebAssembly memory of the histogram. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.histogram.destroy();
  }
}
