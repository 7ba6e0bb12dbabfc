// Adds up the vitest summary lines of a test log ("Tests  12 passed | 1 failed | 3 skipped (16)")
// and prints one closing line for the whole run: "N passed, N failed, N skipped", after one
// line per target of the contract suite (mock, server, staging), each attributed by the line its run
// starts with ("contract tests against <target> at <url>") and the same turbo prefix.
//
//   node scripts/test-summary.mjs <log>
import { readFileSync } from 'node:fs';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC [ ... m are the terminal colours the log carries, removed here.
const log = readFileSync(process.argv[2], 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
const totals = { passed: 0, failed: 0, skipped: 0 };
const targets = [];
let suites = 0;
/** The contract run under way, per turbo prefix: its target, until its summary line. */
const open = new Map();
for (const line of log.split('\n')) {
  const started = /^(.*?)contract tests against (\S+) at (\S+)/.exec(line);
  if (started) {
    open.set(started[1].trim(), { target: started[2], result: 'no summary (the run did not finish)' });
    targets.push(open.get(started[1].trim()));
    continue;
  }
  const ended = /^(.*?)(contract tests: .*|staging target: skipped.*)$/.exec(line);
  if (ended) {
    const run = open.get(ended[1].trim());
    if (run) run.result = ended[2];
    else targets.push({ target: /^contract tests: the (\S+) target/.exec(ended[2])?.[1] ?? 'staging', result: ended[2] });
    open.delete(ended[1].trim());
    continue;
  }
  const summary = /^(.*?)\bTests\s+(.*)\(\d+\)\s*$/.exec(line);
  if (!summary) continue;
  suites++;
  for (const [, count, kind] of summary[2].matchAll(/(\d+) (passed|failed|skipped)/g)) totals[kind] += Number(count);
  const run = open.get(summary[1].trim());
  if (run) run.result = summary[2].trim();
  open.delete(summary[1].trim());
}
console.log(`\n${suites} vitest runs`);
for (const { target, result } of targets) console.log(`contract suite against ${target}: ${result}`);
// Alone on the line, with no word before it: CI reads this line for the run's counts, and a line
// that starts with "tests" may be read as node:test's own summary ("tests 12"), whose counts follow on other lines.
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
