import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects (README "Commands"; `vitest run` here runs both):
 * - quiet: the k6 runs (they start child processes against a server and count its arrivals) and the generator's
 *   CPU measured over a window: the root's `pnpm test` runs them alone, after the rest, one file at a time;
 * - unit: the rest, beside the other packages' tests.
 */
export const QUIET = [
  'src/scenarios.smoke.test.ts',
  'src/bounded-runs.test.ts',
  'src/execution-segments.test.ts',
  'src/k6-process.test.ts',
  'src/pinned-run.test.ts',
];

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
