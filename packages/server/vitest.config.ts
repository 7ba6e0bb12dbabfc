import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // Each file starts its own servers and embedded databases; PGlite's first start takes seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // One process for every file: its in-memory stores start from the first one's empty files
    // (src/store/database.ts), and modules are imported once (the figures: bench/README.md, "Test stores").
    isolate: false,
  },
});
