import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The tests in five projects, so that the root's `pnpm test` can run them where they do not disturb each other
 * (README "Commands"); `vitest run` here runs all five.
 * - quiet: they count arrivals over a few seconds (a load run's invoices at the documented rate, a throttled
 *   target's queue): the root runs them alone, after everything else, one file at a time;
 * - packed: npm installs the packed workspace (download, better-sqlite3's compile): the root runs it beside the
 *   others as its own task;
 * - browser: the journeys in Debian's chromium (the hub's live runs, a hostile target, report.html): `pnpm test:all`
 *   runs them after the side-by-side step, so `pnpm test` stays a few minutes;
 * - e2e: processes of `erpcert` (conform runs, served targets): beside the unit tests;
 * - unit: the rest.
 */
export const QUIET = ['src/load/load-command.test.ts', 'src/cleanup/cleanup.e2e.test.ts'];
export const PACKED = ['src/packed-install.e2e.test.ts'];
export const BROWSER = ['src/**/*.browser.test.ts'];
export const E2E = ['src/**/*.e2e.test.ts', 'src/client-*.test.ts'];

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
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...QUIET, ...PACKED, ...E2E, ...BROWSER],
        },
      },
      {
        extends: true,
        // two files at a time (vitest's default is one worker on two cores): the longest task of the side-by-side step,
        // its conform and self-test runs wait on HTTP and child processes for part of their time
        test: { name: 'e2e', include: E2E, exclude: [...configDefaults.exclude, ...QUIET, ...PACKED], maxWorkers: 2 },
      },
      { extends: true, test: { name: 'browser', include: BROWSER, maxWorkers: 2 } },
      { extends: true, test: { name: 'packed', include: PACKED } },
      { extends: true, test: { name: 'quiet', include: QUIET, fileParallelism: false } },
    ],
  },
});
