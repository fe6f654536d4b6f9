/**
 * The runner's `runSuite`, kept apart from reports/runner.ts because it loads vitest's Node API: import this
 * module lazily (`await import(...)`) so that commands other than `conform` start fast.
 */
export { conformConfigFile, runSuite, suiteRoot } from '@erpcert/conformance/run-suite';
