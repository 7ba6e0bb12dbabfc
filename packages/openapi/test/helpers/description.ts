/**
 * The API description (../shared/api-description.md beside the repository, or
 * API_DESCRIPTION) read as sections and tables, so tests can walk it point by point.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const descriptionPath = process.env.API_DESCRIPTION ?? resolve(repoRoot, '..', 'shared', 'api-description.md');
export const descriptionAvailable = existsSync(descriptionPath);

if (!descriptionAvailable) {
  const reason = `the API description is not at ${descriptionPath} (set API_DESCRIPTION)`;
  // CI always has shared/ beside the clone: there a missing description is a failure, not a skip.
  if (process.env.CI) throw new Error(`the description tests cannot run in CI: ${reason}`);
  console.warn(`skipped the tests against the API description: ${reason}`);
}

export interface Section {
  heading: string;
  level: number;
  body: string;
  tables: string[][][];
}

/** Cells of each Markdown table in a text, header row first, separator rows dropped. */
function tablesOf(body: string): string[][][] {
  const tables: string[][][] = [];
  let current: string[][] | undefined;
  for (const line of body.split('\n')) {
    if (line.startsWith('|')) {
      const cells = line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split('|')
        .map((cell) => cell.trim());
      if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
      if (!current) {
        current = [];
        tables.push(current);
      }
      current.push(cells);
    } else current = undefined;
  }
  return tables;
}

export function readDescription(): { text: string; sections: Section[] } {
  const text = readFileSync(descriptionPath, 'utf8');
  const sections: Section[] = [];
  const parts = text.split(/^(#{2,4}) (.+)$/m);
  for (let index = 1; index < parts.length; index += 3) {
    const body = parts[index + 2] ?? '';
    sections.push({ level: parts[index]!.length, heading: parts[index + 1]!.trim(), body, tables: tablesOf(body) });
  }
  return { text, sections };
}

/** The backticked names in a cell: "`a`, `b`" -> ["a", "b"]. */
export const codeNames = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
