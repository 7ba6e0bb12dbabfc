/**
 * Prints, after the run, why each skipped test was skipped (the capabilities its target lacks, or
 * the note of a test that skipped itself, e.g. for lack of liquidity) and the coverage table (operation × documented status, exercised or not, for this target).
 */
import { rmSync } from 'node:fs';
import type { Reporter, TestCase } from 'vitest/node';
import { coverageTable, readExercised } from './coverage.js';
import type { ContractMeta } from './suite.js';

export default class ContractReporter implements Reporter {
  private readonly skipped: string[] = [];
  private targetName = process.env.GATEWAY_TARGET ?? (process.env.GATEWAY_BASE_URL ? 'custom' : 'mock');

  constructor(private readonly options: { coverageFile: string }) {}

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta() as Partial<ContractMeta>;
    if (meta.target) this.targetName = meta.target;
    const result = testCase.result();
    if (result.state !== 'skipped') return;
    if (meta.missing?.length)
      this.skipped.push(
        `  ↓ ${testCase.fullName}\n      skipped: ${meta.target} lacks ${meta.missing.map((name) => `"${name}"`).join(', ')}`,
      );
    else if (result.note) this.skipped.push(`  ↓ ${testCase.fullName}\n      skipped: ${result.note}`);
  }

  onTestRunEnd(): void {
    const lines: string[] = [''];
    if (this.skipped.length)
      lines.push(
        `Skipped against ${this.targetName} (${this.skipped.length}), each for a capability the target does not offer or for the reason given:`,
        ...this.skipped,
        '',
      );
    lines.push(coverageTable(this.targetName, readExercised(this.options.coverageFile)), '');
    process.stdout.write(`${lines.join('\n')}\n`);
    rmSync(this.options.coverageFile, { force: true });
  }
}
