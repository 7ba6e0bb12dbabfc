import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each test starts real Prism processes (~3 s each); leave room on a 2-core CI machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
