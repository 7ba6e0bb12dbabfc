import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The browser and the mock are heavy: one file at a time on CI's 2 cores.
    fileParallelism: false,
    // One module graph for every file: the server, the document and its validator load once, and the
    // sandbox of the second file that starts one (console, samples) copies the first one's empty store
    // rather than run PGlite's initdb again (packages/server src/store/database.ts). No file changes a
    // global.
    isolate: false,
    // The worker compiles WebAssembly with V8's baseline compiler alone: PGlite's initdb, at the first
    // sandbox's start, ran its module once, and recompiling it with TurboFan in the background cost more
    // than it saved (a start took 6.2 to 6.8 s of CPU with the flag, 8.9 to 10.8 s without; 300 requests
    // to the sandbox 2.0 s against 1.9).
    execArgv: ['--liftoff-only'],
  },
});
