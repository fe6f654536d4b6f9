import { defineConfig } from 'vitest/config';

/**
 * isolate: false: the test files of a worker share its module cache, so the contract's specs, schemas and
 * catalogue are imported once per worker, not once per file (README "Commands"). The tests hold no module
 * state between files: no vi.mock, no stubbed globals or environment, no fake timers.
 */
export default defineConfig({ test: { isolate: false } });
