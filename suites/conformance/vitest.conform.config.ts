import { defineConfig } from 'vitest/config';

/**
 * The conformance run (`erpcert conform`): the property files only. The package's own `test` script runs
 * the unit tests (`src/**\/*.test.ts`) with vitest's defaults instead. The runner (src/runner/run-suite.ts)
 * adds its reporter, the target environment, the `--only` name filter and `--shard`.
 */
export default defineConfig({
  test: {
    include: ['properties/**/*.prop.ts'],
    // properties make many HTTP requests; a hung target is bounded by the client's request timeout
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // two cores on the reference machine; the target, not the CPU, is the bottleneck of most properties
    maxWorkers: 2,
    // one report per run: no retries that would hide a flaky target
    retry: 0,
    // files share a worker's module cache (client, contract, harness): a full run takes about 40% less time;
    // module state of the harness is therefore per worker, not per file
    isolate: false,
    // the transformed test files are kept in node_modules/.experimental-vitest-cache (keyed by content and
    // config): a run after the first skips vite's transforms, about a second and a half of a ~12 s default run
    experimental: { fsModuleCache: true },
  },
});
