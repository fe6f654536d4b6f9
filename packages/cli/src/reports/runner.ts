/**
 * The conformance runner (suites/conformance/src/runner), in one place for the CLI.
 *
 * @remarks A relative import because packages/cli does not list `@erpcert/conformance` among its
 * dependencies yet (adding it needs a lockfile update); once it does, this becomes
 * `export * from '@erpcert/conformance/runner'` and nothing else changes.
 */
export * from '../../../../suites/conformance/src/runner/index.js';
