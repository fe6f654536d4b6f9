/**
 * Names of the custom k6 metrics the scenarios emit and the result reads. Plain constants (no k6 import), so that
 * the Node side and the k6 side agree on them.
 */

/** Counter: operations whose request succeeded and whose every check held (a fast error is not throughput). */
export const OPS = 'erp_ops';
/** Counter: operations that failed (request error or a failed check), counted once each. */
export const OP_ERRORS = 'erp_op_errors';
/** Counter: requests of the measured operations (not setup, login or teardown). */
export const REQS = 'erp_reqs';
/** Trend (ms): duration of each measured request, the latency of the result. */
export const REQ_DURATION = 'erp_req_duration';
/** Counter: bytes of the measured response bodies. */
export const RESPONSE_BYTES = 'erp_response_bytes';

/** Counter per batch size (tag `batch`): records read. */
export const READ_RECORDS = 'erp_read_records';
/** Counter per batch size: sum of the read requests' durations in ms (the measured read time). */
export const READ_MS = 'erp_read_ms';
/** Counter per batch size: wall time of the whole paced read in ms, pauses included. */
export const READ_WALL_MS = 'erp_read_wall_ms';
/** Counter per batch size: response bytes of the read. */
export const READ_BYTES = 'erp_read_bytes';

/** Built-in k6 metrics the result reads. */
export const DROPPED = 'dropped_iterations';
export const CHECKS = 'checks';
export const HTTP_REQS = 'http_reqs';

/** Threshold expressions that always hold: they only make k6 keep a sub-metric in the summary. */
export const INFO_EXPRESSIONS: readonly string[] = ['count>=0', 'max>=0'];

/** `metric{tag:value}`: the sub-metric name k6 uses in thresholds and in the summary. */
export function submetric(metric: string, tag: string, value: string | number): string {
  return `${metric}{${tag}:${value}}`;
}
