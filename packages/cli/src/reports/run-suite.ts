/**
 * The runner's `runSuite`, kept apart from reports/runner.ts because it loads vitest's Node API: import this
 * module lazily (`await import(...)`) so that commands other than `conform` start fast.
 *
 * @remarks A relative import for the reason given in reports/runner.ts.
 */
export { conformConfigFile, runSuite, suiteRoot } from '../../../../suites/conformance/src/runner/run-suite.js';
