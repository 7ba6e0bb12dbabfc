import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // One module graph for every file: Spectral, Redocly's models, TypeScript and the validators load
    // once. loadBundle gives each caller a fresh copy, so the files' mutations stay their own.
    isolate: false,
  },
});
