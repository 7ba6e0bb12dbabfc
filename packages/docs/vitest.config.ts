import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The browser and the mock are heavy: one file at a time on CI's 2 cores.
    fileParallelism: false,
    // One module graph for every file: the server, the document and its validator load once, and the
    // sandboxes start from the empty store the server's build writes, unpacked once (packages/server
    // src/store/empty-store.ts). No file changes a global.
    isolate: false,
    // The worker compiles WebAssembly with V8's baseline compiler alone: the sandbox runs PGlite's
    // module briefly, and recompiling it with TurboFan in the background cost more than it saved (a
    // start with initdb took 6.2 to 6.8 s of CPU with the flag, 8.9 to 10.8 s without; 300 requests to
    // the sandbox 2.0 s against 1.9).
    execArgv: ['--liftoff-only'],
  },
});
