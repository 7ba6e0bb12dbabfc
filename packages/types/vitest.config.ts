import { defineConfig } from 'vitest/config';

// The tests of this package are type-level: vitest runs tsc over test/*.test-d.ts and reports each
// failed expectation as a failed test.
export default defineConfig({
  test: {
    include: [],
    typecheck: {
      enabled: true,
      only: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
