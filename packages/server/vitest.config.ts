import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // Each file starts its own servers and embedded databases; PGlite's first start takes seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // One process for every file: its in-memory stores start from the build's empty files once held
    // (src/store/empty-store.ts), and modules are imported once (the figures: bench/README.md, "Test stores").
    isolate: false,
    // WebAssembly (PGlite) compiled by V8's baseline compiler alone, as the docs' tests do: two runs
    // each, 119.2 and 121.7 core-seconds with the flag, 130.1 and 122.8 without.
    execArgv: ['--liftoff-only'],
  },
});
