import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const nativeTsc = fileURLToPath(new URL('../../node_modules/typescript-native/bin/tsc', import.meta.url));

// Most tests of this package are type-level: vitest runs tsc over test/*.test-d.ts and reports each
// failed expectation as a failed test; TypeScript 7's tsc (the root's typescript-native), as the
// client's type tests do. test/*.test.ts read the built package.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
      checker: nativeTsc,
    },
  },
});
