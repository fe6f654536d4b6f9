import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects (README "Commands"; `vitest run` here runs both):
 * - quiet: they count arrivals or measure the CPU over a time window (every scenario at its documented rate, the
 *   open model's dropped operations, the generator's load): the root's `pnpm test` runs them alone, after the
 *   rest, one file at a time;
 * - unit: the rest, beside the other packages' tests.
 */
export const QUIET = ['src/scenarios.smoke.test.ts', 'src/open-model.test.ts', 'src/generator-load.test.ts'];

export default defineConfig({
  test: {
    // a worker's test files share its module cache: imported once per worker, not once per file (README "Commands")
    isolate: false,
    // the package scripts' --testTimeout/--hookTimeout reach the root config only, not its projects: set here
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: [...configDefaults.exclude, ...QUIET] },
      },
      { extends: true, test: { name: 'quiet', include: QUIET, fileParallelism: false } },
    ],
  },
});
