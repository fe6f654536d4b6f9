/**
 * @erpcert/runs: what reads a run folder, beneath the CLI and the hub: the results documents, their JSON
 * Schemas and validators, the load results reader, report diff, and the verification of a signed folder.
 */
export * from './attest/dsse.js';
export * from './attest/keys.js';
export * from './attest/predicate.js';
export * from './attest/predicate-validate.js';
export * from './attest/statement.js';
export * from './attest/verify.js';
export * from './load/baseline.js';
export * from './load/figures.js';
export * from './load/load-results.js';
export * from './load/load-results-validate.js';
export * from './load/read-load-run.js';
export * from './report-diff/conformance-diff.js';
export * from './report-diff/load-diff.js';
export * from './report-diff/read-report-folder.js';
export * from './reports/coverage-line.js';
export * from './reports/report-files.js';
export * from './reports/results.js';
export * from './reports/results-validate.js';
