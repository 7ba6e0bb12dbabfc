/**
 * The code samples: one curl script and one TypeScript program per operation,
 * kept as real files under samples/<version>/<operationId>.{sh,ts}. The build
 * embeds them (in the reference and the guides) and the tests run them
 * against the mock, so what a reader copies is what was run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Operation } from './document.js';

export const samplesDirectory = fileURLToPath(new URL('../samples/', import.meta.url));

export const sampleLanguages = [
  { key: 'curl', extension: 'sh', label: 'curl', highlight: 'bash' },
  { key: 'typescript', extension: 'ts', label: 'TypeScript', highlight: 'typescript' },
] as const;

export type SampleLanguage = (typeof sampleLanguages)[number];

export interface Sample {
  language: SampleLanguage;
  file: string;
  /** Relative to the package, for messages. */
  relativePath: string;
  source: string;
}

export function samplePath(operation: Pick<Operation, 'version' | 'operationId'>, language: SampleLanguage): string {
  return `${samplesDirectory}${operation.version}/${operation.operationId}.${language.extension}`;
}

/** Both samples of an operation; throws naming the missing file, so an operation added to the document fails the build until it has samples. */
export function samplesOf(operation: Pick<Operation, 'version' | 'operationId'>): Sample[] {
  return sampleLanguages.map((language) => {
    const file = samplePath(operation, language);
    const relativePath = `samples/${operation.version}/${operation.operationId}.${language.extension}`;
    if (!existsSync(file)) throw new Error(`${operation.operationId} has no ${language.label} sample: write ${relativePath}`);
    return { language, file, relativePath, source: readFileSync(file, 'utf8').trimEnd() + '\n' };
  });
}
