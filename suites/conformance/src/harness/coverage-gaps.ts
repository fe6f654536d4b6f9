/**
 * The allow-list of coverage gaps (coverage.test.ts): testable rules (documented or inferred, observable)
 * that no conformance test names yet, each with the reason. The lists may only shrink: the test fails on
 * a new gap (a rule left without a test) and on an entry that a test covers now.
 */

/** REST rules without a conformance test, and why. */
export const REST_GAPS: Readonly<Record<string, string>> = {
  // §4 rule 2 says "All required values must be supplied" but no document names the required values of any
  // register, so no request can be built that must be refused.
  'REST.WRITE.JSON_REQUIRED_VALUES': 'the required values of a register are not shown',
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

/**
 * PORTAL rules without a conformance test (properties/portal/, properties/model/), and why. Most are writes
 * whose result the suite could not identify or undo on a staging ERP (DESIGN.md "Running against somebody's
 * staging ERP"), or behaviour whose data the docs do not name.
 */
export const PORTAL_GAPS: Readonly<Record<string, string>> = {
  // serving sendemail means sending a real e-mail to a real customer: a conformance run never does that; the
  // refusals without an address are tested (PORTAL.EMAIL.PRECONDITIONS, PORTAL.EMAIL.SENDEMAIL)
  'PORTAL.EMAIL.REGISTERS': 'a successful sendemail sends a real e-mail from the target',
  // no documented operation makes a shipment of an order or a lock on a record
  'PORTAL.AEF.ORVC_WITH_SHIPMENTS': 'no documented operation makes a shipment of an order',
  'PORTAL.ERRORS.RECORD_LOCKED': 'what locks a record is not documented, and no operation makes a lock',
  // the data these triggers load lives in registers or settings the docs do not name
  'PORTAL.TRIGGER.IVVC_MACHINENAME_DRAWER': 'the drawer of a machine is target configuration the docs do not name',
  'PORTAL.TRIGGER.ORVC_RECEPY': 'recipes (BOM) live in a register the docs do not name',
  'PORTAL.TRIGGER.ACTVC_TEXTCODE': 'text templates live in a register the docs do not name',
  // "Quant (may change price for quantity discounts)": any outcome conforms, so no answer can fail it
  'PORTAL.TRIGGER.ORVC_QUANT_DISCOUNT': 'a "may" admits every outcome: no answer can break it',
  // judged by the harness on every 5xx answer of every test (target-fault.ts), as its REST twin
  'PORTAL.ERRORS.FAILURE_FORM': 'judged on every 5xx answer by the harness; no request provokes one',
};
