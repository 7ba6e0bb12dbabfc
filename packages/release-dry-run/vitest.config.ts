import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each test packs real tarballs with pnpm and runs attw on them: seconds each on a busy machine.
    testTimeout: 60_000,
  },
});
