import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The command-line tests bundle the document twice (about 2 s each).
    testTimeout: 60_000,
  },
});
