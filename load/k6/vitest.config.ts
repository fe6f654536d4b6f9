import { defineConfig } from 'vitest/config';

// The k6 runs start child processes against a server: one test file at a time on the shared 2-core machine.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    fileParallelism: false,
  },
});
