/**
 * Which documented (operation, status) pairs the run exercised. Test files run in worker processes,
 * so each response is appended as one JSON line to a file the reporter reads at the end.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { operations } from './document.js';

export const coverageFileVariable = 'GATEWAY_CONTRACT_COVERAGE_FILE';

export interface Exercised {
  operationId: string;
  status: string;
}

export function recordExercised(entry: Exercised): void {
  const file = process.env[coverageFileVariable];
  if (file) appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

export function readExercised(file: string): Exercised[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Exercised);
}

/** The table: one row per operation, one column per status documented anywhere; ✓ exercised, · documented but not exercised. */
export function coverageTable(target: string, exercised: Exercised[]): string {
  const seen = new Set(exercised.map(({ operationId, status }) => `${operationId} ${status}`));
  const statuses = [...new Set(operations.flatMap((op) => Object.keys(op.responses)))].sort();
  const width = Math.max(...operations.map(({ operationId }) => operationId.length));
  const cell = (mark: string) => mark.padEnd(5);
  let documented = 0;
  let covered = 0;
  const rows = operations.map((op) => {
    const marks = statuses.map((status) => {
      if (!(status in op.responses)) return cell('');
      documented++;
      if (!seen.has(`${op.operationId} ${status}`)) return cell('·');
      covered++;
      return cell('✓');
    });
    return `${op.operationId.padEnd(width)}  ${marks.join('')}`.trimEnd();
  });
  return [
    `Contract coverage against ${target}: ${covered}/${documented} documented (operation, status) pairs exercised (✓ exercised, · not exercised)`,
    `${'operation'.padEnd(width)}  ${statuses.map(cell).join('')}`.trimEnd(),
    ...rows,
  ].join('\n');
}
