/**
 * The conformance runner (suites/conformance/src/runner), in one place for the CLI.
 */
export * from '@erpcert/conformance/runner';
