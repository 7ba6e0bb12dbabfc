// Adds up the vitest summary lines of a test log ("Tests  12 passed | 1 failed | 3 skipped (16)")
// and prints one closing line for the whole run: "tests: N passed, N failed, N skipped".
//
//   node scripts/test-summary.mjs <log>
import { readFileSync } from 'node:fs';

const log = readFileSync(process.argv[2], 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
const totals = { passed: 0, failed: 0, skipped: 0 };
let suites = 0;
for (const line of log.split('\n')) {
  const summary = /\bTests\s+(.*)\(\d+\)\s*$/.exec(line);
  if (!summary) continue;
  suites++;
  for (const [, count, kind] of summary[1].matchAll(/(\d+) (passed|failed|skipped)/g)) totals[kind] += Number(count);
}
console.log(`\n${suites} vitest runs`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
