import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The browser and the mock are heavy: one file at a time on CI's 2 cores.
    fileParallelism: false,
  },
});
