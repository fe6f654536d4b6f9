/**
 * The allow-list of coverage gaps (coverage.test.ts): testable rules (documented or inferred, observable)
 * that no conformance test names yet, each with the reason. The lists may only shrink: the test fails on
 * a new gap (a rule left without a test) and on an entry that a test covers now.
 */

/** REST rules without a conformance test, and why. */
export const REST_GAPS: Readonly<Record<string, string>> = {
  // §8 figures are typical throughput and latency, measured by `erpcert load` (k6/autocannon), not judged
  // by the conformance suite, which must stay fast and gentle on a staging ERP.
  'REST.LIMITS.UNFILTERED_READ_COST': 'performance: measured by erpcert load',
  'REST.LIMITS.THROUGHPUT_FINANCIAL': 'performance: measured by erpcert load',
  'REST.LIMITS.THROUGHPUT_CONFIRMED_INVOICES': 'performance: measured by erpcert load',
  'REST.LIMITS.READ_RAW': 'performance: measured by erpcert load',
  'REST.LIMITS.READ_TEN_FIELDS': 'performance: measured by erpcert load',
  'REST.LIMITS.THROUGHPUT_NOT_ENFORCED': 'performance: measured by erpcert load',
  // judged by the harness on every 5xx answer of every test (target-fault.ts); a request cannot make a correct
  // server fail, so no test can observe it on demand
  'REST.ENVELOPE.FAILURE_XML_OR_JSON': 'judged on every 5xx answer by the harness; no request provokes one',
};

/** PORTAL rules without a conformance test (properties/portal/, properties/model/), and why. */
export const PORTAL_GAPS: Readonly<Record<string, string>> = {
  // judged by the harness on every 5xx answer of every test (target-fault.ts), as its REST twin
  'PORTAL.ERRORS.FAILURE_FORM': 'judged on every 5xx answer by the harness; no request provokes one',
};
