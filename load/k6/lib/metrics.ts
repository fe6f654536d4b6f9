/**
 * The custom k6 metrics of the scenarios (names in names.ts) and the helpers that feed them. An operation counts
 * as throughput only when its request succeeded and every check held; otherwise it counts as one error.
 */
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { bodyBytes, type TextResponse } from './erp.ts';
import {
  OP_ERRORS,
  OPS,
  READ_BYTES,
  READ_MS,
  READ_RECORDS,
  READ_WALL_MS,
  REQ_DURATION,
  REQS,
  RESPONSE_BYTES,
} from './names.ts';

const ops = new Counter(OPS);
const opErrors = new Counter(OP_ERRORS);
const reqs = new Counter(REQS);
const reqDuration = new Trend(REQ_DURATION, true);
const responseBytes = new Counter(RESPONSE_BYTES);
const readRecords = new Counter(READ_RECORDS);
const readMs = new Counter(READ_MS);
const readWallMs = new Counter(READ_WALL_MS);
const readBytes = new Counter(READ_BYTES);

/** Records one request of a measured operation: count, duration (sending + waiting + receiving), body bytes. */
export function measure(response: TextResponse): number {
  const bytes = bodyBytes(response);
  reqs.add(1);
  reqDuration.add(response.timings.duration);
  responseBytes.add(bytes);
  return bytes;
}

/**
 * Runs named checks (k6 `check`, so they count in the `checks` rate) and returns whether all held. A check
 * that throws counts as failed.
 */
export function checkAll(checks: Record<string, () => boolean>): boolean {
  const sets: Record<string, () => boolean> = {};
  for (const [name, fn] of Object.entries(checks)) {
    sets[name] = () => {
      try {
        return fn();
      } catch {
        return false;
      }
    };
  }
  return check(null, sets);
}

/** Counts a finished operation once: as throughput when `ok`, else as an error. */
export function finishOperation(ok: boolean): void {
  if (ok) ops.add(1);
  else opErrors.add(1);
}

/** Adds one paced read's figures under the tag `batch`. */
export function recordRead(
  batch: number,
  figures: { records: number; ms: number; wallMs: number; bytes: number },
): void {
  const tags = { batch: String(batch) };
  readRecords.add(figures.records, tags);
  readMs.add(figures.ms, tags);
  readWallMs.add(figures.wallMs, tags);
  readBytes.add(figures.bytes, tags);
}

/**
 * Logs the mark the Node runner aligns its CPU window with (src/k6-process.ts LOAD_START_MARK): setup() is done,
 * the arrivals start now.
 */
export function loadStarts(): void {
  (globalThis as unknown as { console: { log(message: string): void } }).console.log('erpcert-load-start');
}
