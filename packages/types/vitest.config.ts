import { defineConfig } from 'vitest/config';

// Most tests of this package are type-level: vitest runs tsc over test/*.test-d.ts and reports each
// failed expectation as a failed test. test/*.test.ts read the built package.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
