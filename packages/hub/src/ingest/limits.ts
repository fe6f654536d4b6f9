/** How much one upload may hold; what exceeds it is refused with 413 and nothing is stored. */
export interface IngestLimits {
  /** Total bytes of the run's files, uncompressed (counted while inflating, never taken from zip headers). */
  readonly maxRunBytes: number;
  /** Number of files in the run. */
  readonly maxFiles: number;
  /** Inflated / compressed size of a zip entry above which it is taken for a zip bomb (entries over 1 MiB). */
  readonly maxRatio: number;
}

const MIB = 1024 * 1024;

/** The defaults: 64 MiB, 2,000 files, ratio 200 (a results.json compresses 10-40 times). */
export const DEFAULT_LIMITS: IngestLimits = { maxRunBytes: 64 * MIB, maxFiles: 2000, maxRatio: 200 };

/** Entries smaller than this are not ratio-checked (a small file of spaces compresses a thousand times). */
export const RATIO_FLOOR_BYTES = MIB;

export function formatBytes(n: number): string {
  return n >= MIB ? `${(n / MIB).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} bytes`;
}
