import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The command-line test against a git ref bundles the document four times (seconds each).
    testTimeout: 60_000,
    // One module graph for every file: the document package and the engine load once. No file
    // changes a global or mocks a module, and only the command-line test writes files (in a scratch
    // directory of its own).
    isolate: false,
  },
});
