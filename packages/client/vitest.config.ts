import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const nativeTsc = fileURLToPath(new URL('../../node_modules/typescript-native/bin/tsc', import.meta.url));

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 10_000,
    // One module graph for every file: the server, viem and Solana load once, and the sandbox
    // servers start from the empty store the server's build writes (packages/server src/store/empty-store.ts).
    // No file changes a global for good (polling's fake timers are put back in a finally).
    isolate: false,
    // The sandbox's WebAssembly (PGlite) compiled by V8's baseline compiler alone: two runs each,
    // 21.4 and 20.8 core-seconds with the flag, 29.7 and 23.0 without.
    execArgv: ['--liftoff-only'],
    // test/*.test-d.ts are type-level tests: vitest runs tsc over them, TypeScript 7's (the root's
    // typescript-native): 3.5 + 1.2 s of CPU against 10.6 + 2.0 s with 5.9's, the same 26 tests passing.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json', checker: nativeTsc },
  },
});
