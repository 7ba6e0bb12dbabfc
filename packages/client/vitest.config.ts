import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 10_000,
    // One module graph for every file: the server, viem and Solana load once, and the sandbox
    // servers after the first start from its empty store (packages/server src/store/database.ts).
    // No file changes a global for good (polling's fake timers are put back in a finally).
    isolate: false,
    // test/*.test-d.ts are type-level tests: vitest runs tsc over them.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
