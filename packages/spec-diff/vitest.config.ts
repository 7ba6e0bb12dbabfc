import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The command-line test against a git ref bundles the document four times (seconds each).
    testTimeout: 60_000,
  },
});
