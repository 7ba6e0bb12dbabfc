import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { coverageFileVariable } from './src/coverage.js';
import ContractReporter from './src/reporter.js';

// One file per run, appended to by the test workers and read by the reporter at the end.
const coverageFile = join(tmpdir(), `gateway-contract-coverage-${process.pid}.jsonl`);
rmSync(coverageFile, { force: true });

export default defineConfig({
  test: {
    globalSetup: ['./src/global-setup.ts'],
    env: { [coverageFileVariable]: coverageFile },
    reporters: [new ContractReporter({ coverageFile }), 'default'],
    // Requests to a real server on loopback; a scenario polls an order through its lifecycle.
    testTimeout: 30_000,
    // One file at a time: the sandbox's faults, clock and prices act on every request the target
    // gets, so a file that moves a price or injects a fault must not share the target with another.
    fileParallelism: false,
    // One worker for every file, importing the document, its validator and the clients once: the
    // files share the target anyway, so a fresh module graph per file isolates nothing (and cost
    // about half the run's CPU time).
    isolate: false,
    hookTimeout: 60_000,
  },
});
